/*
 * main.c - drives each shape of tests/e2e/judge-shapes.sh; prints a sum
 * so that nothing is optimised away
 */
#include <stdio.h>
#include <stdlib.h>

#include "shapes.h"

/*
 * Stated probabilities: one above one half (read as likely), one below
 * (the value is the rare one: read as unlikely, recorded as "?"), both
 * wrong about what came, so check restates them.
 */
static __attribute__((noinline)) int stated(const int *v, int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++) {
		if (__builtin_expect_with_probability(v[i] % 5 == 0, 1, 0.9))
			s += v[i] / 5;
		if (__builtin_expect_with_probability(v[i] % 3 != 0, 1, 0.2))
			s -= i;
	}
	return s;
}

/*
 * A stream for unpack(): tokens of literals and matches, every 97th
 * match with an offset of 0 (an error); *@starts gets where each token
 * starts.
 */
static size_t encode(unsigned char *enc, size_t cap, size_t *starts,
		     size_t *nstarts)
{
	size_t ne = 0, k;
	unsigned i, nlit;

	*nstarts = 0;
	for (i = 0; ne + 8 < cap; i++) {
		nlit = 1 + i % 4;
		starts[(*nstarts)++] = ne;
		enc[ne++] = (unsigned char)(nlit << 4 | i % 13);
		for (k = 0; k < nlit; k++)
			enc[ne++] = (unsigned char)('a' + (i + k) % 26);
		enc[ne++] = i % 97 == 50 ? 0 : (unsigned char)(1 + i % nlit);
		enc[ne++] = 0;
	}
	return ne;
}

static long unpack_all(void)
{
	static unsigned char enc[8192], out[65536];
	static size_t starts[8192];
	size_t n, ne = encode(enc, sizeof(enc), starts, &n), i;
	long sum = 0;

	for (i = 0; i < n; i += 7)
		sum += unpack(enc + starts[i], ne - starts[i], out,
			      sizeof(out)) +
		       unpack_bad(enc + starts[i], ne - starts[i], 16384) +
		       skip_runs(enc + starts[i], i % 40);
	return sum;
}

int main(int argc, char **argv)
{
	static int v[4000], w[64];
	static double d[4000];
	long sum = 0;
	int i, round;

	(void)argv;
	for (i = 0; i < 4000; i++)
		v[i] = i % 97 == 0 ? -i : i * 3;
	for (i = 0; i < 4000; i++)
		d[i] = i % 13 ? (double)(i / 3) : 0.5;
	for (round = 0; round < 5; round++) {
		sum += cold_paths(2000 * argc);
		sum += rare_continue(v, 4000);
		sum += rare_above(v, 4000);
		sum += and_never(v, 4000);
		sum += cold_function(round);
		sum += both_parts(v, 4000);
		for (i = 0; i < 4000; i++)
			sum += parse_pair(v, 4000, i);
		sum += cont_end(v, 4000) + bad_cont(v, 4000);
		sum += scan_to(v + round, 4000 - round);
		sum += with_goto(v, 4000 - round);
		sum += stated(v, 4000);
		for (i = 0; i < 64; i++)
			w[i] = i % 9 ? 7 : 1;
		for (i = 4; i < 64; i++)
			sum += runs_back(w, i, 7);
		sum += (long)float_ne(d, 4000);
		sum += lead_sum(v, 4000);
		sum += spread_rare(v, 4000);
		sum += odd_pair(v, 4000);
		sum += odd_call(v, 4000);
		sum += goto_shared(v, 4000 - round);
		sum += first_and(v, 4000) + first_or(v, 4000);
		sum += first_plain(v, 4000);
		sum += never_cont(v, 4000) + never_skip(v, 4000);
		sum += cmov_part(v, 4000) + queue_run(v, 4000);
		sum += after_const(v, 4000);
		sum += after_param(v, 4000);
		sum += unpack_all();
		sum += feed_bits(v, 4000);
		sum += ctl_all(v, 4000);
		sum += run_all(v, 4000);
		sum += seq_all(v, 4000);
		sum += poll_all(v, 4000);
		for (i = 0; i < 4000; i++) {
			sum += or_ret(v[i] % 100 - 5, v[(i * 3) % 4000] % 100 - 2);
			sum += two_errs(v, 4000, i - 3);
			sum += errs_two(v, 4000, i);
			sum += err_flag(v[i] % 50, v[(i * 7) % 4000] % 40);
			sum += both_ret(v[i]);
			void_end(v[i]);
		}
	}
	if (argc > 5)
		sum += never_run(argc);
	printf("%ld\n", sum);
	return 0;
}
