#!/bin/sh
# The compiler's diagnostics and exit status pass through: for an error
# and for a warning in a function that uses hints, the wrapper's stderr is
# byte for byte what the compiler alone prints, with gcc and clang.  A
# warning inside a hint's condition is printed once, as without
# likelyprof (gcc would see it in two arms of the expansion), with the
# same first line.
cat > bad.c <<'SRC'
int main(void)
{
	return undeclared;
}
SRC
cat > warn.c <<'SRC'
int main(int argc, char **argv)
{
	int unused;

	(void)argv;
	return (int)__builtin_expect(argc > 2, 0);
}
SRC
cat > inside.c <<'SRC'
#define likely(x) __builtin_expect(!!(x), 1)
int f(int a, unsigned b)
{
	if (likely(a < b))
		return 1;
	return 0;
}
SRC
for cc in gcc clang; do
	for f in bad warn inside; do
		$cc -Wall -Wextra -c $f.c -o plain.o 2> plain.err
		plain=$?
		CC=$cc $LIKELYPROF cc -Wall -Wextra -c $f.c -o lp.o 2> lp.err
		lp=$?
		if cmp -s plain.err lp.err; then
			same=same
		elif [ $f = inside ] &&
		     [ "$(grep -c 'warning:' lp.err)" = 1 ] &&
		     [ "$(grep 'warning:' lp.err)" = "$(grep 'warning:' plain.err)" ]; then
			same="same warning"
		else
			same=differ
		fi
		echo "$cc $f: exit $plain/$lp, stderr $same"
	done
done
