#!/bin/sh
# A C++ template's site is one row whatever instantiation ran first: g++
# names the function after that instantiation (pos<int> in one run,
# pos<double> in the next), so the runtime writes the name without its
# template arguments, as clang gives it, and the two runs merge into one
# site.
cat > t.cc <<'SRC'
#include <cstring>
template <class T> int pos(T v)
{
	return __builtin_expect(v > 0, 1) ? 1 : 0;
}
int main(int argc, char **argv)
{
	if (argc > 1 && !std::strcmp(argv[1], "double"))
		return pos(2.5) + pos(1) - 2;
	return pos(1) + pos(2.5) - 2;
}
SRC
for cxx in g++ clang++; do
	CXX=$cxx $LIKELYPROF c++ -O2 t.cc -o t || exit 1
	LIKELYPROF_FILE=a.lprof ./t int
	LIKELYPROF_FILE=b.lprof ./t double
	$LIKELYPROF merge -o m.lprof a.lprof b.lprof
	echo "$cxx:"
	awk -F'\t' '$1 == "site" { print "  " $8, $2, $3 }' m.lprof
done
