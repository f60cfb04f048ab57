#!/bin/sh
# C++ sites that never ran are in the profile with zero counts, as C's
# are: in templates (one row however many instantiations), inline
# functions of a header that two units use (one row per unit, as a C
# static inline; the linker's single copy of a non-static one keeps its
# own records only), class members, lambdas, namespace scope, and a
# function no one calls.  When optimising only: at -O0 the listing is off
# and only the sites that ran are there (doc/likelyprof-cc.md).
cat > h.h <<'SRC'
template <class T> struct box {
	T v;
	int pos() const { return __builtin_expect(v > 0, 1); }
	int neg() const
	{
		if (__builtin_expect(v < 0, 0))
			return 1;
		return 0;
	}
};
inline int shared_inline(int x) { return __builtin_expect(x == 42, 0); }
static inline int shared_static(int x) { return __builtin_expect(x == 9, 0); }
int other(int x);
SRC
cat > a.cc <<'SRC'
#include <cstdlib>
#include "h.h"
static bool at_start = __builtin_expect(getenv("LP_NOPE") == 0, 1);
static int never_called(int x) { return __builtin_expect(x == 7, 0); }
int (*keep)(int) = never_called;
int main(int argc, char **)
{
	box<int> b{argc};
	box<double> d{1.5};
	auto twice = [](int x) { return __builtin_expect(x > 100, 0) ? 2 : 1; };
	int r = b.pos() + d.pos() + twice(argc) + other(argc) + at_start;
	if (argc > 5)
		r += b.neg() + shared_inline(argc) + shared_static(argc);
	return r == 5 ? 0 : 1;
}
SRC
cat > b.cc <<'SRC'
#include "h.h"
int other(int x)
{
	if (x > 3)
		return shared_inline(x) + shared_static(x) + box<long>{x}.neg();
	return 1;
}
SRC
for cxx in g++ clang++; do
	for opt in -O2 -O0; do
		CXX=$cxx $LIKELYPROF c++ $opt -Wall a.cc b.cc -o t || exit 1
		LIKELYPROF_FILE=t.lprof ./t || echo "exit $?"
		echo "$cxx $opt:"
		awk -F'\t' '$1 == "site" {
			print "  " $6 ":" $7, $8, "(" $9 ")", $2, $3 }' t.lprof |
			LC_ALL=C sort
	done
done
