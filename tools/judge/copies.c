/*
 * copies.c - several jumps of a one-part condition's line in one
 * function that are copies of its test, each a whole evaluation, whose
 * counts add up: a static inline inlined twice, a loop's test at its
 * entry and its end, clang's test before a while and at its head (for
 * decide.c)
 */
#include <string.h>

#include "judge/copies.h"
#include "judge/sides.h"

/*
 * The jumps and tests of the line that ran: only they hold evaluations.
 * A copy that never ran adds nothing, whatever its shape, and is not
 * looked at; each one that ran must be a whole test of the condition,
 * neither side running into another jump of the line.
 */
static int ran_jumps_whole(const struct lp_hint *hint,
			   const struct lp_runs *r, const size_t *idx,
			   size_t nidx)
{
	uint64_t to;
	size_t k;

	for (k = 0; k < nidx; k++) {
		const struct lp_insn *ins = &r->in->v[idx[k]];

		if (!ins->exe)
			continue;
		if (!ins->cond || !ins->next ||
		    lp_judge_own_line_exit(hint, r, ins->obj, ins->target,
					   &to) ||
		    lp_judge_own_line_exit(hint, r, ins->obj, ins->next, &to))
			return 0;
	}
	return 1;
}

/*
 * Does jump @j of a while's condition fall through, by straight code (no
 * test, no call), into the loop's body?  Then its fall-through is the
 * condition held, and its evaluation ends there.
 */
static int falls_into_body(const struct lp_hint *hint,
			   const struct lp_runs *r, const struct lp_insn *j)
{
	const struct lp_insns *in = r->in;
	uint64_t addr = j->next;
	int step;

	if (hint->then_first <= 0 || hint->then_first > hint->then_last)
		return 0;
	for (step = 0; addr && step < 32; step++) {
		long i = lp_code_at(in, j->obj, addr);
		const struct lp_code_insn *c;

		if (i < 0)
			return 0;
		if (lp_in_then(r, hint, j->obj, addr))
			return 1;
		c = &in->code[i];
		if (c->flow == LP_FLOW_COND || c->call)
			return 0;
		addr = lp_code_next(in, i);
	}
	return 0;
}

/*
 * A loop's condition tested at the loop's entry (a jump forwards, past
 * the loop) and at its end (a jump backwards, round again): per
 * function, one of each at most among those that ran, each a whole
 * evaluation.  Several forward ones (clang tests a while's condition
 * before the loop and again at its head, its back edges jmps) where
 * each falls straight into the body: each evaluation ends in the body
 * or out of the loop, at one of them.
 */
static int loop_copies(const struct lp_hint *hint, const struct lp_runs *r,
		       const size_t *idx, size_t nidx)
{
	const struct lp_insns *in = r->in;
	size_t k, m;

	if (hint->expect != 1)
		return 0;
	for (k = 0; k < nidx; k++) {
		const struct lp_insn *a = &in->v[idx[k]];
		int back = a->target <= a->addr && a->target >= a->sym_start;

		if (!a->exe)
			continue;
		if (!a->sym)
			return 0;
		for (m = k + 1; m < nidx; m++) {
			const struct lp_insn *b = &in->v[idx[m]];
			int bback = b->target <= b->addr &&
				    b->target >= b->sym_start;

			if (b->exe && b->sym && !strcmp(a->obj, b->obj) &&
			    lp_same_function(a->sym, b->sym) && back == bback &&
			    (back || !falls_into_body(hint, r, a) ||
			     !falls_into_body(hint, r, b)))
				return 0;
		}
	}
	return 1;
}

/*
 * Are @a and @b of one inlined instance of the hint's function: code
 * inlined from the same chain of calls (none: its own code)?
 */
static int same_instance(const struct lp_runs *r, const struct lp_insn *a,
			 const struct lp_insn *b)
{
	long ra = lp_run_at(r, a->obj, a->addr), rb = lp_run_at(r, b->obj,
								b->addr);
	const struct lp_code_line *x, *y;
	size_t k;

	if (ra < 0 || rb < 0)
		return 1;
	x = &r->in->lines[ra];
	y = &r->in->lines[rb];
	for (k = 0; k < LP_INLINED_BY; k++) {
		if (!x->by_file[k] || !y->by_file[k])
			return !x->by_file[k] && !y->by_file[k];
		if (x->by_line[k] != y->by_line[k] ||
		    strcmp(x->by_file[k], y->by_file[k]))
			return 0;
	}
	return 1;       /* a chain cut short: no telling them apart */
}

/*
 * Is every jump of the line that ran the only one of its inlined
 * instance, in a function holding several (lz4's read_variable_length,
 * inlined from two calls into one decoder)?  Each instance evaluates the
 * condition apart, so their jumps add up, each read as a whole.
 */
static int instances_apart(const struct lp_runs *r, const size_t *idx,
			   size_t nidx)
{
	const struct lp_insns *in = r->in;
	size_t k, m;

	for (k = 0; k < nidx; k++) {
		const struct lp_insn *a = &in->v[idx[k]];
		long run = lp_run_at(r, a->obj, a->addr);

		if (!a->exe)
			continue;
		if (!a->cond || !a->sym || run < 0 ||
		    !in->lines[run].by_file[0])
			return 0;
		for (m = 0; m < nidx; m++) {
			const struct lp_insn *b = &in->v[idx[m]];

			if (m != k && (!b->sym || (!strcmp(a->obj, b->obj) &&
					lp_same_function(a->sym, b->sym) &&
					same_instance(r, a, b))))
				return 0;
		}
	}
	return 1;
}

/*
 * Copies of one simple condition in one function (a static inline
 * inlined twice, a loop's test at entry and at its end) add up, each
 * evaluation tested once: so where the condition has one part, every
 * jump of the line that ran in the function is a whole test read by the
 * lines it goes to (it is this if's own), or a loop's entry and end
 * test, and no cmov or set of the line ran.
 */
int lp_judge_copies_add_up(const struct lp_hint *hint,
			   const struct lp_runs *r, const size_t *idx,
			   size_t nidx)
{
	size_t k;

	if (strstr(hint->cond, "&&") || strstr(hint->cond, "||") ||
	    strchr(hint->cond, '?') || !ran_jumps_whole(hint, r, idx, nidx))
		return 0;
	if (instances_apart(r, idx, nidx))
		return 1;
	for (k = 0; k < nidx; k++) {
		const struct lp_insn *ins = &r->in->v[idx[k]];

		if (ins->exe && lp_judge_taken_when_true(r, hint, ins) < 0 &&
		    lp_judge_shared_side(r, hint, ins) < 0)
			return hint->loop ? loop_copies(hint, r, idx, nidx) : 0;
	}
	return 1;
}
