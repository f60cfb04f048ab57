#!/bin/sh
# Whatever argument list the builtin takes, the instrumented build takes:
# a compound literal (the preprocessor splits it at its comma) in C, a
# template argument list in C++; and a project that includes
# <likelyprof.h> for likely()/unlikely() gets them instrumented too,
# counted as sites.
cat > c.c <<'SRC'
#include <likelyprof.h>
struct s { int a, b; };
int main(int argc, char **argv)
{
	(void)argv;
	if (__builtin_expect((struct s){argc, 2}.a, 1))
		return unlikely(argc > 5) ? 2 : 0;
	return likely(argc) ? 1 : 3;
}
SRC
cat > t.cc <<'SRC'
#include <type_traits>
template <class A, class B> int same(int x)
{
	if (__builtin_expect(std::is_same<A, B>::value, 1))
		return x;
	return -x;
}
int main() { return same<int, int>(0) + same<int, long>(0); }
SRC
for cc in gcc clang; do
	CC=$cc $LIKELYPROF cc -I"$LIKELYPROF_INCLUDE_DIR" -Wall -Wextra -Werror c.c -o c 2>&1
	LIKELYPROF_FILE=c.lprof ./c
	echo "$cc: exit $?, $(awk -F'\t' '$1 == "site" { n++; c += $2 } END { print n " sites, " c " correct" }' c.lprof)"
	cxx=$(echo $cc | sed 's/gcc/g++/; s/clang/clang++/')
	CXX=$cxx $LIKELYPROF c++ -Wall -Wextra -Werror t.cc -o t 2>&1
	LIKELYPROF_FILE=t.lprof ./t
	echo "$cxx: exit $?, $(awk -F'\t' '$1 == "site" { print $2, $3 }' t.lprof)"
done
