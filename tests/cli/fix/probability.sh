#!/bin/sh
# A __builtin_expect_with_probability is judged by the number it states:
# one stating 0.9 whose value came 45% of the time (x > 10 of x in
# 0..19) is restated to 0.45; one stating 0.1 for a value that came 50%
# (x & 1) to 0.5; one stating 0.6 whose value came 55% (x < 11) is fine
# (within the 10 points of --restate-at); a macro that takes the number
# as an argument (expect_p) has it restated at its call; a macro whose
# own body holds the number (mostly) is left with that reason, since
# every use shares it.  With --restate-at 2 the 0.6 is restated too.
# Two workloads, one where the number holds and one where it does not,
# get a remove ("no one number holds").  The series applies with git am;
# the patched program builds, prints what it printed, and profiled
# again, check finds nothing left to restate.
command -v git > /dev/null || { echo "no git"; exit 77; }
mkdir repo && cd repo || exit 2
cat > p.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>
#define mostly(x) __builtin_expect_with_probability(!!(x), 1, 0.9)
#define expect_p(x, p) __builtin_expect_with_probability(!!(x), 1, p)
static int f(int x, int mode)
{
	int r = 0;
	if (__builtin_expect_with_probability(x > 10, 1, 0.9))
		r += 1;
	if (__builtin_expect_with_probability(x & 1, 1, 0.1))
		r += 3;
	if (expect_p(x < 11, 0.6))
		r += 5;
	if (expect_p(x % 4 == 0, 0.9))
		r += 7;
	if (mostly(x == 19))
		r += 11;
	if (expect_p(x % 20 < mode, 0.5))
		r += 13;
	return r;
}
int main(int argc, char **argv)
{
	long sum = 0;
	int i, mode = argc > 1 ? atoi(argv[1]) : 10;

	for (i = 0; i < 100000; i++)
		sum += f(i % 20, mode);
	printf("%ld\n", sum);
	return 0;
}
SRC
git init -q && git add p.c &&
	git -c user.name=t -c user.email=t@t commit -qm base || exit 2
$LIKELYPROF cc -O2 p.c -o p || echo "build failed"
LIKELYPROF_FILE=p.lprof ./p > before.out || echo "run failed"
cat before.out
$LIKELYPROF check --src . p.lprof
echo "check: exit $?"
$LIKELYPROF check --src . --restate-at 2 --verdict restate p.lprof |
	grep -c restate
$LIKELYPROF fix --src . p.lprof > fix.mbox
echo "fix: exit $?"
git status --porcelain --untracked-files=no
sed -e '/^Date: /d' -e '/^From /d' fix.mbox
git -c user.name=t -c user.email=t@t am -q fix.mbox || echo "git am failed"
$LIKELYPROF cc -O2 p.c -o p || echo "patched build failed"
LIKELYPROF_FILE=again.lprof ./p > after.out || echo "run failed"
cmp -s before.out after.out || echo "the output changed"
$LIKELYPROF check --src . --verdict restate again.lprof
echo "check again: exit $?"
# two workloads: mode 10 holds the stated 0.5, mode 18 does not
LIKELYPROF_FILE=w18.lprof ./p 18 > /dev/null
$LIKELYPROF check --verdict remove again.lprof w18.lprof
echo "check two workloads: exit $?"
