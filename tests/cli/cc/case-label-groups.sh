#!/bin/sh
# [[likely]]/[[unlikely]] on a default label in a switch with #if groups
# among its labels: whether a case is there is the preprocessor's to say,
# so the default's test of "no case matched" is written with the groups
# around the tests of the labels they hold, and a #line gives the lines
# after it their numbers back (__LINE__ after the switch is the plain
# build's).  Nested groups, #ifdef/#else, in the source; in an own header
# compiled expanded, where gcc has decided the groups already and clang
# writes them as `#if 0` with line markers among the labels (a label
# after them keeps its line).  Built both ways of the groups with g++
# and clang++: the profile's counts equal the program's own tallies.  A
# #define among the labels, or a group the switch ends inside, leave the
# default unknown: not counted, with the note.  check quotes the
# defaults; fix removes the wrong ones, git am applies, the tree builds.
. "$(dirname "$0")/../lib.sh"
mkdir include src
cat > include/ops.h <<'SRC'
/* an own header: a unit including it is compiled expanded */
extern long right[16], wrong[16];
static inline void tally(int k, bool held) { held ? right[k]++ : wrong[k]++; }
static inline int op(int x)
{
	int s = 0;
	if (x < 0) [[unlikely]]
		return -1;
	tally(1, x % 4 == 0 || x % 4 == 2 || (HAVE_ONE && x % 4 == 1));
	tally(2, !(x % 4 == 2));
	switch (x % 4) {
	case 0: s += 1; break;
#if HAVE_ONE
	case 1: s += 2; break;
#endif
	case 2: [[unlikely]] s += 3; break;
	[[unlikely]] default: s--; break;
	}
	return s;
}
SRC
cat > src/a.cc <<'SRC'
#include <cstdio>
#include "ops.h"
long right[16], wrong[16]; int odd(int), late(int);
static int step(int x, int *at)
{
	int s = 0;
	tally(3, x % 8 == 0 || x % 8 == 1 || x % 8 == 4 ||
		 (HAVE_ONE && x % 8 == 5) || (!HAVE_ONE && x % 8 == 6));
	switch (x % 8) {
	case 0:
	case 1:
		s++;
		break;
#ifdef WITH_FIVE
#if HAVE_ONE
	case 5: s += 5; break;
#endif
#else
# if !HAVE_ONE
	case 6: s += 6; break;
# endif
#endif
	case 4: s += 4; break;
	[[unlikely]] default: at[0] = __LINE__; s--;
	}
	at[1] = __LINE__;
	return s + op(x) + odd(x) + late(x);
}
int main()
{
	long s = 0;
	int at[2] = { 0, 0 };

	for (int i = 0; i < 24000; i++)
		s += step(i, at);
	std::printf("%ld %d %d\n", s, at[0], at[1]);
	std::printf("include/ops.h:17 %ld %ld\n", right[1], wrong[1]);
	std::printf("include/ops.h:16 %ld %ld\n", right[2], wrong[2]);
	std::printf("src/a.cc:24 %ld %ld\n", right[3], wrong[3]);
	std::printf("include/ops.h:7 %ld %ld\n", 24000L, 0L);
	return 0;
}
SRC
cat > src/b.cc <<'SRC'
/* where the labels cannot be told: a #define among them, and an #if
 * group that the switch ends inside */
int odd(int x)
{
	switch (x % 3) {
	case 0: return 1;
#define TWO 2
	case TWO: return 2;
	[[likely]] default: return 3;
	}
}
int late(int x)
{
#if 1
	switch (x % 5) {
	case 0: return 0;
#endif
	[[likely]] default: return 4;
	}
}
SRC
git init -q . && git add include src && git -c user.name=t \
	-c user.email=t@t commit -qm tree || echo "no git"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for d in "-DHAVE_ONE=0" "-DHAVE_ONE=1 -DWITH_FIVE"; do
		echo "$d"
		$c -std=c++20 -O2 -Iinclude $d src/a.cc src/b.cc -o plain &&
			./plain > plain.out
		counted_as_tallied $c -O2 -std=c++20 -Iinclude $d src/a.cc \
			src/b.cc
		cmp plain.out p.out && echo "prints what the plain build prints"
	done
done
check_fix_builds '^Subject\|^[-+][^-+]' \
	g++ -std=c++20 -Iinclude -DHAVE_ONE=1 -DWITH_FIVE src/a.cc
