/*
 * bigmem.c - huge pages for big arrays (see bigmem.h)
 */
#include <stdint.h>
#include <stdlib.h>
#include <sys/mman.h>

#include "bigmem.h"

#define HUGE_PAGE ((uintptr_t)2 << 20)

void lp_big_hint(void *p, size_t n)
{
#ifdef MADV_HUGEPAGE
	uintptr_t start = ((uintptr_t)p + HUGE_PAGE - 1) & ~(HUGE_PAGE - 1);
	uintptr_t end = ((uintptr_t)p + n) & ~(HUGE_PAGE - 1);

	if (!p || n < LP_BIG_MIN || end <= start)
		return;
	/* a kernel without THP says EINVAL: the pages stay small */
	(void)madvise((void *)start, (size_t)(end - start), MADV_HUGEPAGE);
#else
	(void)p;
	(void)n;
#endif
}

void *lp_big_malloc(size_t n)
{
	void *p = malloc(n);

	lp_big_hint(p, n);
	return p;
}
