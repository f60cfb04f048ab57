#!/bin/sh
# C++20's [[likely]]/[[unlikely]] that cc cannot count (here the one on
# a range-for's body: the loop has no condition to test) draw a note
# once per unit: how many of how many, the first one's line and why;
# those on an if and its else (spaces inside the brackets too) are
# counted (tests/cli/cc/attributes.sh) and the profile has their one
# site, as does a case label of a switch on a declaration after an
# init-statement.  The same words in a comment, a string or
# an #if 0 group are not hints and draw nothing;
# __builtin_expect_with_probability is counted and draws nothing; the
# program builds and runs as it would plain.  With g++ and clang++ (the
# note is cc's, not the compiler's).  In a C unit [[unlikely]] is no hint
# (the C compilers ignore it): noted, not counted.
cat > a.cc <<'SRC'
// [[likely]] in a comment is not a hint
#include <cstdio>
static const char *s = "[[unlikely]] __builtin_expect_with_probability";
#if 0
int dead(int x) { if (x) [[likely]] return 1; return 0; }
#endif
int f(int x)
{
	if (x > 3) [[likely]] {
		return 1;
	} else [[ unlikely ]] {
		return 2;
	}
}
int g(int x)
{
	int t = 0, both[] = {x, 1};
	for (int v : both) [[unlikely]]
		t += v;
	switch (int z = x; int y = z) {
	[[likely]] case 1: return 3 + y - 1 + t - 2;
	default: return __builtin_expect_with_probability(x, 0, 0.9);
	}
}
int main(int argc, char **argv)
{
	(void)argv;
	std::puts(s);
	return f(argc) + g(argc) == 5 ? 0 : 1;
}
SRC
cat > b.c <<'SRC'
/* [[likely]] __builtin_expect_with_probability */
int main(void) { return __builtin_expect(0, 0); }
SRC
for c in g++ clang++; do
	CXX=$c $LIKELYPROF c++ -std=c++20 a.cc -o a
	echo "$c: exit $?"
	LIKELYPROF_FILE=a.lprof ./a
	echo "run $?"
	awk -F'\t' '$1 == "site" { print $7, $2, $3, $5, $10 }' a.lprof |
		sort -n
done
$LIKELYPROF cc b.c -o b
echo "b.c: exit $?"
# In C, gcc and clang ignore [[likely]] (with a warning): it is no hint,
# so it is not counted, and the note says why; g++ takes a .c for C++.
cat > c.c <<'SRC'
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 3) [[unlikely]]
		return 1;
	return 0;
}
SRC
for c in gcc clang g++; do
	CC=$c $LIKELYPROF cc -std=c2x -w c.c -o c 2>&1 | sed "s/^/$c: /"
	[ $c = g++ ] || CC=$c $LIKELYPROF cc -std=c2x -w -x c c.c -o c 2>&1 |
		sed "s/^/$c -x c: /"
	rm -f c.lprof
	LIKELYPROF_FILE=c.lprof ./c
	echo "$c: run $?, sites $([ -f c.lprof ] &&
		awk '/^site/ { n++ } END { print n + 0 }' c.lprof || echo 0)"
done
