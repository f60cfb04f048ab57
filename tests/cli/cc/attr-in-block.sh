#!/bin/sh
# [[likely]]/[[unlikely]] on the first statement of a branch's block
# (`if (c) { [[unlikely]] return -1; }`, scnlib's style, with its
# SCN_UNLIKELY_ATTR alone on the line before the statement) is the same
# hint as one on the block: that statement runs exactly when the branch
# does.  gcc honours it (the standard's paths of execution; clang only
# the attribute on the substatement itself, as its documentation says).
# Counted in an if's block, an else's, a while's, spelled out and through
# a macro of an own header and of a -isystem header; the program tallies
# each branch itself and the profile's columns must equal the tallies,
# with g++ and clang++ at -O0 and -O2.  An attribute on a later
# statement of the block is no branch's and stays uncounted, with the
# note.  fix removes the wrong ones: a line that held only the macro
# goes, git am applies the series, and the tree builds.
. "$(dirname "$0")/../lib.sh"
mkdir sys src include
cat > sys/sysattr.h <<'SRC'
#define SYS_UNLIKELY_ATTR [[unlikely]]
SRC
cat > include/attrs.h <<'SRC'
#if defined(__has_cpp_attribute) && __has_cpp_attribute(unlikely)
#define MY_UNLIKELY_ATTR [[unlikely]]
#define MY_LIKELY_ATTR [[likely]]
#else
#define MY_UNLIKELY_ATTR
#define MY_LIKELY_ATTR
#endif
SRC
cat > src/a.cc <<'SRC'
#include <cstdio>
#include <sysattr.h>
#include "attrs.h"
long right[8], wrong[8];
static void tally(int k, bool held) { held ? right[k]++ : wrong[k]++; }
static int step(int i)
{
	tally(1, !(i % 9 == 0));
	if (i % 9 == 0) {
		[[unlikely]] return 1;
	}
	tally(2, !(i % 4 != 0));
	if (i % 4 != 0) {
		MY_UNLIKELY_ATTR
		return 2;
	} else {
		MY_LIKELY_ATTR
		i += 1;
	}
	int n = i % 3;
	tally(3, !(n > 0));
	while (n > 0) {
		SYS_UNLIKELY_ATTR
		n--;
		tally(3, !(n > 0));
	}
	if (i % 5 == 0) {
		i++;
		[[unlikely]] return 3;
	}
	return 4;
}
int main()
{
	long s = 0;
	for (int i = 0; i < 20000; i++)
		s += step(i);
	std::printf("%ld\n", s);
	std::printf("src/a.cc:9 %ld %ld\n", right[1], wrong[1]);
	std::printf("src/a.cc:13 %ld %ld\n", right[2], wrong[2]);
	std::printf("src/a.cc:22 %ld %ld\n", right[3], wrong[3]);
	return 0;
}
SRC
git init -q . && git add src include &&
	git -c user.name=t -c user.email=t@t commit -qm tree || echo "no git"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		counted_as_tallied $c $o -std=c++20 -Iinclude -isystem sys src/a.cc
	done
done
check_fix_builds '^Subject\|^[-+][^-+]\|^-$' \
	g++ -std=c++20 -Iinclude -isystem sys src/a.cc
