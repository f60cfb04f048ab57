/*
 * sides.c - which side of a jump of a hint's line is which, read by
 * where each side goes once past code of the line: into the statement
 * the if guards, past a goto's label, or into a return merged with the
 * function's others (for decide.c and copies.c)
 */
#include <string.h>

#include "judge/chain.h"
#include "judge/parts.h"
#include "judge/sides.h"

/* Which side of code @side says a place is on: 1, 0, or -1 for neither. */
/*
 * Where side @addr of a jump of @hint's line leaves the line: its straight
 * code (and the jmps in it) walked to the first instruction of another
 * line, into *@exit.  1 where it runs into a conditional jump of the line
 * first: then that side decides nothing alone (a float compare's jp
 * before its jne, a loop's end jumping back to its test at the top), and
 * one evaluation runs both jumps.  -1 where the walk cannot tell.
 */
int lp_judge_own_line_exit(const struct lp_hint *hint,
			   const struct lp_runs *r, const char *obj,
			   uint64_t addr, uint64_t *exit)
{
	const struct lp_insns *in = r->in;
	int step;

	for (step = 0; step < 32; step++) {
		long i = lp_code_at(in, obj, addr);
		const struct lp_code_insn *c;
		const char *real;

		if (i < 0)
			return -1;
		c = &in->code[i];
		real = lp_real_of(r->cache, c->file);
		if (c->line != hint->line || !real ||
		    strcmp(real, hint->real)) {
			*exit = addr;
			return 0;
		}
		if (c->flow == LP_FLOW_COND)
			return 1;
		/* a call may not come back */
		if (c->call || !(addr = lp_code_next(in, i)))
			return -1;
	}
	return -1;
}

typedef int side_of_fn(const struct lp_runs *r, const struct lp_hint *hint,
		       const char *obj, uint64_t addr);

/*
 * Jump @ins of @hint's line read by where each side goes once past code
 * of its own line: 1 when the taken side is where @side says 1 and the
 * fall-through where it says 0, 0 the other way round, -1 where the
 * sides do not differ so (or cannot be followed).
 */
static int sides_differ(const struct lp_runs *r, const struct lp_hint *hint,
			const struct lp_insn *ins, side_of_fn *side)
{
	uint64_t to, fall;
	int t, n;

	if (!ins->next ||
	    lp_judge_own_line_exit(hint, r, ins->obj, ins->target, &to) ||
	    lp_judge_own_line_exit(hint, r, ins->obj, ins->next, &fall))
		return -1;
	t = side(r, hint, ins->obj, to);
	n = side(r, hint, ins->obj, fall);
	return t < 0 || n < 0 || t == n ? -1 : t;
}

int lp_judge_taken_when_true(const struct lp_runs *r,
			     const struct lp_hint *hint,
			     const struct lp_insn *ins)
{
	if (hint->then_first <= 0 || hint->then_first > hint->then_last)
		return -1;
	return sides_differ(r, hint, ins, lp_in_then);
}

/*
 * Is @addr of @obj code of @hint's function on its lines from its goto's
 * label to the function's end (1), or on its other lines (0)?  -1 for
 * code of another function (inlined there), whose lines say neither.
 */
static int past_label(const struct lp_runs *r, const struct lp_hint *hint,
		      const char *obj, uint64_t addr)
{
	long at = lp_run_at(r, obj, addr), i = lp_code_at(r->in, obj, addr);
	const struct lp_code_insn *c;

	if (at < 0 || i < 0 || !r->line_real[at] ||
	    strcmp(r->line_real[at], hint->real))
		return -1;
	c = &r->in->code[i];
	if (!c->ifn || !*hint->func || !lp_same_function(c->ifn, hint->func))
		return -1;
	return c->line >= hint->goto_line && c->line <= hint->goto_end;
}

/*
 * For a hint whose if's statement is one "goto L;", L after the if: 1
 * where jump @ins's taken side, past code of the hint's own line, goes to
 * code after L and its fall-through to code before L, 0 the other way
 * round, -1 where they do not differ so.  The condition holding goes
 * there first by the goto; not holding, to the code after the if, before
 * L, whatever the layout.
 */
int lp_judge_goto_side(const struct lp_runs *r, const struct lp_hint *hint,
		       const struct lp_insn *ins)
{
	if (!hint->goto_line || hint->loop || hint->part)
		return -1;
	return sides_differ(r, hint, ins, past_label);
}

/*
 * For a jump read by neither its statement's lines: 1 where its taken
 * side runs the code that a "return E;" merged with the function's
 * others of E, or a "goto L;", shares with them, 0 where its
 * fall-through does, -1 where neither.
 */
int lp_judge_shared_side(const struct lp_runs *r, const struct lp_hint *hint,
			 const struct lp_insn *ins)
{
	int side = lp_judge_return_side(hint, r, ins);

	return side >= 0 ? side : lp_judge_goto_side(r, hint, ins);
}

/*
 * Can @a and @b of @obj be code of one copy of a function: inlined from
 * one call (the innermost the line tables name: they may name the outer
 * ones for some runs and not others), or where either names none?
 */
static int one_copy(const struct lp_runs *r, const char *obj, uint64_t a,
		    uint64_t b)
{
	long ra = lp_run_at(r, obj, a), rb = lp_run_at(r, obj, b);
	const struct lp_code_line *x, *y;

	if (ra < 0 || rb < 0)
		return 1;
	x = &r->in->lines[ra];
	y = &r->in->lines[rb];
	return !x->by_file[0] || !y->by_file[0] ||
	       (x->by_line[0] == y->by_line[0] &&
		!strcmp(x->by_file[0], y->by_file[0]));
}

/*
 * Is @c, on the way from a side of jump @ins, code of @hint's function
 * on a line that is no return of E (nor the closing brace) and none of
 * the statement's; where @landing (the first code past the hint's line),
 * of the copy @ins is of and of a line after the statement?  A return
 * merged with others may be given a line before the if (gcc gives a
 * loop's "return -1;" its head's), or a later return's, which runs on
 * to the function's end, never to a test of its own.
 */
static int after_return(const struct lp_runs *r, const struct lp_hint *hint,
			const struct lp_insn *ins,
			const struct lp_code_insn *c, int landing)
{
	const char *real = lp_real_of(r->cache, c->file);
	size_t k;

	if (!c->ifn || !lp_same_function(c->ifn, hint->func) || !real ||
	    strcmp(real, hint->real) ||
	    (landing && !one_copy(r, ins->obj, ins->addr, c->addr)))
		return 0;
	if (c->line <= 0)
		return !landing;
	for (k = 0; k < hint->nret; k++)
		if (c->line == hint->ret_line[k])
			return 0;
	return c->line < hint->then_first || c->line > hint->then_last;
}

#define STAY_MAX 64

/*
 * Does side @addr of jump @ins, past code of the hint's line, land on
 * code after its statement and run on, through code of that copy of its
 * function only (calls and jmps included), to a conditional jump?
 */
static int stays(const struct lp_runs *r, const struct lp_hint *hint,
		 const struct lp_insn *ins, uint64_t addr)
{
	const struct lp_insns *in = r->in;
	uint64_t at;
	int step;

	if (lp_judge_own_line_exit(hint, r, ins->obj, addr, &at))
		return 0;
	for (step = 0; step < STAY_MAX; step++) {
		long i = lp_code_at(in, ins->obj, at);
		const struct lp_code_insn *c;

		if (i < 0)
			return 0;
		c = &in->code[i];
		if (!after_return(r, hint, ins, c, !step))
			return 0;
		if (c->flow == LP_FLOW_COND)
			return 1;
		if (c->flow == LP_FLOW_END || !(at = lp_code_next(in, i)))
			return 0;
	}
	return 0;
}

/*
 * For a hint whose if's statement is one "return E;": a return leaves
 * the function, and no code of that copy of it runs after the return's
 * own; a side that runs on in that copy from code after the statement
 * to a test is the condition not holding, wherever the return went (an
 * inlined copy's return joins its caller's code, a loop's rare return
 * is placed above).  1 where the fall-through is that side, 0 where the
 * taken one is, -1 where neither or both.
 */
int lp_judge_stay_side(const struct lp_runs *r, const struct lp_hint *hint,
		       const struct lp_insn *ins)
{
	int t, n;

	if (!hint->nret || hint->loop || hint->part || !ins->next ||
	    !*hint->func || hint->then_first <= 0 ||
	    hint->then_first > hint->then_last ||
	    lp_judge_cond_parts(hint->cond) != 1)
		return -1;
	t = stays(r, hint, ins, ins->target);
	n = stays(r, hint, ins, ins->next);
	return t == n ? -1 : n;
}

/* Is @o the one hint of its line, its if's whole condition of one part? */
static int whole_if(const struct lp_hints *hs, const struct lp_hint *o)
{
	size_t i, n = 0;

	if (o->part || o->loop || strchr(o->cond, '?') ||
	    lp_judge_cond_parts(o->cond) != 1)
		return 0;
	for (i = 0; i < hs->nr; i++)
		n += hs->v[i].line == o->line &&
		     !strcmp(hs->v[i].real, o->real);
	return n == 1;
}

/*
 * A test may be threaded past @hint's (the compiler knew its outcome),
 * jumping to the code after it; a jump that only runs where an
 * enclosing if did not hold, its statement holding the call @hint's
 * copy was inlined from, skipped the call: libev's "if (expect_true
 * (events)) fd_event (...)" in a loop, fd_event's own if ending where
 * the loop goes on.  The enclosing if is read as an exact site is, by
 * the lines its jump's sides go to.
 */
int lp_judge_skips_call(const struct lp_hint *hint, const struct lp_runs *r,
			const struct lp_insn *j, const struct lp_insn *k)
{
	const char *real;
	size_t i;

	if (!r->hints || !k->cond || !k->file || !j->sym || !k->sym ||
	    strcmp(j->obj, k->obj) || !lp_same_function(j->sym, k->sym))
		return 0;
	real = lp_real_of(r->cache, k->file);
	for (i = 0; real && i < r->hints->nr; i++) {
		const struct lp_hint *o = &r->hints->v[i];

		if (o == hint || o->line != k->line || strcmp(o->real, real) ||
		    !whole_if(r->hints, o) ||
		    !lp_in_then(r, o, j->obj, j->addr))
			continue;
		return lp_judge_taken_when_true(r, o, k) == 0;
	}
	return 0;
}
