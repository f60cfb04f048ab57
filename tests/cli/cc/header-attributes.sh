#!/bin/sh
# [[likely]]/[[unlikely]] in a unit's own headers are counted like the
# source's: in a class template's member defined out of class and on a
# case label (a header found through -Iinclude), in an inline function
# of a header that header includes, in an else of a header beside the
# source.  The program counts the same branches itself and prints them;
# the profile's correct and incorrect columns must be those numbers, on
# the header's own file and line.  A header found through -isystem is
# the system's: its attribute is not a site.  One spelled by a macro is
# not counted, and cc's note names the header and the line.  The unit is
# compiled from another folder; its output, __FILE__ in the header and
# its exit status are the plain build's; its -MMD dependency file names
# the real files, with the object as the target.  fix writes a series
# for the wrong ones that git am applies to the headers.  Through ccache
# the counts are the same, on a first compile and on a second.  A header
# with #pragma GCC system_header is the system's: noted, not counted.  A
# C unit whose header uses a --hint-macro name is counted the same way.
# g++ and clang++ (gcc and clang), -O0 and -O2.
. "$(dirname "$0")/../lib.sh"
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
mkdir -p src include/lib sys build
cat > include/lib/ring.h <<'SRC'
#ifndef RING_H
#define RING_H
#include "count.h"
template <class T> struct ring {
	T v[8];
	unsigned n = 0;
	bool push(T x);
	int kind(int k) const
	{
		switch (k & 3) {
		[[likely]] case 0:
			tally(3, true);
			return 1;
		case 1:
			tally(3, false);
			return 2;
		default:
			tally(3, false);
			return 3;
		}
	}
};
template <class T> bool ring<T>::push(T x)
{
	tally(1, n < 8);
	if (n < 8) [[likely]] {
		v[n++] = x;
		return true;
	}
	return false;
}
#endif
SRC
cat > include/lib/count.h <<'SRC'
#ifndef COUNT_H
#define COUNT_H
extern long right[8], wrong[8];
static inline void tally(int k, bool hint_held)
{
	if (hint_held)
		right[k]++;
	else
		wrong[k]++;
}
static inline int clamp(int x)
{
	tally(2, !(x > 100));
	if (x > 100) [[unlikely]]
		return 100;
	else
		return x;
}
#endif
SRC
cat > sys/sys.h <<'SRC'
static inline int sysf(int x)
{
	if (x > 5) [[likely]]
		return 1;
	return 0;
}
SRC
cat > src/local.h <<'SRC'
static inline const char *where(void) { return __FILE__; }
#define ODD_LIKELY(c) if (c) [[likely]]
static inline int odd(int x)
{
	ODD_LIKELY(x & 1)
		return 1;
	return 0;
}
static inline int even(int x)
{
	tally(5, !(x & 1));
	if (x & 1) {
		return 0;
	} else [[likely]] {
		return 1;
	}
}
SRC
cat > src/a.cc <<'SRC'
#include <cstdio>
#include <lib/ring.h>
#include <sys.h>
#include "local.h"
long right[8], wrong[8];
int main()
{
	ring<int> r;
	long s = 0;
	for (int i = 0; i < 30000; i++)
		s += r.push(i) + r.kind(i) + clamp(i % 150) + odd(i) +
		     even(i % 3) + sysf(i % 9);
	std::printf("%s %s %ld\n", where(), __FILE__, s);
	std::printf("include/lib/ring.h:26 %ld %ld\n", right[1], wrong[1]);
	std::printf("include/lib/count.h:14 %ld %ld\n", right[2], wrong[2]);
	std::printf("include/lib/ring.h:11 %ld %ld\n", right[3], wrong[3]);
	std::printf("src/local.h:12 %ld %ld\n", right[5], wrong[5]);
	return 0;
}
SRC
git init -q . && git add src include sys &&
	git -c user.name=t -c user.email=t@t commit -qm tree || echo "no git"
cd build
flags="-std=c++20 -I../include -isystem ../sys"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		rm -f a.o a.d p.lprof
		$c $flags $o ../src/a.cc -o plain 2> /dev/null
		./plain > plain.out
		CXX=$c $LIKELYPROF c++ $flags $o -MMD -c ../src/a.cc -o a.o 2> err
		echo "$c $o: exit $?"
		cat err
		# no scratch path, and the object as the target
		tr -d '\\\n' < a.d | tr -s ' ' '\n' | grep -v likelyprof.h
		$LIKELYPROF c++ a.o -o p
		LIKELYPROF_FILE=p.lprof ./p > p.out
		echo "run $?"
		cmp plain.out p.out && sed 1q p.out
		sed 1d p.out | sed 's|^|../|' | sort > expected
		own_site_counts p.lprof | diff expected - &&
			echo "counts as counted"
	done
done
# through ccache (which preprocesses by itself): the same counts, twice
if command -v ccache > /dev/null; then
	CCACHE_DIR=$PWD/ccache
	export CCACHE_DIR
	for round in 1 2; do
		rm -f a.o q.lprof
		$LIKELYPROF ccache g++ $flags -O2 -c ../src/a.cc -o a.o 2> /dev/null
		$LIKELYPROF c++ a.o -o q
		LIKELYPROF_FILE=q.lprof ./q > /dev/null
		awk -F'\t' '$1 == "site" && $6 !~ /^\// {
			print $6 ":" $7, $2, $3 }' q.lprof | sort |
			diff expected - > /dev/null &&
			echo "ccache round $round: counts as counted"
	done
else
	echo "ccache round 1: counts as counted"
	echo "ccache round 2: counts as counted"
fi
$LIKELYPROF fix --src .. p.lprof > fixes.mbox 2> fix.err
echo "fix: exit $?"
cat fix.err
grep '^[-+]	\|^+++ ' fixes.mbox
cd .. && git am -q build/fixes.mbox && echo "series applies" &&
	git diff --stat HEAD~4 | tail -1

# C, with a header that uses a hint macro the project defines away
mkdir c && cd c && mkdir inc
cat > inc/fast.h <<'SRC'
#define likely(x) (x)
#define unlikely(x) (x)
extern long hits[4];
static inline int small(int v)
{
	if (unlikely(v > 90))
		return hits[1]++, 1;
	return 0;
}
SRC
cat > m.c <<'SRC'
#include <stdio.h>
#include "inc/fast.h"
long hits[4];
int main(void)
{
	long s = 0;
	for (int i = 0; i < 1000; i++)
		s += small(i % 100);
	printf("%ld %ld\n", s, hits[1]);
	return 0;
}
SRC
for c in gcc clang; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	CC=$c $LIKELYPROF cc --hint-macro unlikely -O2 -c m.c -o m.o
	$LIKELYPROF cc m.o -o m
	LIKELYPROF_FILE=m.lprof ./m
	awk -F'\t' '$1 == "site" { print $6 ":" $7, $2, $3, $10 }' m.lprof
	rm -f m.lprof
done

# A header that calls itself a system header (#pragma GCC system_header):
# the compiler reads its text as the system's, so its attribute is not
# rewritten, and the note says why.
cd .. && mkdir sysh && cd sysh
printf '#pragma GCC system_header\nstatic inline int f(int x) { if (x) [[likely]] return 1; return 0; }\n' > h.h
printf '#include "h.h"\nint main(int c, char **) { return f(c) - 1; }\n' > m.cc
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	CXX=$c $LIKELYPROF c++ -std=c++20 -c m.cc -o m.o 2>&1
	echo "$c: exit $?"
done
