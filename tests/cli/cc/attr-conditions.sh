#!/bin/sh
# [[likely]]/[[unlikely]] on an if or a switch whose condition is not a
# plain expression: a declaration (`if (Opt o = get(i))` with an explicit
# operator bool, `if (auto *p = ...)` with an else, `if (int q{...})`),
# an init-statement before the condition, over two lines, and a switch
# with either.  Each is counted on the declared name, tested after the
# declaration (`if (T x = e; x)`, C++17's own form), or on the condition
# after the init-statement; the program tallies each branch itself and
# the profile must hold those numbers, with g++ and clang++ at -O0 and
# -O2, and print what the plain build prints.  `odd && Opt{...}` is an
# expression, though `T && x{...}` would declare a reference.  A
# declaration after an init-statement, and a while's declaration, are
# tested in an if of their own (`if (i; true) if (T x = e; x)`, `for (;;)
# if (T x = e; x) { S } else break;`: a body that is an if without else
# keeps its own, a continue tests again).  check quotes each as written; fix
# removes the wrong ones, git am applies the series, the tree builds.
. "$(dirname "$0")/../lib.sh"
cat > a.cc <<'SRC'
#include <cstdio>
long right[16], wrong[16];
static void tally(int k, bool held) { held ? right[k]++ : wrong[k]++; }
struct Opt {
	int v;
	explicit operator bool() const { return v != 0; }
};
static Opt get(int i) { return Opt{i % 6}; }
static int table[8] = {1, 0, 2, 0, 3, 0, 4, 0};
static int *find(int i) { return table[i % 8] ? &table[i % 8] : nullptr; }
static int step(int i)
{
	int s = 0;
	tally(1, get(i).v != 0);
	if (Opt o = get(i)) [[likely]]
		s += o.v;
	tally(2, find(i) != nullptr);
	if (auto *p = find(i)) [[likely]] {
		s += *p;
	} else [[unlikely]] {
		s--;
	}
	tally(3, !(i % 3 == 0));
	if (int r = i % 3;
	    r == 0) {
		s += 2;
	} else [[likely]] {
		s -= r;
	}
	tally(4, !(i % 10 == 9));
	if (int q{i % 10 == 9}) [[unlikely]]
		s += q;
	tally(5, i % 4 == 1);
	switch (int k = i % 4; k) {
	case 1: [[likely]] s++; break;
	default: break;
	}
	tally(6, !(i % 5 == 2 || i % 5 == 3));
	switch (int m = i % 5) {
	case 2:
	case 3: [[unlikely]] s += m; break;
	default: break;
	}
	tally(8, i % 2 != 0);
	if (int a = i; int b = a % 2) [[likely]]
		s += b;
	if (s % 2)
		tally(9, false);        /* s odd, then even */
	tally(9, true);
	while (int w = s % 2) [[unlikely]]
		s += w;
	bool odd = i & 1;
	tally(7, !(odd && Opt{i % 3}));
	if (odd && Opt{i % 3}) [[unlikely]]
		s++;
	/* a body that is an if without else, then one with a continue */
	right[10] += 3, wrong[10]++, right[11] += 2, wrong[11]++;
	int n = 0, u = 0;
	while (int left = 3 - n++) [[likely]]
		if (left != 2)
			s += left;
	while (int left = 2 - u++) {
		[[likely]] if (left == 1)
			continue;
		s += left;
	}
	return s;
}
int main()
{
	/* the line of each tally's site: the condition's */
	static const int at[] = { 0, 15, 18, 25, 31, 35, 41, 54, 45, 50,
				  59, 62 };
	long s = 0;

	for (int i = 0; i < 30000; i++)
		s += step(i);
	std::printf("%ld\n", s);
	for (int k = 1; k < 12; k++)
		std::printf("a.cc:%d %ld %ld\n", at[k], right[k], wrong[k]);
	return 0;
}
SRC
git init -q . && git add a.cc && git -c user.name=t -c user.email=t@t \
	commit -qm tree || echo "no git"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		$c -std=c++20 $o a.cc -o plain && ./plain > plain.out
		counted_as_tallied $c $o -std=c++20 -Wall a.cc
		cmp plain.out p.out && echo "prints what the plain build prints"
	done
done
check_fix_builds '^Subject\|^[-+][^-+]\|^-$' g++ -std=c++20 a.cc
