/*
 * leaf.c - an allocator's fast path in miniature: no call, folded hints
 * (config_debug) and live ones.  Built plain it needs no stack frame; the
 * instrumented build must not need one either, since no call is visible.
 */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static const int config_debug = 0;

struct bin {
	void **top, **low;
	unsigned long bytes;
};

struct bin leaf_bins[8];

void *leaf_pop(unsigned long size);
void *leaf_pop(unsigned long size)
{
	struct bin *b;
	void *p;

	if (unlikely(config_debug) && size == 0)
		return 0;
	if (unlikely(size > 7 * 64))
		return 0;
	b = &leaf_bins[size >> 6];
	if (unlikely(config_debug))
		b->bytes = 0;
	if (likely(b->top != b->low)) {
		p = *--b->top;
		b->bytes += size;
		if (unlikely(config_debug && p == 0))
			return 0;
		return p;
	}
	return 0;
}

int leaf_push(unsigned long size, void *p);
int leaf_push(unsigned long size, void *p)
{
	struct bin *b = &leaf_bins[size >> 6 & 7];

	if (unlikely(config_debug))
		b->bytes = 1;
	*b->top++ = p;
	return 0;
}
