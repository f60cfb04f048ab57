/*
 * hot.c - a shared library's hot function, shaped like an allocator's fast
 * path: sites that the optimiser folds (a configuration constant, as
 * jemalloc's config_debug), sites in a loop, and a call in the loop, after
 * which a compiler must compute a thread-local address again.
 */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static const int config_debug = 0;

int hot_step(int v);

int hot(const int *a, int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++) {
		if (unlikely(config_debug))
			s--;
		if (likely(a[i] >= 0))
			s += a[i];
		if (unlikely(a[i] == 7))
			s += hot_step(a[i]);
	}
	if (unlikely(config_debug && n > 3))
		return -1;
	return s;
}
