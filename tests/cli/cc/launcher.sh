#!/bin/sh
# The launcher form: the compiler is named where a subcommand would be
# (CMAKE_C_COMPILER_LAUNCHER), by name or by path; $CC is ignored then.
printf 'int main(void) { return __builtin_expect(0, 0); }\n' > m.c
CC=false $LIKELYPROF gcc m.c -o m1 && LIKELYPROF_FILE=1.lprof ./m1 && echo "gcc: ok"
CC=false $LIKELYPROF "$(command -v gcc)" m.c -o m2 && echo "path: ok"
CC="$LIKELYPROF cc" $LIKELYPROF cc m.c -o m3 && echo "CC naming likelyprof: ok"
$LIKELYPROF gcc-nonexistent-99 m.c -o m4
echo "exit $?"
