#!/bin/sh
# A name that spells [[likely]]/[[unlikely]] and is defined only in an
# installed library's header (found through -isystem, which cc does not
# read) is counted in a unit that defines no such name itself, whatever
# statement follows it: `if (c) SYS_UNLIKELY ++n;`, `while (...) SYS_LIKELY
# *p++ = ...;`, `if (c) SYS_UNLIKELY !...`, `case 2: SYS_LIKELY ++n;`.
# Only a word in such a place makes cc ask the compiler for the
# definitions, so the unit with none pays nothing: it has no site and no
# note.  The program tallies each branch itself; the profile's correct
# and incorrect columns must equal those tallies, with g++ and clang++,
# at -O0 and -O2.
. "$(dirname "$0")/../lib.sh"
mkdir sys src
cat > sys/sysattr.h <<'SRC'
#define SYS_UNLIKELY [[unlikely]]
#define SYS_LIKELY [[likely]]
SRC
cat > src/a.cc <<'SRC'
#include <cstdio>
#include <sysattr.h>
long right[8], wrong[8];
static void tally(int k, bool held) { held ? right[k]++ : wrong[k]++; }
static int step(int i, char *buf)
{
	int n = 0;
	tally(1, !(i % 7 == 0));
	if (i % 7 == 0) SYS_UNLIKELY ++n;
	char *p = buf;
	const char *s = "abc";
	tally(2, *s != 0);
	while (*s) SYS_LIKELY
		*p++ = *s++, tally(2, *s != 0);
	tally(3, !(i % 3 == 1));
	if (i % 3 == 1) SYS_UNLIKELY !n ? n += 2 : n--;
	switch (i % 4) {
	case 2: SYS_LIKELY
		++n;
		tally(4, true);
		return n;
	default:
		tally(4, false);
		return n;
	}
}
int main()
{
	char buf[8];
	long s = 0;
	for (int i = 0; i < 3000; i++)
		s += step(i, buf);
	std::printf("%ld\n", s);
	std::printf("src/a.cc:9 %ld %ld\n", right[1], wrong[1]);
	std::printf("src/a.cc:13 %ld %ld\n", right[2], wrong[2]);
	std::printf("src/a.cc:16 %ld %ld\n", right[3], wrong[3]);
	std::printf("src/a.cc:18 %ld %ld\n", right[4], wrong[4]);
	return 0;
}
SRC
cat > src/none.cc <<'SRC'
#include <sysattr.h>
int f(int c) { if (c) return 1; return 0; }
SRC
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		counted_as_tallied $c $o -std=c++20 -isystem sys src/a.cc
	done
	CXX=$c $LIKELYPROF c++ -std=c++20 -isystem sys -O2 -c src/none.cc \
		-o none.o
	echo "$c none: exit $?"
done
