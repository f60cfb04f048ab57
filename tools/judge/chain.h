/*
 * chain.h - a condition of several parts read as a whole
 * (tools/judge/chain.c)
 */
#ifndef LP_JUDGE_CHAIN_H
#define LP_JUDGE_CHAIN_H

#include <stddef.h>

#include "judge/where.h"

/*! lp_judge_read_chain() :
 *  Reads the @nidx jumps @idx (into r->in->v) of @hint's line as the
 *  tests of one condition of several parts guarding an if's statement.
 *  @return : 1 with @s's correct and incorrect set, and @terms the sides
 *            they sum, where every side of every jump was placed and
 *            the flows add up; 0 otherwise, @s and @terms untouched.
 */
int lp_judge_read_chain(struct lp_prof_site *s, const struct lp_hint *hint,
			const struct lp_runs *r, struct lp_real_cache *cache,
			const size_t *idx, size_t nidx, struct lp_terms *terms);

/*! lp_judge_return_side() :
 *  For a hint whose if's statement is one "return E;", which the
 *  compiler may have merged with the function's other returns of E (its
 *  code then on another return's line, or the closing brace's): 1 where
 *  jump @j's taken side runs that return and its fall-through the code
 *  after the if, 0 the other way round, -1 where the walk cannot tell.
 */
int lp_judge_return_side(const struct lp_hint *hint, const struct lp_runs *r,
			 const struct lp_insn *j);

#endif /* LP_JUDGE_CHAIN_H */
