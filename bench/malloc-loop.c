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
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

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
	pthread_t t[16];
	unsigned long sum = 0;
	int n = argc > 1 ? atoi(argv[1]) : 1, i;
	void *r;

	iterations = argc > 2 ? atol(argv[2]) : 2000000;
	if (n < 1 || n > 16)
		return 2;
	for (i = 0; i < n; i++)
		if (pthread_create(&t[i], NULL, work, (void *)(size_t)i))
			return 1;
	for (i = 0; i < n; i++) {
		pthread_join(t[i], &r);
		sum += (unsigned long)r;
	}
	printf("checksum %lu\n", sum);
	return 0;
}
