/*
 * decide.c - from a hint and the jumps of its line to a site
 *
 * A jump of the hint's line is read by the lines it goes to where the
 * source says which lines the hint's if guards: into them, taken is the
 * condition held.  Elsewhere by the layout the hint asks for: the
 * expected side is the fall-through, so a jump forwards, or into another
 * part of the function (gcc's f.cold, before f in the address order), is
 * taken when the hint was wrong; a jump backwards inside the function is
 * a loop's, taken when its condition held, only where the hint is the
 * loop's condition.  What neither tells is no reading at all.
 *
 * A condition of several parts whose tests are all on the hint's line is
 * read as a whole where chain.c can place every side of every test, and
 * so is a hint that is the first part of its condition where chain.c
 * can prove which jump tests it.
 * A wrong verdict costs more than none, so a site is exact only where
 * every doubt is ruled out; else it is ambiguous.  The copies of one
 * hint in several functions are summed, and so are the copies of a
 * one-part condition in one function that ran, each a whole test (no
 * side runs on into another jump of the line: a float compare's jp and
 * jne are one test) read by its lines, past any code of its own line (or
 * a loop's test at entry and at its end).  Several jumps of one line in one
 * function otherwise (a && b, a macro expanding to many tests), a cmov or
 * set beside them, several hints on one line, a hint that is a part of
 * its condition, a part that never ran, counts that do not add up, code
 * of the line that ran more often than its jumps, or code of either side
 * that other jumps entered (a test threaded past the hint's) leave it
 * ambiguous.  A line that ran but has no conditional jump (cmov, a folded
 * or threaded branch), or a hint with no 0/1 expectation, is
 * unjudgeable; one whose code is there and whose function never ran is
 * exact with no evaluations, never run.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/calls.h"
#include "judge/chain.h"
#include "judge/copies.h"
#include "judge/joins.h"
#include "judge/sides.h"
#include "judge/judge.h"
#include "judge/where.h"
#include "usage.h"

/* A file and line, the file as a real path: a sorted set of them. */
struct place {
	const char *real;
	long line;
};

struct places {
	struct place *v;
	size_t nr, alloc;
};

static void place_add(struct places *ps, const char *real, long line)
{
	if (!real)
		return;
	if (ps->nr == ps->alloc) {
		ps->alloc = ps->alloc ? ps->alloc * 2 : 256;
		ps->v = lp_xrealloc(ps->v, ps->alloc * sizeof(*ps->v));
	}
	ps->v[ps->nr].real = real;
	ps->v[ps->nr++].line = line;
}

static int cmp_place(const void *pa, const void *pb)
{
	const struct place *a = pa, *b = pb;
	int c = a->real == b->real ? 0 : strcmp(a->real, b->real);

	return c ? c : (a->line > b->line) - (a->line < b->line);
}

static void places_sort(struct places *ps)
{
	if (ps->nr > 1)
		qsort(ps->v, ps->nr, sizeof(*ps->v), cmp_place);
}

/* Is @real:@line in @ps; with @line 0, any line of @real? */
static int places_has(const struct places *ps, const char *real, long line)
{
	size_t lo = 0, hi = ps->nr;
	struct place key = { real, line };

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_place(&ps->v[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == ps->nr || strcmp(ps->v[lo].real, real))
		return 0;
	return !line || ps->v[lo].line == line;
}

/*
 * What a taken jump of @hint's line says: 1 the hint was wrong, 0 it was
 * right, -1 no telling.  The compiler lays the side the hint expects out
 * as the fall-through, so a jump forwards, or into another part of the
 * function (gcc's f.cold, placed before f: backwards in the address
 * order, but no loop's), is taken when the hint was wrong.  A jump
 * backwards inside the function is a loop's back edge where the hint is
 * the loop's condition (taken: the condition held, which likely()
 * expects); on an if's line it may be a rare block placed above or a
 * continue, which says nothing of the side: no telling.  A loop's
 * condition that expects false is laid out either way: no telling.
 */
static int taken_is_wrong(const struct lp_hint *hint,
			  const struct lp_insn *ins)
{
	int elsewhere = ins->target < ins->sym_start;
	int back = !elsewhere && ins->target <= ins->addr;

	if (hint->loop)
		return hint->expect != 1 ? -1 : !back;
	return back ? -1 : 1;
}

/* Adds jump @ins to site @s, taken meaning wrong when @wrong. */
static void count(struct lp_prof_site *s, const struct lp_insn *ins,
		  int wrong)
{
	s->correct += wrong ? ins->exe - ins->taken : ins->taken;
	s->incorrect += wrong ? ins->taken : ins->exe - ins->taken;
	s->samp_right += wrong ? ins->s_exe - ins->s_taken : ins->s_taken;
	s->samp_wrong += wrong ? ins->s_taken : ins->s_exe - ins->s_taken;
}

/* Whether objdump's symbol @sym is function @func's: f, f.cold, f.isra.0. */
static int sym_of(const char *sym, const char *func)
{
	size_t n = strlen(func);

	return !strncmp(sym, func, n) && (!sym[n] || sym[n] == '.');
}

/*
 * Is jump @ins in a copy of @hint's own function, or one the symbol does
 * not name: its part, or a clone (f.constprop.0, f.isra.0), not inlined
 * into a caller?
 */
static int own_copy(const struct lp_insn *ins, const struct lp_hint *hint)
{
	return !ins->sym || !*hint->func || sym_of(ins->sym, hint->func);
}

/* What the jumps of a hint's line say, gathered by read_line(). */
struct line_jumps {
	size_t jumps;           /* that ran */
	int shared;             /* several in one function, one ran */
	int layout;             /* a layout against the hint */
	int unsure;             /* a jump that says nothing of the side */
	int doubt;              /* counts that do not add up */
	const char *why;        /* the first reason it is not exact */
	int args;               /* tests of a call's arguments dropped */
	int ret_taken;          /* the side that is a merged return: 1
				 * taken, 0 fall-through, -1 none, or
				 * RET_BY_PATH, RET_BY_JUMP (ret_side()) */
};

#define RET_BY_PATH (-2)
#define RET_BY_JUMP (-3)

/* Keeps the first reason a site is unsure: --explain says it. */
static void doubt(struct line_jumps *lj, const char *why)
{
	if (!lj->why)
		lj->why = why;
}

static size_t read_line(struct lp_prof_site *s, struct line_jumps *lj,
			const struct lp_hint *hint, const struct lp_runs *r,
			const char **real, size_t *idx, struct lp_terms *t)
{
	const struct lp_insns *in = r->in;
	size_t k, m, nidx = 0;

	memset(lj, 0, sizeof(*lj));
	lj->ret_taken = -1;
	for (k = 0; k < in->nr; k++) {
		const struct lp_insn *ins = &in->v[k];

		if (ins->line != hint->line || !(ins->cond || ins->test) ||
		    !real[k] || strcmp(real[k], hint->real))
			continue;
		idx[nidx++] = k;
	}
	m = nidx;
	nidx = lp_judge_after_call(hint, r, idx, nidx);
	lj->args = nidx < m;
	for (k = 0; k < nidx; k++) {
		const struct lp_insn *ins = &in->v[idx[k]];
		int wrong;

		/* a jump that never ran, unless no sample is no run */
		if ((!ins->exe && !in->sampled) || !ins->cond)
			continue;
		/*
		 * another jump of this line in the same function; after a
		 * call each (a copy of the call's) is a whole test
		 */
		for (m = 0; m < nidx && !lj->args; m++)
			if (m != k && ins->sym && in->v[idx[m]].sym &&
			    !strcmp(in->v[idx[m]].obj, ins->obj) &&
			    lp_same_function(in->v[idx[m]].sym, ins->sym))
				lj->shared = 1;
		lj->jumps++;
		lj->layout |= ins->against;
		lj->doubt |= ins->doubt;
		if (ins->against)
			doubt(lj, "a jump of the line falls through into a "
			      "cold part, against the hint's layout");
		if (ins->doubt)
			doubt(lj, "its jump's counts do not add up");
		if (hint->part) {
			lj->unsure = 1;
			doubt(lj, "the hint is one part of its condition");
		}
		if (hint->params && own_copy(ins, hint)) {
			lj->unsure = 1;
			doubt(lj, "the parts before the hint are parameters, "
			      "constants only where its function is inlined, "
			      "and this copy is its own");
		}
		wrong = lp_judge_taken_when_true(r, hint, ins);
		/*
		 * a "return E;" merged with the others of E, or a "goto L;":
		 * where each side runs, the side into that shared code
		 * entered by the others too; copies laid out apart are
		 * each read by their own sides
		 */
		if (wrong < 0 &&
		    (wrong = lp_judge_shared_side(r, hint, ins)) >= 0 &&
		    lj->ret_taken != RET_BY_JUMP)
			lj->ret_taken = lj->ret_taken >= 0 &&
						lj->ret_taken != wrong ?
					RET_BY_JUMP : wrong;
		if (wrong < 0)
			wrong = lp_judge_stay_side(r, hint, ins);
		if (wrong >= 0)
			wrong = wrong ? hint->expect == 0 : hint->expect == 1;
		else
			wrong = taken_is_wrong(hint, ins);
		if (wrong < 0) {
			lj->unsure = 1;
			doubt(lj, hint->loop ?
			      "a loop's condition that expects false, which "
			      "the compiler lays out either way" :
			      "a jump backwards on an if's line (a rare block "
			      "placed above, or a continue) says nothing of "
			      "the side");
		}
		count(s, ins, wrong != 0);
		lp_terms_add(t, idx[k], 1, !wrong);
		lp_terms_add(t, idx[k], 0, wrong != 0);
	}
	if (lj->shared && !in->sampled &&
	    lp_judge_copies_add_up(hint, r, idx, nidx))
		lj->shared = 0;
	if (!lj->shared && lp_judge_part_elsewhere(hint, r, idx, nidx)) {
		lj->unsure = 1;
		doubt(lj, "a condition of several parts with fewer jumps "
		      "than parts, a cmov or set run near them (a part may "
		      "be computed there)");
	}
	if (lj->shared)
		doubt(lj, "several jumps of the line in one function (a "
		      "condition of several parts, or a macro of many "
		      "tests)");
	return nidx;
}

/*
 * A condition of several parts (a && b) whose line has code that never
 * ran, in a function where its jump did: a part was never tested, and
 * the one jump that ran may be a part's, not the whole condition's.
 */
static int partly_ran(const struct lp_hint *hint, const struct lp_insns *in,
		      const char **line_real, const size_t *idx, size_t nidx)
{
	size_t l, k;

	if (!strstr(hint->cond, "&&") && !strstr(hint->cond, "||"))
		return 0;
	for (l = 0; l < in->lines_nr; l++) {
		const struct lp_code_line *c = &in->lines[l];
		const struct lp_insn *ins;

		if (c->line != hint->line || !line_real[l] || !c->addr ||
		    strcmp(line_real[l], hint->real))
			continue;
		ins = lp_insns_find(in, c->obj, c->addr);
		if (ins && ins->exe)
			continue;
		for (k = 0; k < nidx; k++) {
			const struct lp_insn *j = &in->v[idx[k]];

			if (j->exe && j->sym && !strcmp(j->obj, c->obj) &&
			    lp_same_function(j->sym, c->sym))
				return 1;
		}
	}
	return 0;
}

/*
 * Code of the hint's line that ran more often than the line's jumps in
 * its function (none, in a copy where the test became a switch's or was
 * folded): some evaluations were decided elsewhere, and the jumps count
 * only the rest.
 */
static int line_outruns_jumps(const struct lp_hint *hint,
			      const struct lp_insns *in,
			      const char **line_real, const size_t *idx,
			      size_t nidx)
{
	size_t l, m;

	for (l = 0; l < in->lines_nr; l++) {
		const struct lp_code_line *c = &in->lines[l];
		const struct lp_insn *ins;
		uint64_t sum = 0;

		if (c->line != hint->line || !line_real[l] || !c->addr ||
		    strcmp(line_real[l], hint->real))
			continue;
		ins = lp_insns_find(in, c->obj, c->addr);
		if (!ins || !ins->exe)
			continue;
		for (m = 0; m < nidx; m++) {
			const struct lp_insn *o = &in->v[idx[m]];

			if (o->cond && o->sym && !strcmp(o->obj, c->obj) &&
			    lp_same_function(o->sym, c->sym))
				sum += o->exe;
		}
		if (ins->exe > sum)
			return 1;
	}
	return 0;
}

/*
 * A jump from the hint's line or the statement its if guards (code
 * inlined from a call there included: a callee's loop that ends by
 * jumping past the if is the statement ending), or from the rest of a
 * condition whose first part the hint is (REST ending); into a
 * side that is a "return E;" merged with others (@ret), also one from
 * the condition of another if whose statement is the same return, or
 * from the code of such a return.
 */
static int own_edge(const struct lp_hint *hint, const struct lp_runs *r,
		    const struct lp_edge *e, int ret)
{
	const char *real = lp_real_of(r->cache, e->file);
	size_t k;

	if (lp_in_then(r, hint, e->obj, e->addr) ||
	    lp_judge_rest_code(hint, r, e->obj, e->addr))
		return 1;
	if (!real || strcmp(real, hint->real))
		return 0;
	if (e->line == hint->line || (e->line >= hint->then_first &&
				      e->line <= hint->then_last))
		return 1;
	for (k = 0; ret && k < hint->nif; k++)
		if (e->line >= hint->if_first[k] && e->line <= hint->if_last[k])
			return 1;
	for (k = 0; ret && k < hint->nret; k++)
		if (e->line == hint->ret_line[k])
			return 1;
	for (k = 0; ret && k < hint->ngoto; k++)
		if (e->line >= hint->goto_first[k] &&
		    e->line <= hint->goto_last[k])
			return 1;
	return 0;
}

/*
 * Is jump @k at edge @e a jmp of a return of @hint's function, whose if's
 * statement is a return too?  That is the function leaving, which no
 * evaluation of the hint goes on from: an inlined copy's returns all go
 * to its caller's code after the call (zstd's ZSTD_decompressSequences_
 * body, whose "return op-ostart;" joins its rare error return).
 */
static int exit_jump(const struct lp_hint *hint, const struct lp_runs *r,
		     const struct lp_edge *e, const struct lp_insn *k)
{
	const char *real = lp_real_of(r->cache, e->file);
	long i = lp_code_at(r->in, e->obj, e->addr);
	size_t m;

	if (k->cond || i < 0 || !real || strcmp(real, hint->real) ||
	    !r->in->code[i].ifn ||
	    !lp_same_function(r->in->code[i].ifn, hint->func))
		return 0;
	for (m = 0; m < hint->nexit; m++)
		if (e->line == hint->exit_line[m])
			return 1;
	return 0;
}

/*
 * Does every run of the jump at @src pass through a side of another copy
 * of the line in @j's function (one of the @nidx jumps @idx)?  Then the
 * evaluations it carries were counted by that copy's jump: gcc runs the
 * code after one copy of "if (unlikely(x)) return -1;" into the code
 * after the other.
 */
static int copy_joins(const struct lp_insns *in, const struct lp_insn *j,
		      const size_t *idx, size_t nidx, uint64_t src)
{
	size_t k;

	for (k = 0; k < nidx; k++) {
		const struct lp_insn *c = &in->v[idx[k]];

		if (c != j && c->cond && c->exe && c->next && c->sym &&
		    j->sym && !strcmp(c->obj, j->obj) &&
		    lp_same_function(c->sym, j->sym) &&
		    (lp_judge_joins_from(in, c, c->target, src) ||
		     lp_judge_joins_from(in, c, c->next, src)))
			return 1;
	}
	return 0;
}

/*
 * Another jump that ran into @to, the target or the fall-through of @j,
 * from a line that is neither the hint's nor of the statement its if
 * guards: some evaluations skipped the hint's jump (the compiler threaded
 * a test it knew the outcome of, as a find loop that ends on an empty
 * slot going straight to the code for "not found"), so its counts miss
 * them.  A goto or a shared return block looks the same: unsure.  Not
 * a jump that only runs after @other, @j's other side (an if's statement
 * placed out of line jumping back from a line of the code after it):
 * that is @j's own flow joining.
 */
#define FALL_MAX 64

/*
 * The code that falls into @to, jump @j's target where its condition did
 * not hold, walked back to where its run starts: entered by a test
 * before @j that jumps over it, whose runs do not come after @j's
 * @other side, it carries evaluations that skipped @j, whatever line
 * the code is given (clang threads a loop's entry test, where the loop
 * never ran, past an if after the loop into a block it gives the line
 * of the if's statement).  No edge enters @to: the fall-through does.
 */
static int fall_foreign(const struct lp_insns *in, const struct lp_insn *j,
			uint64_t to, uint64_t other)
{
	long i = lp_code_at(in, j->obj, to), step;
	const struct lp_insn *k;

	if (to != j->target || i <= 0)
		return 0;
	for (step = 0; step < FALL_MAX && i > 0; step++) {
		const struct lp_code_insn *c = &in->code[--i];
		size_t n;
		const struct lp_edge *e;

		if (strcmp(c->obj, j->obj) || c->addr == j->addr ||
		    c->flow == LP_FLOW_JMP || c->flow == LP_FLOW_END)
			return 0;
		k = lp_insns_find(in, j->obj, c->addr);
		if (!k || k->exe <= (c->flow == LP_FLOW_COND ? k->taken : 0))
			return 0;
		e = lp_insns_edges_into(in, j->obj, c->addr, &n);
		for (; n; n--, e++) {
			k = lp_insns_find(in, e->obj, e->addr);
			if (k && k->exe && k->cond && k->taken &&
			    e->addr < j->addr && j->addr < c->addr &&
			    !lp_judge_comes_after(in, j, other, to, e->addr))
				return 1;
		}
	}
	return 0;
}

static int foreign_inflow(const struct lp_hint *hint, const struct lp_runs *r,
			  const struct lp_insn *j, uint64_t to, int ret,
			  uint64_t other, const size_t *idx, size_t nidx)
{
	const struct lp_insns *in = r->in;
	size_t n;
	const struct lp_edge *e = lp_insns_edges_into(in, j->obj, to, &n);

	if (lp_judge_taken_when_true(r, hint, j) == 0 &&
	    fall_foreign(in, j, to, other))
		return 1;
	for (; n; n--, e++) {
		const struct lp_insn *k = lp_insns_find(in, e->obj, e->addr);

		if (e->addr == j->addr || !k || !k->exe ||
		    (k->cond && !k->taken))
			continue;
		if (!own_edge(hint, r, e, ret) &&
		    !lp_judge_joins_from(in, j, other, e->addr) &&
		    !lp_judge_comes_after(in, j, other, to, e->addr) &&
		    !copy_joins(in, j, idx, nidx, e->addr) &&
		    !lp_judge_skips_call(hint, r, j, k) &&
		    !exit_jump(hint, r, e, k))
			return 1;
	}
	return 0;
}

/*
 * Is instruction @c code of the statement @hint's if guards: on its
 * lines, or of a function inlined there?  Code of another function than
 * the hint's and the symbol's is the statement's where the line tables
 * say it was inlined from a call there, and may be where they do not say
 * where from (no chain, or one cut short); not where they name other
 * calls (the function the hint's was inlined into, after its return).
 */
static int guarded(const struct lp_hint *hint, const struct lp_code_insn *c,
		   const char *sym, const struct lp_runs *r)
{
	const char *real = lp_real_of(r->cache, c->file);
	long run;

	if (real && !strcmp(real, hint->real) &&
	    c->line >= hint->then_first && c->line <= hint->then_last)
		return 1;
	if (!c->ifn || !*c->ifn || !*hint->func || !sym ||
	    !strcmp(c->ifn, hint->func) || lp_same_function(c->ifn, sym))
		return 0;
	run = lp_run_at(r, c->obj, c->addr);
	if (run < 0 || !r->in->lines[run].by_file[0] ||
	    r->in->lines[run].by_file[LP_INLINED_BY - 1])
		return 1;
	return lp_in_then(r, hint, c->obj, c->addr);
}

#define REGION_MAX 512

static int cmp_addr(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return (*a > *b) - (*a < *b);
}

/*
 * The guarded code reached from @start, walked through its jumps, into
 * @region (sorted); -1 where it is too large to walk.
 */
static long walk_region(const struct lp_hint *hint, const struct lp_runs *r,
			const struct lp_insn *j, uint64_t start,
			uint64_t *region)
{
	const struct lp_insns *in = r->in;
	uint64_t todo[64];
	size_t ntodo = 0, nr = 0, k;
	long i;

	todo[ntodo++] = start;
	while (ntodo) {
		for (i = lp_code_at(in, j->obj, todo[--ntodo]);
		     i >= 0 && (size_t)i < in->code_nr; i++) {
			const struct lp_code_insn *c = &in->code[i];
			int seen = 0;

			for (k = 0; k < nr && !seen; k++)
				seen = region[k] == c->addr;
			if (seen || strcmp(c->obj, j->obj) ||
			    !guarded(hint, c, j->sym, r))
				break;
			if (nr == REGION_MAX || ntodo == 64)
				return -1;
			region[nr++] = c->addr;
			if (c->flow == LP_FLOW_COND || c->flow == LP_FLOW_JMP)
				todo[ntodo++] = c->target;
			if (c->flow == LP_FLOW_JMP || c->flow == LP_FLOW_END)
				break;
		}
	}
	qsort(region, nr, sizeof(*region), cmp_addr);
	return (long)nr;
}

/*
 * Code of the guarded statement, reached from jump @j's side @start, that
 * a jump from outside it also entered while the program ran: the compiler
 * shared it with another path (lz4's inlined LZ4_memcpy_using_offset,
 * entered from a test it threaded past the hint's), and evaluations of
 * the hint may have gone that way without its jump.
 */
static int region_entered(const struct lp_hint *hint,
			  const struct lp_runs *runs, const struct lp_insn *j,
			  uint64_t start, int ret)
{
	const struct lp_insns *in = runs->in;
	uint64_t region[REGION_MAX];
	long nr = walk_region(hint, runs, j, start, region), r;

	if (nr < 0)
		return 1;
	for (r = 0; r < nr; r++) {
		size_t n;
		const struct lp_edge *e =
			lp_insns_edges_into(in, j->obj, region[r], &n);

		for (; n; n--, e++) {
			const struct lp_insn *k;

			if (e->addr == j->addr ||
			    bsearch(&e->addr, region, (size_t)nr,
				    sizeof(*region), cmp_addr))
				continue;
			k = lp_insns_find(in, e->obj, e->addr);
			if (k && k->exe && (!k->cond || k->taken) &&
			    !own_edge(hint, runs, e, ret) &&
			    !exit_jump(hint, runs, e, k))
				return 1;
		}
	}
	return 0;
}

/*
 * Another jump entered side @start of jump @j, or the code the side runs
 * on to past code of the hint's own line, or the guarded statement's code
 * reached from there.
 */
static int side_entered(const struct lp_hint *hint, const struct lp_runs *r,
			const struct lp_insn *j, uint64_t start, int ret,
			const size_t *idx, size_t nidx)
{
	uint64_t at = start, other = start == j->target ? j->next : j->target;

	if (foreign_inflow(hint, r, j, start, ret, other, idx, nidx))
		return 1;
	if (!lp_judge_own_line_exit(hint, r, j->obj, start, &at) &&
	    at != start &&
	    foreign_inflow(hint, r, j, at, ret, other, idx, nidx))
		return 1;
	return hint->then_first > 0 && hint->then_first <= hint->then_last &&
	       region_entered(hint, r, j, at, ret);
}

/*
 * Is side @side (1 taken, 0 the fall-through) of jump @j a merged
 * return or a goto's code, by @ret_taken: 1 taken, 0 the fall-through,
 * -1 none; RET_BY_JUMP, by each jump's own sides (copies laid out
 * apart); or RET_BY_PATH, each side by where it runs (a chain through a
 * merged return, whose tests reach it from either side)?
 */
static int ret_side(const struct lp_hint *hint, const struct lp_runs *r,
		    const struct lp_insn *j, int side, int ret_taken)
{
	if (ret_taken == RET_BY_JUMP)
		return lp_judge_taken_when_true(r, hint, j) < 0 &&
		       lp_judge_shared_side(r, hint, j) == side;
	if (ret_taken != RET_BY_PATH)
		return ret_taken == side;
	return lp_judge_return_path(hint, r, j, side ? j->target : j->next) ==
	       1;
}

static int any_foreign_inflow(const struct lp_hint *hint,
			      const struct lp_runs *r, const size_t *idx,
			      size_t nidx, int ret_taken)
{
	size_t k;

	if (hint->loop)
		return 0;       /* a loop's head is entered from before it */
	for (k = 0; k < nidx; k++) {
		const struct lp_insn *j = &r->in->v[idx[k]];

		if (!j->cond || !j->exe)
			continue;
		if (side_entered(hint, r, j, j->target,
				 ret_side(hint, r, j, 1, ret_taken), idx,
				 nidx) ||
		    (j->next &&
		     side_entered(hint, r, j, j->next,
				  ret_side(hint, r, j, 0, ret_taken), idx,
				  nidx)))
			return 1;
	}
	return 0;
}

/*
 * Did any code of @hint's function run, in any copy of it?  A line with
 * code that never ran is a hint never run only where its function never
 * ran either: a copy that ran may hold no code of the line (lz4's
 * decompression loop, inlined a dozen times, with the test folded in
 * the copy the program used).
 */
static int function_ran(const struct lp_hint *hint,
			const struct lp_insns *in, struct lp_real_cache *cache)
{
	size_t k;

	if (!*hint->func)
		return 1;
	for (k = 0; k < in->code_nr; k++) {
		const struct lp_code_insn *c = &in->code[k];
		const struct lp_insn *ins;
		const char *real;

		if (!c->ifn || strcmp(c->ifn, hint->func))
			continue;
		real = lp_real_of(cache, c->file);
		if (!real || strcmp(real, hint->real))
			continue;
		ins = lp_insns_find(in, c->obj, c->addr);
		if (ins && ins->exe)
			return 1;
	}
	return 0;
}

/*
 * Doubts that need the whole program's jumps: a part of the condition
 * never tested, code of the line that ran more often than its jumps,
 * jumps from elsewhere into a side.
 */
static void later_doubts(struct line_jumps *lj, const struct lp_hint *hint,
			 const struct lp_runs *r, const size_t *idx,
			 size_t nidx)
{
	const struct lp_insns *in = r->in;
	const char **line_real = r->line_real;
	const char *why = NULL;

	if (!lj->args && partly_ran(hint, in, line_real, idx, nidx))
		why = "a part of its condition never ran";
	else if (line_outruns_jumps(hint, in, line_real, idx, nidx))
		why = "code of the line ran more often than its jumps (a "
		      "copy where the test was folded or threaded)";
	else if (any_foreign_inflow(hint, r, idx, nidx, lj->ret_taken))
		why = "other jumps entered a side of it (a test threaded "
		      "past it, a goto, a shared block)";
	if (why) {
		lj->doubt = 1;
		doubt(lj, why);
	}
}

/*
 * A hint none of whose jumps ran: never run (exact, NULL) where its
 * code is there and none of its function ran; else why it cannot be
 * judged.
 */
static const char *no_jump(const struct lp_hint *hint,
			   const struct lp_insns *in,
			   const struct places *code, const struct places *ran,
			   struct lp_real_cache *cache)
{
	if (hint->expect != 0 && hint->expect != 1)
		return "its expected value is not 0 or 1";
	if (in->sampled)
		return "no branch sample of its line";
	if (!places_has(code, hint->real, hint->line))
		return "the line has no code in the binary (the test was "
		       "folded away, or its function is not linked in)";
	if (places_has(ran, hint->real, hint->line))
		return "its line ran but no conditional jump of it did (a "
		       "cmov or set, or a test folded into another)";
	if (function_ran(hint, in, cache))
		return "its line never ran where its function did (a copy "
		       "may hold it with the test folded)";
	return NULL;
}

/* The places that ran and the places with code, as real paths. */
static void gather_places(struct places *ran, struct places *code,
			  const struct lp_insns *in, const char **real,
			  const char **line_real)
{
	size_t k;

	for (k = 0; k < in->nr; k++)
		if (in->v[k].exe || in->v[k].s_exe)
			place_add(ran, real[k], in->v[k].line);
	for (k = 0; k < in->lines_nr; k++)
		place_add(code, line_real[k], in->lines[k].line);
	places_sort(ran);
	places_sort(code);
}

/* Keeps @t as the terms of the site just added, if @terms asks. */
static void keep_terms(struct lp_terms **terms, size_t nsites,
		       struct lp_terms *t, enum lp_sure sure)
{
	if (!terms || sure != LP_SURE_EXACT) {
		free(t->v);
		memset(t, 0, sizeof(*t));
	}
	if (!terms)
		return;
	*terms = lp_xrealloc(*terms, nsites * sizeof(**terms));
	(*terms)[nsites - 1] = *t;
}

/*
 * The function to name @hint's site by, of those its text is in (a
 * header included once per variant): the one in whose code every jump
 * that ran lies; else the first, as before.
 */
static char *ran_in(const struct lp_hint *hint, const struct lp_insns *in,
		    const struct lp_terms *t)
{
	char *name = NULL, *cand;
	size_t k, j;

	if (!hint->nother_funcs)
		return hint->func;
	for (k = 0; k < t->nr; k++) {
		const struct lp_insn *i = &in->v[t->v[k].insn];

		if (!i->exe)
			continue;
		if (!i->sym)
			return hint->func;
		cand = sym_of(i->sym, hint->func) ? hint->func : NULL;
		for (j = 0; !cand && j < hint->nother_funcs; j++)
			if (sym_of(i->sym, hint->other_funcs[j]))
				cand = hint->other_funcs[j];
		if (!cand || (name && name != cand))
			return hint->func;
		name = cand;
	}
	return name ? name : hint->func;
}

int lp_judge_decide(struct lp_profile *out, const struct lp_hints *h,
		    const struct lp_insns *in, int explain, size_t *against,
		    struct lp_terms **terms)
{
	struct lp_real_cache cache = LP_REAL_CACHE_INIT;
	struct places ran = { NULL, 0, 0 }, code = { NULL, 0, 0 };
	struct lp_runs runs;
	const char **real = lp_xcalloc(in->nr + 1, sizeof(*real));
	const char **line_real = lp_xcalloc(in->lines_nr + 1,
					    sizeof(*line_real));
	size_t *idx = lp_xcalloc(in->nr + 1, sizeof(*idx));
	size_t i, k, nidx;
	int ret = 0;

	for (k = 0; k < in->nr; k++)
		real[k] = lp_real_of(&cache, in->v[k].file);
	for (k = 0; k < in->lines_nr; k++)
		line_real[k] = lp_real_of(&cache, in->lines[k].file);
	gather_places(&ran, &code, in, real, line_real);
	lp_runs_init(&runs, in, line_real, &cache);
	runs.hints = h;
	for (i = 0; i < h->nr && !ret; i++) {
		const struct lp_hint *hint = &h->v[i];
		struct lp_prof_site s;
		struct line_jumps lj;
		struct lp_terms t = { NULL, 0, 0 };
		size_t same_line = 0;
		int chain;

		/*
		 * A source of the tree that is not in the binary.  A
		 * header's hint is kept whatever unit it was first seen
		 * in: another unit, one in the binary, may include it too.
		 */
		if (code.nr && !strcmp(hint->real, hint->unit_real) &&
		    !places_has(&code, hint->unit_real, 0) &&
		    !places_has(&ran, hint->unit_real, 0))
			continue;
		for (k = 0; k < h->nr; k++)
			same_line += h->v[k].line == hint->line &&
				     !strcmp(h->v[k].real, hint->real);
		memset(&s, 0, sizeof(s));
		s.file = hint->file;
		s.func = hint->func;
		s.unit = hint->unit;
		s.cond = hint->cond;
		s.line = hint->line;
		/* a number below one half: "?", as the instrumented record */
		s.expect = hint->rare ? LP_EXPECT_UNKNOWN : hint->expect;
		s.prob = hint->prob;
		nidx = read_line(&s, &lj, hint, &runs, real, idx, &t);
		if ((lj.shared || lj.unsure) && !lj.layout && same_line == 1 &&
		    !in->sampled &&
		    (chain = lp_judge_read_chain(&s, hint, &runs, &cache, idx,
						 nidx, &t))) {
			lj.shared = lj.unsure = 0;
			lj.why = NULL;
			if (chain == LP_CHAIN_RETURN)
				lj.ret_taken = RET_BY_PATH;
		} else if (lj.unsure && !lj.shared && !lj.layout &&
			   same_line == 1 && !in->sampled &&
			   lp_judge_read_first(&s, hint, &runs, &cache, idx,
					       nidx, &t)) {
			lj.unsure = 0;
			lj.why = NULL;
		}
		if (same_line > 1)
			doubt(&lj, "several hints on one line");
		if (lj.jumps && !in->sampled)
			later_doubts(&lj, hint, &runs, idx, nidx);
		if (lj.jumps && (hint->expect == 0 || hint->expect == 1)) {
			s.sure = lj.shared || same_line > 1 || lj.layout ||
						 lj.unsure || lj.doubt ?
					 LP_SURE_AMBIGUOUS :
				 in->sampled ? LP_SURE_ESTIMATED :
					       LP_SURE_EXACT;
			if (lj.layout) {
				lp_note("%s:%ld: a jump of this line falls through into a cold part, so its layout does not say which side the hint expects: ambiguous",
					hint->file, hint->line);
				(*against)++;
			}
			s.has_samples = (unsigned char)in->sampled;
		} else {
			lj.why = no_jump(hint, in, &code, &ran, &cache);
			s.sure = lj.why ? LP_SURE_UNJUDGEABLE : LP_SURE_EXACT;
		}
		if (s.sure == LP_SURE_UNJUDGEABLE) {
			s.correct = s.incorrect = 0;
			s.samp_right = s.samp_wrong = 0;
		}
		if (explain && lj.why && !lj.layout &&
		    s.sure != LP_SURE_EXACT && s.sure != LP_SURE_ESTIMATED)
			lp_note("%s:%ld: %s: %s", hint->file, hint->line,
				lp_sure_name(s.sure), lj.why);
		s.func = ran_in(hint, in, &t);
		if (lp_profile_add(out, &s) < 0)
			ret = lp_error("out of memory");
		else
			keep_terms(terms, out->nr, &t, s.sure);
	}
	lp_real_cache_release(&cache);
	free(ran.v);
	free(code.v);
	free(real);
	free(line_real);
	free(runs.by_addr);
	free(idx);
	return ret;
}
