/*
 * threads.h - the main() of bench/malloc-loop.c and bench/snappy-loop.c:
 * runs work() in THREADS threads (argv[1], 1 to 16), each given its
 * index, and prints the sum of what they return as "checksum N".
 */
#ifndef BENCH_THREADS_H
#define BENCH_THREADS_H

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>

static int run_threads(const char *threads, void *(*work)(void *))
{
	pthread_t t[16];
	unsigned long sum = 0;
	int n = threads ? atoi(threads) : 1, i;
	void *r;

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

#endif
