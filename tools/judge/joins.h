/*
 * joins.h - a jump into a side of a hint's jump that is its other side
 * coming back (tools/judge/joins.c)
 */
#ifndef LP_JUDGE_JOINS_H
#define LP_JUDGE_JOINS_H

#include <stdint.h>

#include "judge/judge.h"
#include "judge/where.h"

/*! lp_judge_joins_from() :
 *  Does every run of the jump at @src pass through side @other (its
 *  target or its fall-through) of jump @j: straight code from @other to
 *  @src (through jmps and calls, no test), which no jump that ran but
 *  @j and the walk's own entered, nor code before a jmp's target fell
 *  into?  Then a jump from @src into @j's other side is @j's own flow
 *  joining it (an if's statement ending), not a test skipped.
 */
int lp_judge_joins_from(const struct lp_insns *in, const struct lp_insn *j,
			uint64_t other, uint64_t src);

/*! lp_judge_comes_after() :
 *  Does every way that ran into the jump at @src, walked back through
 *  the jumps taken and the fall-throughs that ran, meet side @other of
 *  jump @j (which no other jump that ran entered) before it meets @j,
 *  its side @to, or code nothing ran into?  Then every run of it came
 *  after @j went that way, as an if's statement with tests of its own
 *  (an inlined callee's) ends by jumping to the loop's next round.
 */
int lp_judge_comes_after(const struct lp_insns *in, const struct lp_insn *j,
			 uint64_t other, uint64_t to, uint64_t src);

#endif /* LP_JUDGE_JOINS_H */
