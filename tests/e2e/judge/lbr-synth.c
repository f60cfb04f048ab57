/*
 * lbr-synth.c - branch-record samples made from an exact trace, for the
 * tests of `likelyprof judge --perf` on machines without a PMU
 *
 *   valgrind --tool=lackey --trace-mem=yes --vex-guest-chase=no \
 *       --log-fd=3 PROG 3>&1 >/dev/null |
 *       lbr-synth PERIOD SEED DEPTH [START LEN PGOFF SHIFT FILE]
 *
 * lackey names every instruction it runs ("I  0401b825,3"): where one
 * does not follow the one before, a branch was taken.  As a PMU sampling
 * taken branches would, a sample is taken every PERIOD taken branches
 * (give or take a quarter, from a fixed SEED), holding the last DEPTH of
 * them newest first, in perf script's -F pid,period,ip,brstack text.
 * With START..., the addresses of that mapping of the binary (in valgrind's
 * layout: START LEN PGOFF as its program header says) are moved up by
 * SHIFT and an mmap event says so, as for a position-independent binary
 * that the kernel placed elsewhere.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PID 4242

static unsigned long long rng;
static unsigned long long start, len, pgoff, shift;

static unsigned next_rand(void)
{
	rng = rng * 6364136223846793005ULL + 1442695040888963407ULL;
	return (unsigned)(rng >> 33);
}

static unsigned long long moved(unsigned long long a)
{
	return a >= start && a - start < len ? a + shift : a;
}

int main(int argc, char **argv)
{
	unsigned long long *from, *to, prev = 0, prev_end = 0, since = 0;
	unsigned long long period, next, n = 0;
	size_t depth, head = 0, i;
	char line[256];

	if (argc != 4 && argc != 9) {
		fprintf(stderr, "usage: lbr-synth PERIOD SEED DEPTH "
			"[START LEN PGOFF SHIFT FILE]\n");
		return 2;
	}
	period = strtoull(argv[1], NULL, 0);
	rng = strtoull(argv[2], NULL, 0);
	depth = strtoul(argv[3], NULL, 0);
	if (argc == 9) {
		start = strtoull(argv[4], NULL, 0);
		len = strtoull(argv[5], NULL, 0);
		pgoff = strtoull(argv[6], NULL, 0);
		shift = strtoull(argv[7], NULL, 0);
		printf("%5d PERF_RECORD_MMAP2 %d/%d: [%#llx(%#llx) @ %#llx "
		       "fe:00 1234 0]: r-xp %s\n", PID, PID, PID,
		       start + shift, len, pgoff, argv[8]);
	}
	from = calloc(depth, sizeof(*from));
	to = calloc(depth, sizeof(*to));
	if (!from || !to || !period || !depth)
		return 2;
	next = period - period / 4 + next_rand() % (period / 2 + 1);
	while (fgets(line, sizeof(line), stdin)) {
		unsigned long long a, size;
		char *end;

		if (line[0] != 'I')
			continue;
		a = strtoull(line + 3, &end, 16);
		size = *end == ',' ? strtoull(end + 1, NULL, 10) : 0;
		/* a rep instruction repeats itself: no branch */
		if (prev_end && a != prev_end && a != prev) {
			from[head] = prev;
			to[head] = a;
			head = (head + 1) % depth;
			n++;
			if (++since == next) {
				size_t k = n < depth ? (size_t)n : depth;

				printf("%5d %10llu %16llx", PID, since,
				       moved(a));
				for (i = 1; i <= k; i++) {
					size_t r = (head + depth - i) % depth;
					unsigned c = next_rand();

					printf(" 0x%llx/0x%llx/%c/-/-/%u",
					       moved(from[r]), moved(to[r]),
					       c & 1 ? 'M' : 'P', c % 300);
				}
				putchar('\n');
				since = 0;
				next = period - period / 4 +
				       next_rand() % (period / 2 + 1);
			}
		}
		prev = a;
		prev_end = a + size;
	}
	free(from);
	free(to);
	return 0;
}
