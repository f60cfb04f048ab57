#!/bin/sh
# A C file with __builtin_expect at file scope cannot be instrumented (no
# statement can stand there); it is compiled plain with one note, and the
# program still links and runs.
cat > fs.c <<'SRC'
static long k = __builtin_expect(4, 4);
int main(void) { return __builtin_expect(k == 4, 1) ? 0 : 1; }
SRC
$LIKELYPROF cc fs.c -o fs
echo "exit $?"
./fs
echo "run $?"
