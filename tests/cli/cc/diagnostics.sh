#!/bin/sh
# The compiler's diagnostics and exit status pass through unchanged: the
# wrapper's stderr is byte for byte what the compiler alone prints, for an
# error (status 1) and for a warning (status 0), with gcc and clang.
printf 'int main(void) { return undeclared; }\n' > bad.c
printf 'int main(void) { int unused; return (int)__builtin_expect(0, 0); }\n' > warn.c
for cc in gcc clang; do
	for f in bad warn; do
		$cc -Wall -c $f.c \
			-o plain.o 2> plain.err
		plain=$?
		CC=$cc $LIKELYPROF cc -Wall \
			-c $f.c -o lp.o 2> lp.err
		lp=$?
		if cmp -s plain.err lp.err; then same=same; else same=differ; fi
		echo "$cc $f: exit $plain/$lp, stderr $same"
	done
done
