#!/bin/sh
# C++20 [[likely]]/[[unlikely]] on an if, its else, both branches, a
# while and a for body, and on a case label are sites, counted exactly
# with the direction they state (on the else: the condition expected
# false; on a label: the switch went there), on the line of their if,
# while or for, or of the label's attribute, with the unit's name: the
# program counts the same branches itself and prints them; the profile's
# correct and incorrect columns must be those numbers
# (cc/case-labels.sh has every form of label).  Its output, __FILE__ in
# the unit and in a header found beside it, and its exit status are the
# plain build's.  The forms whose branch is no condition's outcome or
# whose condition cannot be tested (if constexpr, a range-for, a plain
# statement) are left as they are, and cc's note says so once with the
# first one's reason.  A declaration's name is tested after it (`if (int
# y = e; y)`), an init-statement's condition where it stands.
# A -MD dependency file names the source, not the copy cc compiled.
# fix places each counted attribute on itself, not on the
# __builtin_expect() beside it, and removes the wrong ones (both of the
# pair; fix/attributes.sh edits every form).  g++ and clang++, -O0 and
# -O2.
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
cat > h.h <<'SRC'
static inline const char *hname(void) { return __FILE__; }
SRC
cat > a.cc <<'SRC'
#include <cstdio>
#include "h.h"
static long n_if, n_else, n_while, n_for, n_both, n_call, n_c0, n_c1, n_y, n_s;
static int f(int x)
{
	if (x % 10 == 0) [[unlikely]] {
		n_if++;
		return 1;
	}
	if (x % 3 == 0) {
		return 2;
	} else [[likely]] {
		n_else++;
	}
	if (x & 1) [[likely]]
		n_both++;
	else [[unlikely]]
		n_both += 0;
	if (__builtin_expect(x > 900, 1))
		n_call++;
	return 0;
}
static int g(int x)
{
	int i = 0, s = 0, arr[2] = {1, 2};
	while (i < x) [[likely]] {
		i++;
		n_while++;
	}
	for (int j = 0; j < x % 4; j++) [[unlikely]]
		n_for++;
	switch (x % 3) {
	[[likely]] case 0: s++; n_c0++; break;
	case 1: [[unlikely]] s += 2; n_c1++; break;
	default: break;
	}
	if (int y = x % 5) [[likely]]
		s += y, n_y++;
	if (s = x; s > 2) [[likely]]
		s--, n_s++;
	if constexpr (sizeof(int) == 4) [[likely]]
		s++;
	for (int v : arr) [[likely]]
		s += v;
	[[likely]] s++;
	return s;
}
int main()
{
	long s = 0;
	for (int i = 0; i < 100000; i++)
		s += f(i % 1000) + g(i % 7);
	std::printf("%s %s %ld\n", hname(), __FILE__, s);
	std::printf("6 %ld %ld\n", 100000 - n_if, n_if);
	std::printf("10 %ld %ld\n", n_else, 90000 - n_else);
	std::printf("15 %ld %ld\n", n_both, 60000 - n_both);
	std::printf("19 %ld %ld\n", n_call, 60000 - n_call);
	std::printf("26 %ld %ld\n", n_while, 100000L);
	std::printf("30 %ld %ld\n", 100000L, n_for);
	std::printf("33 %ld %ld\n", n_c0, 100000 - n_c0);
	std::printf("34 %ld %ld\n", 100000 - n_c1, n_c1);
	std::printf("37 %ld %ld\n", n_y, 100000 - n_y);
	std::printf("39 %ld %ld\n", n_s, 100000 - n_s);
	return 0;
}
SRC
git init -q . && git add a.cc h.h &&
	git -c user.name=t -c user.email=t@t commit -qm a.cc || echo "no git"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		$c -std=c++20 $o a.cc -o plain 2> /dev/null
		./plain > plain.out
		CXX=$c $LIKELYPROF c++ -std=c++20 $o -MD -c a.cc 2> err
		echo "$c $o: exit $?"
		grep '^likelyprof' err
		head -1 a.d | cut -d' ' -f1-2
		$LIKELYPROF c++ a.o -o p
		LIKELYPROF_FILE=p.lprof ./p > p.out
		echo "run $?"
		cmp plain.out p.out && sed 1q p.out
		sed 1d p.out > expected
		awk -F'\t' '$1 == "site" { print $7, $2, $3 }' p.lprof |
			sort -n | diff expected - && echo "counts as counted"
		awk -F'\t' '$1 == "site" { print $7, $5, $6, $9, $10 }' \
			p.lprof | sort -n
	done
done
$LIKELYPROF fix --min-hits 10 --src . p.lprof > fixes.mbox 2> fix.err
echo "fix: exit $?"
cat fix.err
grep '^[-+]	' fixes.mbox
