/*
 * pool.c - an allocator's fast path in a shared library: folded
 * configuration hints in a row, the same inline helper in two places
 * (inlined copies share their counters), and live hints between them.
 */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static const int config_debug = 0, config_fill = 0, config_stats = 1;

struct pool {
	long hits, misses;
	const int *slots;
	int n;
};

static inline int pool_check(struct pool *p, int v)
{
	if (unlikely(config_debug))
		p->misses--;
	if (unlikely(config_fill))
		v = 0;
	return v;
}

int pool_get(struct pool *p, int v)
{
	v = pool_check(p, v);
	if (likely(config_stats))
		p->hits++;
	if (unlikely(v < 0)) {
		v = pool_check(p, -v);
		if (likely(config_stats))
			p->misses++;
	}
	if (likely(v < p->n))
		return p->slots[v];
	return -1;
}
