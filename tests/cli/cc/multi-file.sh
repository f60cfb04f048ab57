#!/bin/sh
# One command compiles and links three files, of which b.c has a hint
# that cannot be instrumented (at file scope): that hint alone is plain,
# the note names its line, b.c is still built with the runtime, and the
# sites of a.c and c.c are counted.  The same with -c and no -o (one
# object per file).
cat > a.c <<'SRC'
int b(int);
int a(int x) { if (__builtin_expect(x > 0, 1)) return b(x); return 0; }
SRC
cat > b.c <<'SRC'
int c(int);

static const long k = __builtin_expect(2, 2);
int b(int x) { return c(x) + (int)k; }
SRC
cat > c.c <<'SRC'
int a(int);
int c(int x) { return __builtin_expect(x == 7, 0) ? 1 : 0; }
int main(int argc, char **argv) { (void)argv; return a(argc) == 2 ? 0 : 1; }
SRC
$LIKELYPROF cc a.c b.c c.c -o one
echo "exit $?"
LIKELYPROF_FILE=one.lprof ./one
echo "run $?"
awk -F'\t' '$1 == "site" { print $6, $8, $2, $3 }' one.lprof | sort
$LIKELYPROF cc -c a.c b.c c.c
echo "exit $?"
for o in a.o b.o c.o; do
	nm $o | grep -q lp__unit_load && echo "$o instrumented" || echo "$o plain"
done
