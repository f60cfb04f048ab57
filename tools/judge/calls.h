/*
 * calls.h - a hint whose condition is one call, its arguments tested on
 * its line before the call (tools/judge/calls.c)
 */
#ifndef LP_JUDGE_CALLS_H
#define LP_JUDGE_CALLS_H

#include <stddef.h>

#include "judge/where.h"

/*! lp_judge_after_call() :
 *  For a hint whose whole condition is one call, "!f(ARGS)" (libev's
 *  "expect_true (!epoll_ctl (fd, oev && ... ? MOD : ADD, ...))"): keeps,
 *  of the @nidx jumps and tests @idx of its line, in each function where
 *  they ran, the one jump that runs straight after the line's call, the
 *  test of its value, and drops the others where every way from them
 *  leads into that call (they compute its arguments).
 *  @return : the number kept (the kept first in @idx), or @nidx, @idx
 *            untouched, where that is not so in every such function.
 */
size_t lp_judge_after_call(const struct lp_hint *hint,
			   const struct lp_runs *r, size_t *idx, size_t nidx);

#endif /* LP_JUDGE_CALLS_H */
