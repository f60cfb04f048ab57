#include <stdio.h>
#include <stdlib.h>
#include "hints.h"

/* a call in each body keeps every hint a branch, never a cmov */
__attribute__((noinline)) static void hit(long *s, int k)
{
	*s += k;
	__asm__ volatile("" ::: "memory");
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 20000;
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (unlikely(i % 100 == 7))
			hit(&s, 1);
		if (unlikely(i % 4 != 0))
			hit(&s, 2);
		if (likely(argv[0][0] == '#'))
			hit(&s, 3);
		if (EXPECT_YES(i % 5 != 1))
			hit(&s, 4);
		if (unlikely(i % 3 == 0) || unlikely(i % 7 == 0))
			hit(&s, 5);
	}
	printf("%ld\n", s);
	return 0;
}
