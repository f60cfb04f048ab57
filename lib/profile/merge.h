/*
 * merge.h - merge profiles into one, written as it is made
 * (lib/profile/merge.c)
 *
 * Every profile's writer sorts its records by key, so the inputs of a
 * merge are sorted runs and merging them is one pass that holds one
 * record of each: memory is bounded by the number of inputs, not by
 * their size.  Inputs that are not sorted (kernel tables, CSV, standard
 * input, a profile from elsewhere) are read whole and sorted first.  The
 * sums are those of lp_profile_merge(): records of one key pair by their
 * order, counts saturate at 2^64-1.
 */
#ifndef LP_MERGE_H
#define LP_MERGE_H

#include <stdint.h>
#include <stdio.h>

#include "policy.h"
#include "profile.h"

struct lp_merge_input {
	const char *path;
	/* already read and sorted (standard input), or NULL */
	const struct lp_profile *mem;
	uint64_t weight;        /* counts are multiplied by it; 0 is 1 */
	/* --normalize: counts times num / den, rounded; den 0 is none */
	uint64_t scale_num, scale_den;
	int whole;              /* read it whole and sort it */
};

/* lp_merge_write() flags: merge profiles of different builds by key. */
#define LP_MERGE_ANY_BUILD 1u

/* Returned when an input turned out unsorted: truncate OUT, call again. */
#define LP_MERGE_AGAIN 2

/*! lp_merge_write() :
 *  Merges the @n inputs and writes the result to @out as a profile in
 *  the canonical order, with the meta every input shares, "merged" (the
 *  number of original profiles) and per site the votes of doc/FORMAT.md:
 *  an input with votes gives its own, one without them is judged by
 *  @pol.  @bufsize is each input's read buffer.  The build records of
 *  every input are kept, each once; two builds of one path are refused
 *  (-LP_ECONFLICT, naming both) unless @flags has LP_MERGE_ANY_BUILD.
 *  The labels (workloads) of every input are kept, each once, unless
 *  @label, not NULL, replaces them.
 *  @return : 0; LP_MERGE_AGAIN, with that input's whole flag now set;
 *            or -LP_E* with @diag filled ("FILE:LINE: reason"; for a
 *            count that a weight makes pass 2^64-1, -LP_ERANGE); writing
 *            @out failed: -LP_EIO, errno set and @diag empty.
 */
int lp_merge_write(FILE *out, struct lp_merge_input *in, size_t n,
		   const struct lp_policy *pol, size_t bufsize, unsigned flags,
		   const char *label, struct lp_diag *diag);

/*! lp_merge_total() :
 *  The evaluations of input @in, correct plus incorrect over its sites
 *  (saturating), which --normalize scales by.
 *  @return : 0 or -LP_E* with @diag filled.
 */
int lp_merge_total(struct lp_merge_input *in, uint64_t *total,
		   struct lp_diag *diag);

/*! lp_meta_keep_common() :
 *  Keeps in @acc only the meta that @p has with the same value, and
 *  adds the labels of @p that @acc lacks.
 */
void lp_meta_keep_common(struct lp_profile *acc, const struct lp_profile *p);


#endif /* LP_MERGE_H */
