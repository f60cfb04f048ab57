/*
 * mode.c - a hint that follows a setting of the process (MODE in the
 * environment) beside one that follows the data, for judge-ways.sh
 */
#include <stdio.h>
#include <stdlib.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

static int verbose;
static volatile long sink;

__attribute__((noinline)) static void note(long i)
{
	sink += i;
}

__attribute__((noinline)) static long step(long i)
{
	long s = 0;

	if (unlikely(verbose)) {
		note(i);
		s += 3;
	}
	if (unlikely(i % 4 == 0)) {
		note(i);
		s += 2;
	}
	return s + 1;
}

int main(void)
{
	long i, s = 0;

	verbose = getenv("MODE") != NULL;
	for (i = 0; i < 100000; i++)
		s += step(i);
	printf("%ld\n", s);
	return 0;
}
