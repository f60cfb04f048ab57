/*
 * malloc-loop.c - the malloc-heavy workload of bench/shared.sh: each of
 * THREADS threads keeps a ring of 64 blocks and, ITERATIONS times, frees
 * the oldest and allocates a new one of 8 to 519 bytes (a fixed
 * pseudo-random sequence per thread), touching it.  Built plain: the
 * allocator under test comes in by LD_PRELOAD.  Prints a checksum that
 * every allocator must give.
 *
 *	malloc-loop THREADS ITERATIONS
 */
#include <stdio.h>
#include <stdlib.h>

#include "threads.h"

static long iterations;

/* Not inlined: callgrind --toggle-collect=work counts from here. */
__attribute__((noinline)) static void *work(void *arg)
{
	unsigned x = (unsigned)(size_t)arg * 2654435761u + 1;
	unsigned char *ring[64] = { 0 };
	unsigned long sum = 0;
	long i;
	int k;

	for (i = 0; i < iterations; i++) {
		size_t size;

		x = x * 1103515245u + 12345u;
		size = 8 + ((x >> 16) & 511);
		k = (int)(i & 63);
		free(ring[k]);
		ring[k] = malloc(size);
		if (!ring[k])
			abort();
		ring[k][0] = (unsigned char)i;
		ring[k][size - 1] = (unsigned char)size;
		sum += ring[k][0] + ring[k][size - 1];
	}
	for (k = 0; k < 64; k++)
		free(ring[k]);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	iterations = argc > 2 ? atol(argv[2]) : 2000000;
	return run_threads(argc > 1 ? argv[1] : NULL, work);
}
