#!/bin/sh
# The compiler's diagnostics and exit status are the plain build's, byte
# for byte, with gcc and clang: an error; a warning in a function with a
# hint; a warning inside a hint's condition (gcc sees the condition in
# several arms of the expansion, and must still print it once, without
# the header's include chain); an unused variable in a one-line function
# holding a hint (gcc 12 lost it when the instrumented build printed the
# diagnostics); a C++ warning printed once per template instantiation,
# which must not be taken for a duplicate.  The object is instrumented.
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
cat > oneline.c <<'SRC'
int f(int x){ int unused; if (__builtin_expect(x,0)) return 1; return 0; }
SRC
cat > tmpl.cc <<'SRC'
template <class T> int conv(T v)
{
	int r = v;
	if (__builtin_expect(v > 0, 1))
		return r;
	return 0;
}
int main() { return conv(1L) + conv(2.5) + conv(3UL); }
SRC
for cc in gcc clang; do
	for f in bad.c warn.c inside.c oneline.c tmpl.cc; do
		case $f in
		*.cc) c=$(echo $cc | sed 's/gcc/g++/; s/clang/clang++/') sub=c++ env=CXX ;;
		*) c=$cc sub=cc env=CC ;;
		esac
		$c -Wall -Wextra -Wconversion -c $f -o plain.o 2> plain.err
		plain=$?
		env $env=$c $LIKELYPROF $sub -Wall -Wextra -Wconversion -c $f \
			-o lp.o 2> lp.err
		lp=$?
		cmp -s plain.err lp.err && same=same || same=differ
		n=$(grep -c : plain.err)
		inst=
		[ $lp = 0 ] && { nm lp.o | grep -q lp__unit_load || inst=", plain object"; }
		echo "$cc $f: exit $plain/$lp, stderr $same ($n lines with ':')$inst"
	done
done
