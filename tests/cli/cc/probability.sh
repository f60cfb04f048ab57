#!/bin/sh
# __builtin_expect_with_probability(c, v, p) is a site, counted exactly:
# with p of one half or more it expects v (correct: c was v); below one
# half it says v is the rare value, so correct counts the times c was
# not v, and the record's expected value is "?" (no one value stated).
# A condition with commas (a compound literal) is one condition; the
# call's value and the program's result are unchanged; a constant
# evaluation in C++ (constexpr) is not counted.  The profile's condition
# reads as written, in the all-branches mode's if rows too.  gcc and
# clang, C and C++.
cat > p.c <<'SRC'
#include <stdio.h>
struct pt { int a, b; };
static int f(int x)
{
	if (__builtin_expect_with_probability(x > 10, 1, 0.9))
		return 1;
	if (__builtin_expect_with_probability((struct pt){x, 2}.a == 3, 0, 0.6))
		return 2;
	if (__builtin_expect_with_probability(x & 1, 1, 0.1))
		return 3;
	return __builtin_expect(x == 4, 0) ? 4 : 0;
}
int main(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < 1000; i++)
		sum += f(i % 20);
	printf("%ld\n", sum);
	return 0;
}
SRC
sed -e 's/(struct pt){x, 2}.a == 3/(pt{x, 2}.a == 3)/' p.c > p.cc
cat >> p.cc <<'SRC'
constexpr int ce(int x)
{
	return __builtin_expect_with_probability(x > 2, 1, 0.8) ? 1 : 0;
}
static_assert(ce(5) == 1, "a constant evaluation");
SRC
sites() {
	awk -F'\t' '$1 == "site" { print $7, $2, $3, $4, $5, $10 }' "$1" |
		sort -n
}
for c in gcc clang; do
	CC=$c $LIKELYPROF cc -O2 p.c -o p || echo "$c: build failed"
	LIKELYPROF_FILE=p.lprof ./p
	sites p.lprof
	CC=$c $LIKELYPROF cc -O0 -DLIKELYPROF_ALL_BRANCHES p.c -o pa ||
		echo "$c: all-branches build failed"
	LIKELYPROF_FILE=pa.lprof ./pa > /dev/null
	sites pa.lprof | grep ' if '
done
for c in g++ clang++; do
	CXX=$c $LIKELYPROF c++ -std=c++20 -O2 p.cc -o q || echo "$c: failed"
	LIKELYPROF_FILE=q.lprof ./q
	sites q.lprof
done
