/*
 * part_a.c - side effects, nesting, loops, ternaries, two hints on a line
 */
#include "tricky.h"

struct node { struct node *next; long v; };

long part_a(long n)
{
	long i = 0, s = 0, evaluated = 0, seen = 0;
	struct node nodes[4], *p;
	int k;

	/* the condition has a side effect: evaluated exactly once */
	while (likely(i++ < n))
		s += i;
	s += i;
	/* nested hints */
	for (k = 0; likely(k < 50); k++) {
		if (likely(k > 2 && unlikely(k % 7 == 0)))
			s += 3;
		/* two hints on one line */
		if (likely(k & 1) && unlikely(k > 40)) s += 5;
		/* ternary, and a value that must keep its type (long) */
		s += unlikely(k == 13) ? 100 : 1;
		s += (long)sizeof(__builtin_expect(k, 1));
		s += expect(k & 3, 3) == 3 ? 2 : 0;
		evaluated += LIKELY(seen++ >= 0);
	}
	/* pointers as conditions */
	for (k = 0; k < 4; k++) {
		nodes[k].v = k;
		nodes[k].next = k < 3 ? &nodes[k + 1] : 0;
	}
	for (p = nodes; likely(p != 0); p = p->next)
		s += p->v;
	if (likely(nodes[3].next))
		s += 1000;
	return s + evaluated;
}
