/*
 * bigmem.h - memory for arrays of a million records
 *
 * A report of a million sites fills some 200 MiB of fresh memory, and the
 * first touch of each 4 KiB page of it is a fault; on the virtual machines
 * this runs on, a fault is a trip to the hypervisor, and the faults were a
 * third of report's time.  Transparent huge pages make it one fault per
 * 2 MiB.  Linux gives them to memory that asks (the usual "madvise"
 * setting); elsewhere, and for small blocks, the hint is a no-op.
 */
#ifndef LP_BIGMEM_H
#define LP_BIGMEM_H

#include <stddef.h>

/* Blocks smaller than this are not worth a system call. */
#define LP_BIG_MIN ((size_t)4 << 20)

/*! lp_big_hint() :
 *  Asks for huge pages in the 2 MiB-aligned part of the @n bytes at @p,
 *  memory the caller allocated (malloc'd is fine).  A hint: it never
 *  fails, and the memory is the same either way.
 */
void lp_big_hint(void *p, size_t n);

/*! lp_big_malloc() :
 *  malloc(@n), hinted when big.  Freed with free().
 */
void *lp_big_malloc(size_t n);

#endif /* LP_BIGMEM_H */
