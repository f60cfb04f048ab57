#!/bin/sh
# fix edits C++20 [[likely]]/[[unlikely]] where likelyprof c++ counted
# them (tools/cc/attr.c; the profile has the if/while/for line and
# !!(c)): a flip swaps the attribute in place, on an if, on its else
# (where [[unlikely]] -> [[likely]] turns the condition's expectation
# over just the same), both of a pair, a while and a for body; a removal
# deletes the attribute (both of a pair) and the blank beside it.  In
# flips() every hint is backwards (x >= 0 always holds, the loops run 200
# times a call), in removes() each is right about half the time, in
# kept() one is right and two are forms cc does not count (a range-for's
# body, an if constexpr: no condition decided at run time), which fix
# never touches (fix/case-labels.sh edits the labels cc counts).  The series
# applies with git am; the patched program builds with g++ and clang++
# and prints what the plain build printed; profiled again, check finds
# nothing left to change.  check quotes each hint as written.  Refused:
# an attribute flipped by hand since the profile (it points the other
# way), and a profile line on a form cc does not count (never placed).
# The clang++ profile and series must be g++'s, byte for byte (skipped
# without a word on stdout where clang++ is missing).
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
command -v git > /dev/null || { echo "no git"; exit 77; }
mkdir repo && cd repo || exit 2
cat > a.cc <<'SRC'
#include <cstdio>
static int flips(int x)
{
	int s = 0, i = 0;
	if (x >= 0) [[unlikely]]
		s++;
	if (x < 0) {
		s--;
	} else [[unlikely]] {
		s += 2;
	}
	if (x >= 0) [[unlikely]]
		s += 3;
	else [[likely]]
		s -= 3;
	while (i < 200) [[unlikely]]
		i++;
	for (int j = 0; j < 200; j++) [[unlikely]]
		s++;
	return s + i;
}
static int removes(int x)
{
	int s = 0, i = 0;
	if (x & 1) [[likely]] s++;
	if (x & 2) {
		s += 2;
	} else [[likely]] {
		s += 4;
	}
	if (x & 4) [[likely]] {
		s += 8;
	} else [[unlikely]] {
		s -= 8;
	}
	while (i < (x & 1)) [[likely]]
		i++;
	for (int j = 0; j < (x & 1); j++)[[likely]]s++;
	return s + i;
}
static int kept(int x)
{
	int s = 0;
	if (x < 1000) [[likely]]
		s++;
	int both[] = {x, 1};
	for (int v : both) [[likely]]
		s += v & 1;
	if constexpr (sizeof(int) >= 2) [[likely]]
		s += 2;
	return s;
}
static volatile int base;
int main()
{
	long s = 0;
	for (int k = 0; k < 1000; k++) {
		int x = base + k;

		s += flips(x) + removes(x) + kept(x);
	}
	std::printf("%ld\n", s);
	return 0;
}
SRC
. "$(dirname "$0")/attr-series.inc"
commit_source
make_series
# the first patch's message: each hint quoted as written, and the change
awk '/^Content-Transfer/ { n++; next } n == 1 && /^---$/ { exit }
	n == 1' fixes.mbox
apply_series
git log --format=%s | sed 1q
after_series
# run again on the patched tree, the old profile is seen as older
$LIKELYPROF fix --min-hits 100 --src . before.lprof 2> again.err > again.mbox
echo "again: $(grep -c 'already changed by' again.err) already changed," \
	"$(wc -c < again.mbox) bytes"
# someone flipped the while's attribute by hand since the profile
mkdir ../by-hand && git show HEAD~2:a.cc |
	sed 's/while (i < 200) \[\[unlikely\]\]/while (i < 200) [[likely]]/' \
	> ../by-hand/a.cc
$LIKELYPROF fix --min-hits 100 --src ../by-hand --function flips \
	before.lprof 2>&1 > flipped.mbox
grep -E '^Subject:|^[-+]	' flipped.mbox
# a profile that names the line of a form cc does not count
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t0\t900\t0\t1\ta.cc\t49\tkept\ta.cc\t!!(sizeof(int) >= 2)\n'
	printf 'end\t1\n'
} > hand.lprof
$LIKELYPROF fix --min-hits 100 --src ../by-hand hand.lprof 2>&1 > hand.mbox
echo "fix: exit $?, $(wc -c < hand.mbox) bytes"
