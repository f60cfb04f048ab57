/*
 * joins.c - a jump into a side of a hint's jump that is the other side
 * coming back: the if's statement, placed out of line (gcc's f.cold),
 * ends by jumping to the code after the if, and the compiler may give
 * that jump the next line (a value of it reloaded after a call).  Every
 * run of it passed the hint's jump, so it skipped no test of the hint.
 */
#include <stdlib.h>
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

#define BACK_NODES 256

/* The walk back from a jump: the instructions met, and those to visit. */
struct back {
	const struct lp_insns *in;
	const char *obj;
	uint64_t seen[BACK_NODES], todo[BACK_NODES];
	size_t nseen, ntodo;
};

/* Notes @addr to visit; 0 where the walk grows too large. */
static int back_push(struct back *b, uint64_t addr)
{
	size_t k;

	for (k = 0; k < b->nseen; k++)
		if (b->seen[k] == addr)
			return 1;
	if (b->nseen == BACK_NODES)
		return 0;
	b->seen[b->nseen++] = addr;
	b->todo[b->ntodo++] = addr;
	return 1;
}

/*
 * Pushes the instructions that ran into @addr (index @i): jumps taken to
 * it, and the instruction before it where it fell through.  0 where
 * none did (an entry of the function: a way that met no jump) or the
 * walk grows too large.
 */
static int back_preds(struct back *b, long i, uint64_t addr)
{
	const struct lp_insns *in = b->in;
	size_t n;
	const struct lp_edge *e = lp_insns_edges_into(in, b->obj, addr, &n);
	const struct lp_insn *k;
	const struct lp_code_insn *c;
	int any = 0;

	for (; n; n--, e++) {
		k = lp_insns_find(in, e->obj, e->addr);
		if (!k || !k->exe || (k->cond && !k->taken))
			continue;
		if (!back_push(b, e->addr))
			return 0;
		any = 1;
	}
	if (i > 0 && !strcmp(in->code[i - 1].obj, b->obj)) {
		c = &in->code[i - 1];
		k = lp_insns_find(in, b->obj, c->addr);
		if (c->flow != LP_FLOW_JMP && c->flow != LP_FLOW_END && k &&
		    k->exe > (c->flow == LP_FLOW_COND ? k->taken : 0)) {
			if (!back_push(b, c->addr))
				return 0;
			any = 1;
		}
	}
	return any;
}

int lp_judge_comes_after(const struct lp_insns *in, const struct lp_insn *j,
			 uint64_t other, uint64_t to, uint64_t src)
{
	struct back *b;
	long i = lp_code_at(in, j->obj, other);
	int ok = 1;

	if (i < 0 || entered_elsewhere(in, j->obj, i, other, j->addr,
				       other == j->target))
		return 0;
	b = calloc(1, sizeof(*b));
	if (!b)
		return 0;
	b->in = in;
	b->obj = j->obj;
	ok = back_push(b, src);
	while (ok && b->ntodo) {
		uint64_t addr = b->todo[--b->ntodo];

		if (addr == other)
			continue;
		i = lp_code_at(in, j->obj, addr);
		ok = i >= 0 && addr != to && addr != j->addr &&
		     back_preds(b, i, addr);
	}
	free(b);
	return ok;
}
