#include "branches.h"

unsigned long other_unit(unsigned long n, struct tally *k)
{
	unsigned long i, even = 0;

	for (i = 0; i < n; i++)
		even += (unsigned long)is_even_h(i * 3, k);
	return even;
}
