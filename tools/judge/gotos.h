/*
 * gotos.h - the gotos and labels of a function (tools/judge/gotos.c),
 * gathered as hints.c scans it
 */
#ifndef LP_JUDGE_GOTOS_H
#define LP_JUDGE_GOTOS_H

#include <stddef.h>

#include "judge/judge.h"

struct lp_gotos {
	struct lp_goto {
		char *label;
		long line;
		long if_first, if_last; /* the if it is the whole statement
					 * of, by its condition's lines */
	} *g;
	size_t ng;
	struct lp_label {
		char *name;
		long line;
	} *l;
	size_t nl;
};

/*! lp_gotos_goto() :
 *  Notes "goto L;" at @p (past the word) on @line, the whole statement of
 *  the if whose condition spans @if_first..@if_last (0: of none).
 */
void lp_gotos_goto(struct lp_gotos *gs, const char *p, long line,
		   long if_first, long if_last);

/*! lp_gotos_label() :
 *  Notes label @name (@n bytes) on @line.
 */
void lp_gotos_label(struct lp_gotos *gs, const char *name, size_t n,
		    long line);

/*! lp_gotos_give() :
 *  For @h, whose if's statement may be one "goto L;" of the function
 *  noted, which ends on line @close: where L is after the if, its line,
 *  @close, and the gotos to L (lp_hint.goto_line, .goto_end,
 *  .goto_first, .goto_last).
 */
void lp_gotos_give(const struct lp_gotos *gs, struct lp_hint *h, long close);

/* Forgets the function's gotos and labels. */
void lp_gotos_clear(struct lp_gotos *gs);

#endif /* LP_JUDGE_GOTOS_H */
