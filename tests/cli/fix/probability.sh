#!/bin/sh
# A stated probability that the run contradicts is reported like any
# hint (check warns, by its direction), and fix, which does not rewrite
# __builtin_expect_with_probability yet, leaves it with that reason: no
# guess at another annotation of the function, no edit, no patch.
cat > p.c <<'SRC'
static int f(int x)
{
	if (__builtin_expect_with_probability(x > 10, 1, 0.9))
		return 1;
	if (__builtin_expect_with_probability(x & 1, 1, 0.1))
		return 3;
	return __builtin_expect(x == 4, 0) ? 4 : 0;
}
int main(void)
{
	long sum = 0;
	int i;

	for (i = 0; i < 100000; i++)
		sum += f(i % 20);
	return sum == 0;
}
SRC
cp p.c p.c.orig
$LIKELYPROF cc -O2 p.c -o p || echo "build failed"
LIKELYPROF_FILE=p.lprof ./p || echo "run failed"
$LIKELYPROF check --src . p.lprof
echo "check: exit $?"
$LIKELYPROF fix --src . p.lprof
echo "fix: exit $?"
cmp -s p.c p.c.orig || echo "p.c changed"
ls *.patch 2>/dev/null || echo "no patch"
