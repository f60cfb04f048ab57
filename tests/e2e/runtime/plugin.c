/* A module the program dlopen()s and dlclose()s before it exits. */
#include "hints.h"

unsigned long plugin_work(struct tally *t, unsigned long i);
unsigned long plugin_work(struct tally *t, unsigned long i)
{
	if (unlikely(i % 1000 == 999)) {
		t->incorrect[T_PLUGIN]++;
		return 1;
	}
	t->correct[T_PLUGIN]++;
	return 0;
}

int plugin_never(int x);
int plugin_never(int x)
{
	return likely(x > 0) ? 1 : 2;
}
