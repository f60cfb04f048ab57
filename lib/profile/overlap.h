/*
 * overlap.h - how alike two profiles are (lib/profile/overlap.c)
 *
 * The score is llvm-profdata overlap's: each profile's counts as shares
 * of its own total, and per branch edge (a site's hinted side and its
 * other side) the smaller of the two shares, summed: 1 when both
 * profiles spend their evaluations alike, 0 when they share nothing.
 * doc/likelyprof-overlap.md defines it exactly.
 */
#ifndef LP_OVERLAP_H
#define LP_OVERLAP_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

/* A site of both profiles whose shares of wrong evaluations differ. */
struct lp_overlap_site {
	const struct lp_prof_site *a, *b;       /* into the profiles */
	uint64_t evals_a, evals_b;      /* correct + incorrect, saturated */
	double wrong_a, wrong_b;        /* incorrect / evaluations, 0..1 */
};

struct lp_overlap {
	double score;                   /* 0..1 */
	uint64_t total_a, total_b;      /* evaluations of each profile */
	size_t sites_a, sites_b;        /* records of each */
	size_t both;                    /* records paired */
	struct lp_overlap_site *diff;   /* sites run in both, worst first */
	size_t diff_nr;
};

#define LP_OVERLAP_INIT { 0, 0, 0, 0, 0, 0, NULL, 0 }

/*! lp_overlap() :
 *  Sorts @a and @b and pairs their records as merge does (key, then
 *  order), then fills @out; its sites point into @a and @b.
 *  @return : 0 or -LP_ENOMEM.
 */
int lp_overlap(struct lp_profile *a, struct lp_profile *b,
	       struct lp_overlap *out);
void lp_overlap_release(struct lp_overlap *o);

#endif /* LP_OVERLAP_H */
