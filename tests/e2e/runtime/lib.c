/* A shared library of the program, linked at start-up. */
#include "hints.h"

unsigned long lib_work(struct tally *t, unsigned long i);
unsigned long lib_work(struct tally *t, unsigned long i)
{
	if (likely(i % 3 != 0)) {
		t->correct[T_LIB]++;
		return 1;
	}
	t->incorrect[T_LIB]++;
	return 0;
}
