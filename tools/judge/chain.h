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
 *  A statement that is one "return E;" may be read through the block
 *  the compiler merged with the function's other returns of E, where
 *  the line has one jump per part of the condition in each function.
 *  @return : LP_CHAIN (LP_CHAIN_RETURN: through a merged return, whose
 *            block the caller must see entered only by its own jumps and
 *            those of the other returns of E) with @s's correct and
 *            incorrect set, and @terms the sides they sum, where every
 *            side of every jump was placed and the flows add up; 0
 *            otherwise, @s and @terms untouched.
 */
#define LP_CHAIN 1
#define LP_CHAIN_RETURN 2
int lp_judge_read_chain(struct lp_prof_site *s, const struct lp_hint *hint,
			const struct lp_runs *r, struct lp_real_cache *cache,
			const size_t *idx, size_t nidx, struct lp_terms *terms);

/*! lp_judge_read_first() :
 *  Reads the jumps @idx of @hint's line for a hint that is the first part
 *  of its if's condition (lp_hint.first): in each function one jump,
 *  one side of which runs the code of REST's call and the other decides
 *  the condition.
 *  @return : 1 with @s's counts and @terms set; 0 otherwise, both
 *            untouched.
 */
int lp_judge_read_first(struct lp_prof_site *s, const struct lp_hint *hint,
			const struct lp_runs *r, struct lp_real_cache *cache,
			const size_t *idx, size_t nidx, struct lp_terms *terms);

/*! lp_judge_rest_code() :
 *  For such a hint: is @addr of @obj code inlined from a call, on the
 *  condition's lines, of a function that REST calls?  The hint has no
 *  call, so that code is REST's, run only once the hint's jump let it.
 */
int lp_judge_rest_code(const struct lp_hint *hint, const struct lp_runs *r,
		       const char *obj, uint64_t addr);

/*! lp_judge_return_side() :
 *  For a hint whose if's statement is one "return E;", which the
 *  compiler may have merged with the function's other returns of E (its
 *  code then on another return's line, or the closing brace's): 1 where
 *  jump @j's taken side runs that return and its fall-through the code
 *  after the if, 0 the other way round, -1 where the walk cannot tell.
 */
int lp_judge_return_side(const struct lp_hint *hint, const struct lp_runs *r,
			 const struct lp_insn *j);

/*! lp_judge_return_path() :
 *  For such a hint: 1 where the code from @addr, jump @j's side, runs
 *  through the code of a return of E to the function's end; 0 where it
 *  reaches code of another line first; -1 where the walk cannot tell.
 */
int lp_judge_return_path(const struct lp_hint *hint, const struct lp_runs *r,
			 const struct lp_insn *j, uint64_t addr);

/*! lp_judge_part_elsewhere() :
 *  Has @hint's condition more parts (&&, ||) than the jumps @idx of its
 *  line in a function where they ran, and did a cmov or set run near
 *  one of them (on its sides, before a call)?  Then the jumps may test
 *  some parts only, the others computed without a jump, on other lines
 *  (gcc turns "|| x == K" before a continue into a cmov in the code
 *  after the if): no reading of those jumps is the condition's.
 */
int lp_judge_part_elsewhere(const struct lp_hint *hint,
			    const struct lp_runs *r, const size_t *idx,
			    size_t nidx);

#endif /* LP_JUDGE_CHAIN_H */
