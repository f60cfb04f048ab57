#include "hints.h"

unsigned long other_work(struct tally *t, unsigned long i)
{
	unsigned long r = 0;

	switch (expect(i & 3, 3)) {
	case 3:
		t->correct[T_OTHER_SWITCH]++;
		r += 3;
		break;
	default:
		t->incorrect[T_OTHER_SWITCH]++;
		break;
	}
	r += (unsigned long)is_multiple(t, T_INLINE_OTHER, i, 7);
	/* nested hints: the inner one runs only when i is odd */
	if (LIKELY((i & 1) && unlikely(i % 5 == 0))) {
		r++;
	}
	if (i & 1) {
		if (i % 5 == 0)
			t->incorrect[T_OTHER_NESTED_INNER]++;
		else
			t->correct[T_OTHER_NESTED_INNER]++;
	}
	if ((i & 1) && i % 5 == 0)
		t->correct[T_OTHER_NESTED_OUTER]++;
	else
		t->incorrect[T_OTHER_NESTED_OUTER]++;
	return r;
}

/* Compiled in, never called: must be in the profile with zero counts. */
int never_called(int x);
int never_called(int x)
{
	if (unlikely(x == 42))
		return 1;
	return 0;
}
