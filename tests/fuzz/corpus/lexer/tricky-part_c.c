/*
 * part_c.c - the header's static inline again (a second copy), and hints
 * in a function that is compiled but never called
 */
#include "tricky.h"

long part_c(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++) {
		s += clamp((int)(i * 3), 0, 500);
		CHECK(s < 0);
	}
	return s;
}

int never_called(int x);
int never_called(int x)
{
	if (unlikely(x == 12345))
		return 1;
	return likely(x) ? 2 : 3;
}
