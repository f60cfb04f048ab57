/*
 * copies.h - copies of a one-part condition's test in one function
 * (tools/judge/copies.c)
 */
#ifndef LP_JUDGE_COPIES_H
#define LP_JUDGE_COPIES_H

#include <stddef.h>

#include "judge/where.h"

/*! lp_judge_copies_add_up() :
 *  Are the jumps @idx of @hint's line that ran in one function copies of
 *  its one-part condition's test, each a whole evaluation (a static
 *  inline inlined twice, a loop's test at entry and at its end), whose
 *  counts add up?
 */
int lp_judge_copies_add_up(const struct lp_hint *hint,
			   const struct lp_runs *r, const size_t *idx,
			   size_t nidx);

#endif /* LP_JUDGE_COPIES_H */
