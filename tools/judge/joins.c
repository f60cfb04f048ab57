/*
 * joins.c - a jump into a side of a hint's jump that is the other side
 * coming back: the if's statement, placed out of line (gcc's f.cold),
 * ends by jumping to the code after the if, and the compiler may give
 * that jump the next line (a value of it reloaded after a call).  Every
 * run of it passed the hint's jump, so it skipped no test of the hint.
 */
#include <string.h>

#include "judge/joins.h"

#define JOIN_WALK_MAX 64

/*
 * Did a jump that ran, other than the one at @from (the hint's, or the
 * jmp of the walk just before), enter instruction @i of @obj at @addr;
 * or, where @jumped (the walk came by a jump), did the instruction
 * before it run and fall through into it?
 */
static int entered_elsewhere(const struct lp_insns *in, const char *obj,
			     long i, uint64_t addr, uint64_t from, int jumped)
{
	size_t n;
	const struct lp_edge *e = lp_insns_edges_into(in, obj, addr, &n);
	const struct lp_insn *k;

	for (; n; n--, e++) {
		if (e->addr == from)
			continue;
		k = lp_insns_find(in, e->obj, e->addr);
		if (k && k->exe && (!k->cond || k->taken))
			return 1;
	}
	if (!jumped || i == 0 || strcmp(in->code[i - 1].obj, obj))
		return 0;
	if (in->code[i - 1].flow == LP_FLOW_JMP ||
	    in->code[i - 1].flow == LP_FLOW_END)
		return 0;
	k = lp_insns_find(in, obj, in->code[i - 1].addr);
	return k && k->exe;
}

int lp_judge_joins_from(const struct lp_insns *in, const struct lp_insn *j,
			uint64_t other, uint64_t src)
{
	uint64_t addr = other, from = j->addr;
	int step, jumped = other == j->target;

	for (step = 0; step < JOIN_WALK_MAX; step++) {
		long i = lp_code_at(in, j->obj, addr);
		const struct lp_code_insn *c;

		if (i < 0 ||
		    entered_elsewhere(in, j->obj, i, addr, from, jumped))
			return 0;
		if (addr == src)
			return 1;
		c = &in->code[i];
		if (c->flow == LP_FLOW_COND || c->flow == LP_FLOW_END)
			return 0;
		from = addr;
		jumped = c->flow == LP_FLOW_JMP;
		if (jumped) {
			addr = c->target;
			continue;
		}
		if ((size_t)i + 1 >= in->code_nr ||
		    strcmp(in->code[i + 1].obj, c->obj))
			return 0;
		addr = in->code[i + 1].addr;
	}
	return 0;
}
