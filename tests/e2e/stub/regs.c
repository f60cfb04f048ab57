/*
 * regs.c - values live in registers across a site's first count must come
 * out of it unchanged.  The first count calls the runtime from an asm the
 * compiler cannot see into (likelyprof.h, LP_STUB_TICK_), so nothing but
 * the stub itself keeps the registers: integers in caller-saved registers,
 * doubles in SSE ones, a 256-bit vector in an AVX one, and the flags of a
 * compare that straddles a site.  Each of the 64 sites is a first count
 * once per thread, in 4 threads; the checksums must equal the plain
 * build's, which is the test's expected output.
 */
#include <pthread.h>
#include <stdio.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

/* eight integer and four double chains, all live across the site */
#define STEP(k)                                                          \
	do {                                                             \
		a = a * 3 + (k); b ^= a >> 3; c += b * 5; d -= c;        \
		e += d ^ (k); f = f * 7 + e; g ^= f << 1; h += g;        \
		x = x * 1.5 + (k); y = y * 0.5 + x; z += y * 0.25;       \
		w -= z * 0.125;                                          \
		if (unlikely(((a ^ h) & 0xfff) == (k)))                  \
			h++;                                             \
		a += h; x += w;                                          \
	} while (0)

#define STEP8(k) STEP(k); STEP(k + 1); STEP(k + 2); STEP(k + 3);         \
	STEP(k + 4); STEP(k + 5); STEP(k + 6); STEP(k + 7)

__attribute__((noinline)) static double chains(unsigned long seed)
{
	unsigned long a = seed, b = seed * 3, c = seed ^ 7, d = seed + 11;
	unsigned long e = seed * 13, f = seed - 17, g = seed << 2;
	unsigned long h = seed >> 1;
	double x = (double)seed, y = 1.0, z = 2.0, w = 3.0;

	STEP8(0); STEP8(8); STEP8(16); STEP8(24);
	STEP8(32); STEP8(40); STEP8(48); STEP8(56);
	return (double)(a + b + c + d + e + f + g + h) + x + y + z + w;
}

#if defined(__x86_64__) && defined(__GNUC__)
typedef double v4d __attribute__((vector_size(32)));

/* a ymm value live across first counts (when built with -mavx) */
__attribute__((noinline)) static double vec(double s)
{
	v4d v = { s, s + 1, s + 2, s + 3 }, m = { 1.5, 0.5, 2.0, 0.25 };
	int i;

	for (i = 0; i < 8; i++) {
		v = v * m + v;
		if (unlikely(v[i & 3] < 0))
			v = -v;
	}
	return v[0] + v[1] + v[2] + v[3];
}
#else
static double vec(double s)
{
	return s;
}
#endif

/* flags set before a site and read after it */
__attribute__((noinline)) static int straddle(long p, long q)
{
	int lt = p < q;

	if (unlikely(p == 12345))
		p = 0;
	return lt + (p < q) * 2;
}

static double results[5];

static void *run(void *arg)
{
	unsigned long seed = (unsigned long)arg;

	/*
	 * In this order: chains() takes the thread's first 64 slots, so
	 * vec()'s first count grows the list with memcpy, which in glibc
	 * uses (and then clears the upper halves of) the vector registers.
	 */
	results[seed] = chains(seed);
	results[seed] += vec((double)seed);
	results[seed] += straddle((long)seed, 5);
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	int i;

	for (i = 0; i < 4; i++)
		if (pthread_create(&t[i], NULL, run,
				   (void *)(unsigned long)(i + 1)))
			return 1;
	for (i = 0; i < 4; i++) {
		pthread_join(t[i], NULL);
		printf("thread %d: %a\n", i + 1, results[i + 1]);
	}
	printf("main: %a\n", chains(99) + vec(99.0));
	return 0;
}
