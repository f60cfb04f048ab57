#!/bin/sh
# fix edits C++20 [[likely]]/[[unlikely]] where likelyprof c++ counted
# them (tools/cc/attr.c; the profile has the if/while/for line and
# !!(c)): a flip swaps the attribute in place, on an if, on its else
# (where [[unlikely]] -> [[likely]] turns the condition's expectation
# over just the same), both of a pair, a while and a for body; a removal
# deletes the attribute (both of a pair) and the blank beside it.  In
# flips() every hint is backwards (x >= 0 always holds, the loops run 200
# times a call), in removes() each is right about half the time, in
# kept() one is right and two are forms cc does not count (a case label,
# a declaration as condition), which fix never touches.  The series
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
	switch (x % 3) {
	[[likely]] case 0: s++; break;
	default: break;
	}
	if (int y = x % 5) [[likely]]
		s += y;
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
export SOURCE_DATE_EPOCH=1700000000 GIT_AUTHOR_NAME=t \
	GIT_AUTHOR_EMAIL=t@example.com GIT_COMMITTER_NAME=t \
	GIT_COMMITTER_EMAIL=t@example.com
git init -q . && git add a.cc && git commit -qm a.cc || exit 2
# Profiles with compiler $1 into $1.lprof; the output must be plain's.
profile() {
	$1 -std=c++20 -O2 a.cc -o plain-$1 && ./plain-$1 > plain-$1.out
	CXX=$1 $LIKELYPROF c++ -std=c++20 -O2 a.cc -o p-$1 2> /dev/null &&
		LIKELYPROF_FILE=$1.lprof ./p-$1 > p-$1.out
	cmp plain-$1.out p-$1.out || echo "$1: the output changed"
}
profile g++
cat plain-g++.out
$LIKELYPROF check --min-hits 100 --src . g++.lprof 2>&1
echo "check: exit $?"
$LIKELYPROF fix --min-hits 100 --src . g++.lprof > fixes.mbox
echo "fix: exit $?"
cp g++.lprof before.lprof
if command -v clang++ > /dev/null; then
	profile clang++
	awk -F'\t' '$1 == "site"' g++.lprof | sort > g.sites
	awk -F'\t' '$1 == "site"' clang++.lprof | sort | diff g.sites - ||
		echo "clang++: another profile"
	$LIKELYPROF fix --min-hits 100 --src . clang++.lprof |
		cmp fixes.mbox - || echo "clang++: another series"
else
	echo "clang++: missing, skipped" >&2
fi
grep -E '^Subject:' fixes.mbox
# the first patch's message: each hint quoted as written, and the change
awk '/^Content-Transfer/ { n++; next } n == 1 && /^---$/ { exit }
	n == 1' fixes.mbox
grep -E '^[-+]	' fixes.mbox
git am -q fixes.mbox && echo "git am: applied"
git log --format=%s | sed 1q
grep -n '\[\[' a.cc
g++ -std=c++20 -O2 a.cc -o fixed && ./fixed | cmp plain-g++.out - &&
	echo "g++: builds, same output"
if command -v clang++ > /dev/null; then
	clang++ -std=c++20 -O2 a.cc -o fixed &&
		./fixed | cmp plain-g++.out - || echo "clang++: differs"
fi
profile g++
$LIKELYPROF check --min-hits 100 --src . g++.lprof 2>&1
echo "check after: exit $?"
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
	printf 'site\t0\t900\t0\t1\ta.cc\t50\tkept\ta.cc\t!!(y)\n'
	printf 'end\t1\n'
} > hand.lprof
$LIKELYPROF fix --min-hits 100 --src ../by-hand hand.lprof 2>&1 > hand.mbox
echo "fix: exit $?, $(wc -c < hand.mbox) bytes"
