/*
 * sides.h - which side of a jump of a hint's line is which
 * (tools/judge/sides.c)
 */
#ifndef LP_JUDGE_SIDES_H
#define LP_JUDGE_SIDES_H

#include <stdint.h>

#include "judge/where.h"

/*! lp_judge_own_line_exit() :
 *  Where side @addr of a jump of @hint's line leaves the line, into
 *  *@exit.
 *  @return : 0; 1 where it runs into a conditional jump of the line
 *            first (one evaluation runs both); -1 where the walk cannot
 *            tell.
 */
int lp_judge_own_line_exit(const struct lp_hint *hint,
			   const struct lp_runs *r, const char *obj,
			   uint64_t addr, uint64_t *exit);

/*! lp_judge_taken_when_true() :
 *  Jump @ins read by the lines of the statement @hint's if guards: 1
 *  where it is taken when the condition held, 0 where it falls through
 *  then, -1 where the lines do not tell.
 */
int lp_judge_taken_when_true(const struct lp_runs *r,
			     const struct lp_hint *hint,
			     const struct lp_insn *ins);

/*! lp_judge_goto_side() :
 *  For a hint whose statement is one "goto L;", L after the if: 1 where
 *  @ins's taken side goes past L first and its fall-through before it,
 *  0 the other way round, -1 where they do not differ so.
 */
int lp_judge_goto_side(const struct lp_runs *r, const struct lp_hint *hint,
		       const struct lp_insn *ins);

/*! lp_judge_shared_side() :
 *  1 where @ins's taken side runs the code a merged "return E;" or a
 *  "goto L;" shares with others, 0 where its fall-through does, -1
 *  where neither.
 */
int lp_judge_shared_side(const struct lp_runs *r, const struct lp_hint *hint,
			 const struct lp_insn *ins);

/*! lp_judge_stay_side() :
 *  For a hint whose if's statement is one "return E;": 1 where @ins is
 *  taken when the condition held (its fall-through runs on in that copy
 *  of the function, from code after the statement, to a test: no
 *  return), 0 the other way round, -1 where neither tells.
 */
int lp_judge_stay_side(const struct lp_runs *r, const struct lp_hint *hint,
		       const struct lp_insn *ins);

/*! lp_judge_skips_call() :
 *  Is jump @k, which ran into a side of @hint's jump @j, another hint's
 *  if (a whole condition of one part) taken where that condition did
 *  not hold, the statement of that if holding the call that inlined
 *  @hint's function where @j is?  Then @k skips the call, carrying no
 *  evaluation of @hint: the code after the call is where both meet.
 */
int lp_judge_skips_call(const struct lp_hint *hint, const struct lp_runs *r,
			const struct lp_insn *j, const struct lp_insn *k);

#endif /* LP_JUDGE_SIDES_H */
