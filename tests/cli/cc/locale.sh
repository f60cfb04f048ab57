#!/bin/sh
# Under a translated gcc (LC_ALL=de_DE.UTF-8) nothing depends on the
# message language: a file with a file-scope hint still builds (plain,
# with the note), a warning inside a hint prints once, and stderr is the
# plain build's line for line, note aside.  The German text itself shows
# that the translation was in use.
if ! locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	echo "no de_DE.UTF-8 locale (.ci/run generates it)"
	exit 77
fi
export LC_ALL=de_DE.UTF-8
cat > fs.c <<'SRC'
static long k = __builtin_expect(4, 4);
int f(int a, unsigned b)
{
	if (__builtin_expect(a < b, 1))
		return (int)k;
	return 0;
}
SRC
gcc -Wall -Wextra -c fs.c -o plain.o 2> plain.err
CC=gcc $LIKELYPROF cc -Wall -Wextra -c fs.c -o lp.o 2> lp.err
echo "exit $?"
grep -c Warnung lp.err
grep -v '^likelyprof: note: fs.c: the hint at fs.c:1 cannot be counted' lp.err > rest.err
cmp -s plain.err rest.err && echo "stderr as plain"
grep -c '^likelyprof: note' lp.err
cat > ok.c <<'SRC'
int g(int a, unsigned b)
{
	int unused;
	if (__builtin_expect(a < b, 1))
		return 1;
	return 0;
}
SRC
gcc -Wall -Wextra -c ok.c -o plain.o 2> plain.err
CC=gcc $LIKELYPROF cc -Wall -Wextra -c ok.c -o lp.o 2> lp.err
echo "exit $?"
cmp -s plain.err lp.err && echo "stderr as plain: $(grep -c Warnung lp.err) warnings"
nm lp.o | grep -q lp__unit_load && echo instrumented
