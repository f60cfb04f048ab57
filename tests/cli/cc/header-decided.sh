#!/bin/sh
# What cc's note says a unit leaves uncounted is read in the text the
# instrumented compile reads, not in the files' own: in an expanded unit
# (an own header with a form to count), gcc has decided the #ifdef inside
# a header's condition, so that hint is counted and the note does not
# name it; clang keeps the group, leaves the hint, and says so.  The
# profile's sites are the note's complement with each compiler; the
# source's own note is the same with both.  A C unit's note that C
# compilers ignore [[unlikely]] is kept when it is compiled expanded.
. "$(dirname "$0")/../lib.sh"
cat > h.h <<'SRC'
static inline int f(int x)
{
	if (x < 0) [[unlikely]] return -1;
	if (x % 3 == 0
#ifdef EXTRA
	    || x % 5 == 0
#endif
	    ) [[unlikely]]
		return 2;
	while (x > 100) [[likely]]
		x /= 2;
	do [[likely]] { x++; } while (x < 3);
	return x;
}
SRC
cat > a.cc <<'SRC'
#include <cstdio>
#include "h.h"
int main()
{
	long s = 0;
	for (int i = 0; i < 1000; i++) {
		if (i & 1) [[likely]]
			s += f(i);
		[[unlikely]] s++;
	}
	std::printf("%ld\n", s);
}
SRC
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	rm -f p.lprof
	CXX=$c $LIKELYPROF c++ -std=c++20 -O2 a.cc -o p 2>&1
	echo "$c: exit $?"
	LIKELYPROF_FILE=p.lprof ./p
	own_site_counts p.lprof
done
# A C unit compiled expanded (its header's --hint-macro call) keeps the
# note that C compilers ignore the attribute: no expanded plan says more
cat > m.h <<'SRC'
#define likely(x) (x)
static inline int hf(int x) { if (likely(x > 3)) return 1; return 0; }
SRC
cat > c.c <<'SRC'
#include "m.h"
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1) [[unlikely]]
		return 2;
	return hf(argc);
}
SRC
$LIKELYPROF cc -std=c2x -w --hint-macro likely -O2 c.c -o q 2>&1
echo "c: exit $?"
rm -f p.lprof
LIKELYPROF_FILE=p.lprof ./q
own_site_counts p.lprof
