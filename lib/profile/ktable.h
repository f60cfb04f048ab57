/*
 * ktable.h - the kernel's annotated branch table, as trace_stat prints it
 *
 * The kernel's kernel/trace/trace_branch.c prints trace_stat/
 * branch_annotated (and branch_all) in one fixed layout and order.  report
 * reproduces it byte for byte, fix quotes rows of it in its messages, and
 * the profile reader reads it back, so the layout lives here once.
 */
#ifndef LP_KTABLE_H
#define LP_KTABLE_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* The two header lines of branch_annotated, exactly as the kernel prints. */
#define LP_KERNEL_HEADER                                \
	" correct incorrect  % "                        \
	"       Function                "               \
	"  File              Line\n"                    \
	" ------- ---------  - "                        \
	"       --------                "               \
	"  ----              ----\n"

/* branch_all overlays miss on correct and hit on incorrect. */
#define LP_KERNEL_ALL_HEADER                            \
	"   miss      hit    % "                        \
	"       Function                "               \
	"  File              Line\n"                    \
	" ------- ---------  - "                        \
	"       --------                "               \
	"  ----              ----\n"

/* A row never needs more room than this, newline and NUL included. */
#define LP_KERNEL_ROW_MAX 160
/* The kernel's cut of a function name: "%-30.30s". */
#define LP_KERNEL_FUNC_WIDTH 30

/*! lp_kernel_percent() :
 *  The kernel's percent incorrect: incorrect * 100 / (correct + incorrect)
 *  in integer division; 100 when only incorrect is non-zero; -1 (printed
 *  "X") when there were no evaluations.  Computed without overflow.
 */
long lp_kernel_percent(uint64_t correct, uint64_t incorrect);

/*
 * A row with what the order needs at hand: sorting a million rows
 * compares each some twenty times, and a trip to the site or its strings
 * is a cache miss.  Kept small (40 bytes), because the sort moves keys.
 * Function names share their first bytes often (the generated ones of
 * bench/, a subsystem's prefix), so sixteen of them are kept; the base
 * name is looked up only for two functions of one name in two files.
 */
struct lp_kernel_key {
	uint64_t incorrect, correct;    /* copies of the site's */
	uint64_t func8[2];      /* the first 16 bytes of func, big-endian */
	const struct lp_prof_site *site;
};

void lp_kernel_key_init(struct lp_kernel_key *k, const struct lp_prof_site *s);

/*! lp_kernel_key_cmp() :
 *  lp_kernel_cmp() on two struct lp_kernel_key, in qsort()'s form.
 */
int lp_kernel_key_cmp(const void *a, const void *b);

/*! lp_kernel_sort() :
 *  Sorts @n keys in lp_kernel_key_cmp() order, much faster than qsort()
 *  on large arrays: buckets by percent in place, then a merge sort that
 *  moves the keys, not pointers to them, in two threads when big (each
 *  sorts half of every bucket, then merges the halves of half of them).
 *  @return : 0 or -LP_ENOMEM (the keys are then sorted by qsort()).
 */
int lp_kernel_sort(struct lp_kernel_key *keys, size_t n);

/*! lp_kernel_bucket() :
 *  The bucket lp_kernel_sort() puts @s's key in, of LP_KERNEL_BUCKETS: its
 *  percent, 100 first; 0 last but for the never run (X).
 */
#define LP_KERNEL_BUCKETS 102
size_t lp_kernel_bucket(const struct lp_prof_site *s);

/*! lp_kernel_sort_bucketed() :
 *  lp_kernel_sort_par() of keys already in their buckets, in order:
 *  bucket b ends at @end[b].  A caller that makes the keys in two threads
 *  can put each in its place as it goes, which spares the sort a pass
 *  that moves every key in one thread.
 */
int lp_kernel_sort_bucketed(struct lp_kernel_key *keys, size_t n,
			    const size_t *end, size_t par_min);

/*! lp_kernel_sort_par() :
 *  lp_kernel_sort() that sorts in two threads from @par_min keys on
 *  (lp_kernel_sort() gives LP_KERNEL_SORT_PAR_MIN; tests give 0, to
 *  check the threaded sort on small arrays).
 */
#define LP_KERNEL_SORT_PAR_MIN ((size_t)1 << 16)
int lp_kernel_sort_par(struct lp_kernel_key *keys, size_t n, size_t par_min);

/*! lp_kernel_cmp() :
 *  The kernel's order, worst first: percent incorrect descending (X last),
 *  then incorrect descending, then correct ascending.  The kernel leaves
 *  further ties to its rbtree; here they go by function, file base name
 *  and line, then the rest of the key, so the order is total.
 *  @return : < 0 when @a is printed before @b.
 */
int lp_kernel_cmp(const struct lp_prof_site *a, const struct lp_prof_site *b);

/*! lp_kernel_row() :
 *  Formats @s as the kernel prints a row: "%8lu %8lu " (or
 *  "%8lu/%lu %*lu " when constant is non-zero), "%3ld " or "  X ", and
 *  "%-30.30s %-20.20s %d\n" of function, file base name and line.
 *  @buf : room for LP_KERNEL_ROW_MAX bytes; the row is NUL-terminated.
 *  @return : the row's length.
 */
size_t lp_kernel_row(char *buf, const struct lp_prof_site *s);

/*! lp_kernel_row_width() :
 *  The same row with the function's field @func_width wide (cut there,
 *  or padded to it).
 *  @buf : room for LP_KERNEL_ROW_MAX + @func_width bytes.
 */
size_t lp_kernel_row_width(char *buf, const struct lp_prof_site *s,
			   size_t func_width);

/*! lp_kernel_header_width() :
 *  The two header lines for rows of lp_kernel_row_width(): with @func_width
 *  30 they are LP_KERNEL_HEADER (LP_KERNEL_ALL_HEADER when @all).
 *  @buf : room for 2 * (@func_width + 80) bytes.
 */
void lp_kernel_header_width(char *buf, size_t func_width, int all);

#endif /* LP_KTABLE_H */
