/* An if in a static inline of a header: one site per unit that uses it. */
#ifndef BRANCHES_H
#define BRANCHES_H

struct tally {
	unsigned long t, f;     /* times true, times false, as counted here */
};

static __inline__ int is_even_h(unsigned long v, struct tally *k)
{
	if (v % 2 == 0) {
		k->t++;
		return 1;
	}
	k->f++;
	return 0;
}

/* A macro that holds an if, expanded at its caller's line. */
#define CHECK_SMALL(v, k) do {                  \
		if ((v) < 10)                   \
			(k)->t++;               \
		else                            \
			(k)->f++;               \
	} while (0)

unsigned long other_unit(unsigned long n, struct tally *k);

#endif
