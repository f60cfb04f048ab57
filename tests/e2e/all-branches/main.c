/*
 * Every if of this program is a site in all-branches mode.  The program
 * counts by itself how often each one was true and false, and prints
 * "NAME true false" lines that the test compares with the profile.
 */
#include <stdio.h>
#include <stdlib.h>
#include "branches.h"

#define likely(x) __builtin_expect(!!(x), 1)

static struct tally k_mod3, k_comma, k_else, k_ptr, k_hint, k_macro,
	k_even_main, k_even_other, k_nested, k_folded;

/* -O2 folds its calls: the if then sees a constant, still counted */
static int little_endian(void)
{
	const union { unsigned u; unsigned char c[sizeof(unsigned)]; } one = { 1 };

	return one.c[0];
}

static int side(unsigned long *calls, unsigned long i)
{
	(*calls)++;
	return (int)(i % 7);
}

int main(int argc, char **argv)
{
	unsigned long n = argc > 1 ? strtoul(argv[1], NULL, 10) : 1000;
	unsigned long i, calls = 0, even = 0;
	char *buf = NULL;

	for (i = 0; i < n; i++) {
		if (i % 3 == 0)
			k_mod3.t++;
		else
			k_mod3.f++;
		/* a comma in the condition; side() runs exactly once */
		if (side(&calls, i), i % 5 == 1)
			k_comma.t++;
		else if (i % 5 == 2)
			k_else.t++;
		else
			k_comma.f++, k_else.f++;
		/* an assignment, a pointer */
		if ((buf = (i % 4) ? NULL : (char *)&i) != NULL)
			k_ptr.t++;
		else
			k_ptr.f++;
		/* an annotated condition: both the hint and the if count */
		if (likely(i < n / 2))
			k_hint.t++;
		else
			k_hint.f++;
		CHECK_SMALL(i, &k_macro);
		even += (unsigned long)is_even_h(i, &k_even_main);
		if (i % 2) {
			if (i % 10 == 1)
				k_nested.t++;
			else
				k_nested.f++;
		}
		if (little_endian())
			k_folded.t++;
		else
			k_folded.f++;
		/* constant expressions are left alone */
		if (sizeof(long) < 4)
			abort();
	}
	even += other_unit(n, &k_even_other);
	if (calls != n)
		return 3;
	printf("mod3 %lu %lu\n", k_mod3.t, k_mod3.f);
	printf("comma %lu %lu\n", k_comma.t, k_comma.f + k_else.t);
	printf("else %lu %lu\n", k_else.t, k_else.f);
	printf("ptr %lu %lu\n", k_ptr.t, k_ptr.f);
	printf("hint %lu %lu\n", k_hint.t, k_hint.f);
	printf("macro %lu %lu\n", k_macro.t, k_macro.f);
	printf("even_main %lu %lu\n", k_even_main.t, k_even_main.f);
	printf("even_other %lu %lu\n", k_even_other.t, k_even_other.f);
	printf("nested %lu %lu\n", k_nested.t, k_nested.f);
	printf("folded %lu %lu\n", k_folded.t, k_folded.f);
	printf("even %lu\n", even);
	return 0;
}
