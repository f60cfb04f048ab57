#!/bin/sh
# A hint in a macro that reaches a function only as an argument of
# another macro (an X-macro: GPRDEF(MINCOST), as LuaJIT's register
# allocator has it) is placed at that call and changed in the macro's
# body when every use agrees; where the uses disagree, fix says so
# instead of claiming that the function has no annotation.
cat > x.c <<'SRC'
#include <stdio.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

#define GPRDEF(_) _(0) _(1) _(2) _(3)

static int cost[4];

/* better than the best so far: rare once a few were seen */
#define MINCOST(r) \
	if (unlikely(cost[r] < best)) { \
		best = cost[r]; \
		pick = r; \
	}

/* a free register: written by someone who expected none */
#define ANYFREE(r) \
	if (unlikely(cost[r] >= 0)) \
		nfree++;

static int ra_evict(void)
{
	int best = 1 << 30, pick = -1;

	GPRDEF(MINCOST)
	return pick;
}

static int ra_free(void)
{
	int nfree = 0;

	GPRDEF(ANYFREE)
	return nfree;
}

int main(int argc, char **argv)
{
	long i, s = 0;

	(void)argv;
	for (i = 0; i < 100000; i++) {
		cost[i & 3] = (int)(i % 17) + argc;
		s += ra_evict() + ra_free();
	}
	printf("%ld\n", s);
	return 0;
}
SRC
"$LIKELYPROF" cc -O2 x.c -o x || exit 1
"$LIKELYPROF" run -o x.lprof ./x > /dev/null 2>&1 || exit 1
"$LIKELYPROF" check --src . x.lprof 2>&1
"$LIKELYPROF" fix --src . x.lprof > x.mbox 2> fix.err
cat fix.err
grep '^Subject\|^[-+]	' x.mbox
exit 0
