/*
 * calls.c - a hint whose condition is one call, "!f(ARGS)": the tests
 * of its line that compute the arguments (a ?: or && in them) come
 * before the call and decide nothing of its value; the one jump that
 * runs straight after the call tests it (for decide.c)
 */
#include <stdlib.h>
#include <string.h>

#include "judge/calls.h"
#include "judge/parts.h"
#include "usage.h"

/*
 * Is @cond, bar "!", parentheses and blanks around it, one call of a
 * named function: NAME (ARGS)?  Its value is the call's, whatever the
 * arguments test.
 */
static int call_alone(const char *cond)
{
	const char *p = cond;
	int depth = 0, named = 0;

	while (*p && strchr("!( \t\n", *p))
		p++;
	while (lp_judge_ident_char(*p)) {
		named = 1;
		p++;
	}
	while (*p == ' ' || *p == '\t' || *p == '\n')
		p++;
	if (!named || *p != '(')
		return 0;
	for (; *p; p++) {
		if (*p == '"' || *p == '\'')
			p = lp_judge_skip_literal(p) - 1;
		else if (*p == '(')
			depth++;
		else if (*p == ')' && !--depth)
			break;
	}
	if (!*p)
		return 0;
	for (p++; *p; p++)
		if (!strchr(") \t\n", *p))
			return 0;
	return 1;
}

/* Is @c an instruction of @hint's line? */
static int of_line(const struct lp_hint *hint, const struct lp_runs *r,
		   const struct lp_code_insn *c)
{
	const char *real = lp_real_of(r->cache, c->file);

	return c->line == hint->line && real && !strcmp(real, hint->real);
}

#define BACK_MAX 16

/*
 * The call of @hint's line that jump @a runs straight after: no branch
 * between, no jump into the code between; 0 where there is none.
 */
static uint64_t call_before(const struct lp_hint *hint,
			    const struct lp_runs *r, const struct lp_insn *a)
{
	const struct lp_insns *in = r->in;
	long i = lp_code_at(in, a->obj, a->addr), s;

	for (s = 1; i >= 0 && s <= BACK_MAX && i - s >= 0; s++) {
		const struct lp_code_insn *c = &in->code[i - s];
		size_t n = 0;

		if (strcmp(c->obj, a->obj))
			return 0;
		lp_insns_edges_into(in, a->obj, in->code[i - s + 1].addr, &n);
		if (n)
			return 0;
		if (c->call)
			return of_line(hint, r, c) ? c->addr : 0;
		if (c->flow != LP_FLOW_ON)
			return 0;
	}
	return 0;
}

#define REACH_MAX 128
#define PENDING_MAX 16
#define CALLS_MAX 8

/* The calls of a function's line that a test of the line leads into. */
struct calls {
	uint64_t v[CALLS_MAX];
	size_t nr;
};

static int is_call(const struct calls *cs, uint64_t addr)
{
	size_t k;

	for (k = 0; k < cs->nr; k++)
		if (cs->v[k] == addr)
			return 1;
	return 0;
}

/*
 * Does every way from test @b (both sides of a jump) lead into one of
 * the calls @cs, through straight code, jmps and other jumps of @hint's
 * line only?  Then @b computes an argument, and decides nothing of the
 * value (gcc may copy the call, one for each value of the argument).
 */
static int reaches_call(const struct lp_hint *hint, const struct lp_runs *r,
			const struct lp_insn *b, const struct calls *cs)
{
	const struct lp_insns *in = r->in;
	uint64_t pending[PENDING_MAX];
	size_t npending = 0, steps = 0;
	long i = lp_code_at(in, b->obj, b->addr);

	if (i < 0)
		return 0;
	pending[npending++] = lp_code_next(in, i);
	if (in->code[i].flow == LP_FLOW_COND)
		pending[npending++] = in->code[i].target;
	while (npending) {
		uint64_t addr = pending[--npending];

		while (!is_call(cs, addr)) {
			const struct lp_code_insn *c;

			i = lp_code_at(in, b->obj, addr);
			if (i < 0 || ++steps > REACH_MAX)
				return 0;
			c = &in->code[i];
			if (c->call || c->flow == LP_FLOW_END ||
			    (c->flow == LP_FLOW_COND &&
			     (!of_line(hint, r, c) || npending == PENDING_MAX)))
				return 0;
			if (c->flow == LP_FLOW_COND)
				pending[npending++] = c->target;
			if (!(addr = lp_code_next(in, i)))
				return 0;
		}
	}
	return 1;
}

static int same_fn(const struct lp_insn *a, const struct lp_insn *b)
{
	return a->sym && b->sym && !strcmp(a->obj, b->obj) &&
	       lp_same_function(a->sym, b->sym);
}

/*
 * Sorts the tests of @idx in the function of @a, where they ran: each a
 * jump straight after a call of the line (kept), or one every way from
 * which leads into such a call (marked in @drop).  0 where one is
 * neither, or none is after a call.
 */
static int sort_function(const struct lp_hint *hint, const struct lp_runs *r,
			 const size_t *idx, size_t nidx,
			 const struct lp_insn *a, char *drop)
{
	struct calls cs;
	size_t m;
	uint64_t call;

	cs.nr = 0;
	for (m = 0; m < nidx; m++) {
		const struct lp_insn *b = &r->in->v[idx[m]];

		if (!same_fn(a, b) || !b->cond ||
		    !(call = call_before(hint, r, b)))
			continue;
		if (cs.nr == CALLS_MAX)
			return 0;
		cs.v[cs.nr++] = call;
	}
	for (m = 0; m < nidx; m++) {
		const struct lp_insn *b = &r->in->v[idx[m]];

		if (!same_fn(a, b) || (b->cond && call_before(hint, r, b)))
			continue;
		if (!cs.nr || !reaches_call(hint, r, b, &cs))
			return 0;
		drop[m] = 1;
	}
	return cs.nr > 0;
}

size_t lp_judge_after_call(const struct lp_hint *hint,
			   const struct lp_runs *r, size_t *idx, size_t nidx)
{
	char *drop, *seen;
	size_t k, m, n = 0;
	int ok = 1;

	if (hint->part || hint->loop || nidx < 2 || !call_alone(hint->cond))
		return nidx;
	drop = lp_xcalloc(nidx, 1);
	seen = lp_xcalloc(nidx, 1);
	for (k = 0; k < nidx && ok; k++) {
		const struct lp_insn *a = &r->in->v[idx[k]];

		if (!a->exe || seen[k])
			continue;
		if (!a->sym) {
			ok = 0;
			break;
		}
		ok = sort_function(hint, r, idx, nidx, a, drop);
		for (m = 0; m < nidx; m++)
			seen[m] |= same_fn(a, &r->in->v[idx[m]]);
	}
	for (k = 0; k < nidx && ok; k++)
		if (!drop[k])
			idx[n++] = idx[k];
	free(drop);
	free(seen);
	return ok && n < nidx ? n : nidx;
}
