#!/bin/sh
# cc adds the force-include for -c, -S, -E and -M, the runtime for links
# (programs and -shared), and nothing for --version: checked through what
# each output holds.
cat > a.c <<'SRC'
int f(int x) { if (__builtin_expect(x > 3, 0)) return 1; return 0; }
SRC
cat > main.c <<'SRC'
int f(int x);
int main(int argc, char **argv) { (void)argv; return f(argc); }
SRC
L=$LIKELYPROF
$L cc -c a.c -o a.o && nm a.o | grep -q lp__enter_cold && echo "-c: instrumented"
$L cc -S a.c -o a.s && grep -q lp_sites a.s && echo "-S: instrumented"
$L cc -E a.c | grep -q 'lp__site_' && echo "-E: instrumented"
$L cc -M a.c | grep -q 'likelyprof.h' && echo "-M: the header is a dependency"
$L cc -fPIC -shared a.c -o liba.so && readelf -d liba.so | grep -q 'liblikelyprof' &&
	echo "-shared: runtime linked"
$L cc main.c a.o -o prog && readelf -d prog | grep -q 'liblikelyprof' &&
	echo "link: runtime linked"
LIKELYPROF_FILE=p.lprof ./prog x y z w; echo "prog exit $?"
grep -c '^site' p.lprof
$L cc --version > v.out && head -1 v.out | grep -qi -e gcc -e clang -e cc &&
	echo "--version: passed through"
# a preprocessed file already holds the header: not included twice
$L cc -E a.c > a.i && $L cc -c a.i -o ai.o && echo ".i: compiled"
