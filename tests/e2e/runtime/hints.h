/* The project's own spellings, as real code has them. */
#ifndef HINTS_H
#define HINTS_H
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define LIKELY(x)   __builtin_expect((x) != 0, 1)
#define expect(x, c) __builtin_expect((x), (c))

/*
 * What the program counts by itself, to compare with the profile: one
 * entry per site, summed over threads.  Per-thread arrays, summed at join,
 * so the program's own tally is exact without atomics.
 */
enum {
	T_MAIN_LOOP, T_MAIN_RARE, T_INLINE_MAIN, T_INLINE_OTHER, T_OTHER_SWITCH,
	T_OTHER_NESTED_OUTER, T_OTHER_NESTED_INNER, T_LIB, T_PLUGIN, T_NSITES
};
struct tally { unsigned long long correct[T_NSITES], incorrect[T_NSITES]; };

static inline int is_multiple(struct tally *t, int site, unsigned long i,
			      unsigned long k)
{
	/* a static inline in a header: one copy per file that calls it */
	if (unlikely(i % k == 0)) {
		t->incorrect[site]++;
		return 1;
	}
	t->correct[site]++;
	return 0;
}

unsigned long other_work(struct tally *t, unsigned long i);
#endif
