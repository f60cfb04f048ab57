/*
 * snappy-loop.c - the C++ library workload of bench/shared.sh: each of
 * THREADS threads makes 256 KiB of text-like input of its own (words of
 * C source and some random bytes, a fixed pseudo-random sequence per
 * thread), then ROUNDS times compresses it with snappy's C interface,
 * decompresses it and compares.  Linked against the libsnappy.so under
 * test.  Prints a checksum of the compressed sizes, which every build
 * must give.
 *
 *	snappy-loop THREADS ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <snappy-c.h>

#include "threads.h"

#define INPUT_BYTES (256 * 1024)

static long rounds;

static void make_input(char *in, size_t n, unsigned x)
{
	static const char *const words[] = { "the ", "branch ", "likely(",
		"unlikely(", ") ", "{\n\t", "}\n", "return ", "0x", "42",
		"counter", "->next" };
	size_t i = 0;

	while (i < n) {
		const char *w;

		x = x * 1103515245u + 12345u;
		if (((x >> 8) & 15) == 0) {
			in[i++] = (char)(x >> 20);
			continue;
		}
		for (w = words[(x >> 16) % 12]; *w && i < n; w++)
			in[i++] = *w;
	}
}

/* Not inlined: callgrind --toggle-collect=work counts from here. */
__attribute__((noinline)) static void *work(void *arg)
{
	size_t max = snappy_max_compressed_length(INPUT_BYTES);
	char *in = malloc(INPUT_BYTES), *packed = malloc(max),
	     *back = malloc(INPUT_BYTES);
	unsigned long sum = 0;
	long r;

	if (!in || !packed || !back)
		abort();
	make_input(in, INPUT_BYTES, (unsigned)(size_t)arg * 2654435761u + 1);
	for (r = 0; r < rounds; r++) {
		size_t plen = max, blen = INPUT_BYTES;

		if (snappy_compress(in, INPUT_BYTES, packed, &plen) !=
			    SNAPPY_OK ||
		    snappy_uncompress(packed, plen, back, &blen) !=
			    SNAPPY_OK ||
		    blen != INPUT_BYTES || memcmp(in, back, blen))
			abort();
		sum += plen;
	}
	free(in);
	free(packed);
	free(back);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	rounds = argc > 2 ? atol(argv[2]) : 200;
	return run_threads(argc > 1 ? argv[1] : NULL, work);
}
