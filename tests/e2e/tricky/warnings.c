/*
 * warnings.c - the project's own warnings must survive instrumentation:
 * each function uses a hint and has a warning of its own elsewhere.  Not
 * linked; compiled plain and through `likelyprof cc`, the diagnostics
 * must be the same.
 */
#include <stdio.h>

#include "tricky.h"

int unused_var(int a)
{
	int unused;

	if (likely(a > 0))
		return 1;
	return 0;
}

int sign_compare(int a, unsigned b)
{
	if (unlikely(a == 3))
		return 2;
	if (a < b)
		return 1;
	return 0;
}

int shadowing(int a)
{
	int r = 0;

	if (likely(a)) {
		int a = 5;

		r = a;
	}
	return r;
}

void format(long v)
{
	if (unlikely(v < 0))
		printf("%d\n", v);
}
