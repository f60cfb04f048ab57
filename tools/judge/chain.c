/*
 * chain.c - a condition of several parts read as a whole
 *
 * likely(a && b), the whole condition of one if, with its tests on the
 * hint's line and the statement it guards on lines after the condition:
 * every side of every jump of the line goes to the statement (T: the
 * condition held), to another test of the line (C), or out to code
 * after the statement or before the if (F: it did not), each followed
 * through the straight code on the way, the condition's other lines
 * included.  Each evaluation ends in one T or F, so their flows count
 * it, as long as the tests are entered once per evaluation: a test
 * reached by C flows must run exactly that often, and a function has one
 * entry test (a first test entered also from its own line, or a part
 * entered from code of other lines, an inlined callee's, is no chain).
 * The statement must be entered only from the chain, as often as the
 * flows say, with code of its own that does some work, and the flows
 * that leave the chain must go on at one place per function: a return
 * or continue that the compiler took straight from a test would
 * otherwise read as the condition not holding.  A statement that is one
 * "return E;" merged with the function's other returns of E, on another
 * line, is found as a side running through such a return to the end;
 * its block, entered by the other returns too, is not counted by its
 * runs, so each part must have its own jump instead.  Anything the walk
 * cannot place leaves the site as it was: ambiguous.
 *
 * A hint that is the first part, "HINT && REST" or "HINT || REST", is
 * read by the one jump of its line whose side runs straight into the
 * code of REST's inlined call: REST runs exactly when the hint did not
 * decide the condition, and only after its test.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/chain.h"
#include "judge/parts.h"
#include "usage.h"

enum side { SIDE_UNSURE, SIDE_T, SIDE_F, SIDE_C };

#define WALK_MAX 64

/*
 * Is @c code of @hint's own function and file, as jump @j's symbol holds
 * it (code of no line counts as its)?  Not an inlined callee's, whose
 * lines say nothing of the hint's statement.
 */
static int own_code(const struct lp_hint *hint, struct lp_real_cache *cache,
		    const struct lp_insn *j, const struct lp_code_insn *c)
{
	const char *real;

	if (c->ifn && *c->ifn && j->sym && strcmp(c->ifn, hint->func) &&
	    !lp_same_function(c->ifn, j->sym))
		return 0;
	if (c->line <= 0)
		return 1;
	real = lp_real_of(cache, c->file);
	return real && !strcmp(real, hint->real);
}

/* A visitor's word that the walk goes on through the instruction. */
#define WALK_ON (-100)

/*
 * Walks the straight code of jump @j's object from @addr (through jmps,
 * up to WALK_MAX instructions), handing @visit each address and its
 * index in in->code (-1: not disassembled), until @visit says anything
 * but WALK_ON; @none where the code ends or the walk is too long.
 */
static int walk(const struct lp_insns *in, const struct lp_insn *j,
		uint64_t addr, int (*visit)(void *ctx, uint64_t addr, long i),
		void *ctx, int none)
{
	int step, v;

	for (step = 0; step < WALK_MAX; step++) {
		long i = lp_code_at(in, j->obj, addr);
		const struct lp_code_insn *c;

		if ((v = visit(ctx, addr, i)) != WALK_ON)
			return v;
		c = &in->code[i];
		if (c->flow == LP_FLOW_JMP) {
			addr = c->target;
			continue;
		}
		if ((size_t)i + 1 >= in->code_nr ||
		    strcmp(in->code[i + 1].obj, c->obj))
			return none;
		addr = in->code[i + 1].addr;
	}
	return none;
}

/* What follow_side() walks with. */
struct follow {
	const struct lp_hint *hint;
	const struct lp_runs *r;
	struct lp_real_cache *cache;
	const struct lp_insn *j;
	const size_t *idx;
	size_t nidx, to;
	uint64_t at;            /* where the walk stopped */
};

/*
 * Code inlined from a call at a line of the hint's function: out of the
 * chain (F) where that line is before the if or after its statement, as
 * code of the line itself would be; a callee of the condition's own, or
 * code whose call the line tables do not place, leaves it unsure.
 */
static int inlined_side(const struct lp_hint *hint, const struct lp_runs *r,
			const struct lp_insn *j, uint64_t addr)
{
	long line = lp_call_line(r, hint, j->obj, addr);

	if (line <= 0)
		return SIDE_UNSURE;
	return line < hint->cond_first || line > hint->then_last ? SIDE_F :
								   SIDE_UNSURE;
}

static int follow_visit(void *ctx, uint64_t addr, long i)
{
	struct follow *f = ctx;
	const struct lp_hint *hint = f->hint;
	const struct lp_code_insn *c;

	f->at = addr;
	if (lp_in_then(f->r, hint, f->j->obj, addr))
		return SIDE_T;
	if (i < 0)
		return SIDE_UNSURE;
	c = &f->r->in->code[i];
	if (!own_code(hint, f->cache, f->j, c))
		return inlined_side(hint, f->r, f->j, addr);
	/* the condition's other lines are walked through */
	if (c->line > 0 && (c->line < hint->cond_first ||
			    c->line > hint->cond_last))
		return c->line < hint->cond_first ||
		       c->line > hint->then_last ? SIDE_F : SIDE_UNSURE;
	if (c->flow == LP_FLOW_COND) {
		for (f->to = 0; f->to < f->nidx; f->to++)
			if (f->r->in->v[f->idx[f->to]].addr == c->addr &&
			    !strcmp(f->r->in->v[f->idx[f->to]].obj, c->obj))
				return SIDE_C;
		return SIDE_UNSURE;
	}
	return c->flow == LP_FLOW_END ? SIDE_UNSURE : WALK_ON;
}

static enum side follow_side(const struct lp_hint *hint,
			     const struct lp_runs *r,
			     struct lp_real_cache *cache,
			     const struct lp_insn *j, uint64_t *at,
			     const size_t *idx, size_t nidx, size_t *to)
{
	struct follow f = { hint, r, cache, j, idx, nidx, 0, *at };
	int side = walk(r->in, j, *at, follow_visit, &f, SIDE_UNSURE);

	*at = f.at;
	*to = f.to;
	return (enum side)side;
}

/*
 * The flows of the chain: into T, into F, into each test by C, and into
 * the statement at each place it was entered.
 */
struct chain {
	uint64_t t, f;
	uint64_t *c_in;
	struct landing {
		const char *obj, *sym;
		uint64_t addr, n;
	} land[16], fland[16];
	size_t nland, nfland;
	struct lp_terms terms;  /* the sides the T and F flows are of */
	long expect;
	/*
	 * The statement is "return E;", read through the block the
	 * compiler merged with the function's other returns of E: that
	 * block is entered from them too, so T is not counted by its
	 * executions (decide.c checks who else enters it).
	 */
	int ret;
};

/* A flow of @n into @addr, in @v: -1 past a handful of places. */
static int land(struct landing *v, size_t *nr, const struct lp_insn *j,
		uint64_t addr, uint64_t n)
{
	size_t i;

	for (i = 0; i < *nr; i++)
		if (v[i].addr == addr && !strcmp(v[i].obj, j->obj))
			break;
	if (i == 16)
		return -1;
	if (i == *nr) {
		v[i].obj = j->obj;
		v[i].sym = j->sym;
		v[i].addr = addr;
		v[i].n = 0;
		++*nr;
	}
	v[i].n += n;
	return 0;
}

static int ret_walk(const struct lp_hint *hint, const struct lp_runs *r,
		    const struct lp_insn *j, uint64_t addr);

/*
 * A side of a chain whose statement is "return E;", its code merged with
 * the other returns of E on another line: the condition held where the
 * side runs through the code of such a return to the function's end; it
 * did not where the side goes, as followed, out of the chain (@s F) and
 * first to code of a line that is no such return.
 */
static enum side ret_side(const struct lp_hint *hint, const struct lp_runs *r,
			  const struct lp_insn *j, uint64_t start, enum side s)
{
	int ret = ret_walk(hint, r, j, start);

	if (ret == 1)
		return SIDE_T;
	return ret == 0 && s == SIDE_F ? SIDE_F : SIDE_UNSURE;
}

/* Side @taken (or the fall-through) of jump @k (of @idx): where to. */
static int add_side(struct chain *ch, const struct lp_hint *hint,
		    const struct lp_runs *r, struct lp_real_cache *cache,
		    size_t k, int taken, const size_t *idx, size_t nidx)
{
	const struct lp_insn *j = &r->in->v[idx[k]];
	uint64_t addr = taken ? j->target : j->next;
	uint64_t n = taken ? j->taken : j->exe - j->taken;
	uint64_t start = addr;
	size_t to = 0;
	enum side s = follow_side(hint, r, cache, j, &addr, idx, nidx, &to);

	if (ch->ret && s != SIDE_C)
		s = ret_side(hint, r, j, start, s);
	if (s == SIDE_T && land(ch->land, &ch->nland, j, addr, n) == 0)
		ch->t += n;
	else if (s == SIDE_F && land(ch->fland, &ch->nfland, j, addr, n) == 0)
		ch->f += n;
	else if (s == SIDE_C && r->in->v[idx[to]].addr != j->addr)
		ch->c_in[to] += n;
	else
		return -1;
	if (s != SIDE_C)
		lp_terms_add(&ch->terms, idx[k], taken,
			     (s == SIDE_T) == (ch->expect == 1));
	return (int)s;
}

/*
 * The statement the if guards, entered only from the chain: where it
 * was, as often as the chain went there (a return or a continue may be
 * taken from elsewhere, or straight from a test: hints whose statement
 * holds one are no chain).
 */
static int entered_only_by_chain(const struct chain *ch,
				 const struct lp_insns *in)
{
	size_t i, k;

	/*
	 * Where the condition did not hold, a function's chain goes on at
	 * one place, after the statement: a second place is a return or a
	 * continue taken straight from a test, the statement's flow read
	 * as the other side's.
	 */
	for (i = 0; i < ch->nfland; i++) {
		const struct landing *a = &ch->fland[i];

		for (k = i + 1; k < ch->nfland; k++) {
			const struct landing *b = &ch->fland[k];

			if (!strcmp(a->obj, b->obj) && a->sym && b->sym &&
			    lp_same_function(a->sym, b->sym))
				return 0;
		}
	}
	for (i = 0; i < ch->nland && !ch->ret; i++) {
		const struct lp_insn *ins = lp_insns_find(in, ch->land[i].obj,
							   ch->land[i].addr);

		/* not among callgrind's instructions: it never ran */
		if ((ins ? ins->exe : 0) != ch->land[i].n)
			return 0;
	}
	return 1;
}

/*
 * Has the run of line-table instructions at @c one that is not a bare
 * jmp?  A statement whose code is only a jump (a continue, a return of
 * nothing) may be skipped by tests that jump straight to its target.
 */
static int run_does_work(const struct lp_insns *in,
			 const struct lp_code_line *c)
{
	long i = lp_code_at(in, c->obj, c->addr);

	for (; i >= 0 && (size_t)i < in->code_nr; i++) {
		const struct lp_code_insn *x = &in->code[i];

		if (strcmp(x->obj, c->obj) || x->line != c->line)
			return 0;
		if (x->flow != LP_FLOW_JMP)
			return 1;
	}
	return 0;
}

/*
 * Has function @sym of @obj code of the lines the if guards that does
 * some work, which no test can jump past?
 */
static int then_has_code(const struct lp_hint *hint, const struct lp_runs *r,
			 const char *obj, const char *sym)
{
	size_t k;

	for (k = 0; k < r->in->lines_nr; k++) {
		const struct lp_code_line *c = &r->in->lines[k];

		if (c->addr && c->sym && c->line >= hint->then_first &&
		    c->line <= hint->then_last && !strcmp(c->obj, obj) &&
		    lp_same_function(c->sym, sym) && r->line_real[k] &&
		    !strcmp(r->line_real[k], hint->real) &&
		    run_does_work(r->in, c))
			return 1;
	}
	return 0;
}

/*
 * Each test entered by C flows exactly; one entry test per function,
 * whose function has code of the statement (else a condition that never
 * held and one whose statement the compiler made a cmov look alike).
 */
static int chain_balanced(const struct chain *ch, const struct lp_runs *r,
			  const size_t *idx, size_t nidx,
			  const struct lp_hint *hint)
{
	const struct lp_insns *in = r->in;
	size_t k, m;

	for (k = 0; k < nidx; k++) {
		const struct lp_insn *a = &in->v[idx[k]];

		if (ch->c_in[k]) {
			if (ch->c_in[k] != a->exe)
				return 0;
			continue;
		}
		if (a->exe && (!a->sym || (!ch->ret &&
					   !then_has_code(hint, r, a->obj,
							  a->sym))))
			return 0;
		for (m = k + 1; m < nidx; m++) {
			const struct lp_insn *b = &in->v[idx[m]];

			if (!ch->c_in[m] && a->exe && b->exe && a->sym &&
			    b->sym && !strcmp(a->obj, b->obj) &&
			    lp_same_function(a->sym, b->sym))
				return 0;
		}
	}
	return 1;
}

/*
 * Has every function whose tests ran one jump of the line per part of
 * the condition?  A part the compiler computed with no jump (an or of
 * two values, an sbb into the returned value) would otherwise be read as
 * the side its value joins, and a merged return's block, counted by the
 * flows into it alone, cannot show it.
 */
static int a_jump_per_part(const struct lp_hint *hint,
			   const struct lp_insns *in, const size_t *idx,
			   size_t nidx)
{
	size_t parts = lp_judge_cond_parts(hint->cond), k, m, n;

	for (k = 0; k < nidx; k++) {
		const struct lp_insn *a = &in->v[idx[k]];

		if (!a->exe)
			continue;
		if (!a->sym)
			return 0;
		for (n = m = 0; m < nidx; m++) {
			const struct lp_insn *b = &in->v[idx[m]];

			n += b->sym && !strcmp(a->obj, b->obj) &&
			     lp_same_function(a->sym, b->sym);
		}
		if (n != parts)
			return 0;
	}
	return 1;
}

/*
 * A statement that jumps (a continue, a return) and was never entered:
 * a test may have jumped straight to where it goes, skipping its code,
 * and its flow read as the condition not holding.  Not where each
 * function whose tests ran has a side that lands in the statement's
 * code (a function's, by then_has_code(), that does some work, which
 * no jump can skip) and no code of the statement's lines ran there:
 * the condition never held.
 */
static int never_entered(const struct chain *ch, const struct lp_hint *hint,
			 const struct lp_runs *r, const size_t *idx,
			 size_t nidx)
{
	const struct lp_insns *in = r->in;
	size_t k, i;

	for (k = 0; k < nidx; k++) {
		const struct lp_insn *a = &in->v[idx[k]];
		int landed = 0;

		if (!a->exe)
			continue;
		for (i = 0; i < ch->nland && !landed; i++)
			landed = a->sym && ch->land[i].sym &&
				 !strcmp(ch->land[i].obj, a->obj) &&
				 lp_same_function(ch->land[i].sym, a->sym);
		if (!landed)
			return 0;
	}
	for (i = 0; i < in->nr; i++) {
		const struct lp_insn *c = &in->v[i];
		const char *real;

		if (!c->exe || c->line < hint->then_first ||
		    c->line > hint->then_last)
			continue;
		real = lp_real_of(r->cache, c->file);
		if (real && !strcmp(real, hint->real))
			return 0;
	}
	return 1;
}

#define NEAR_MAX 48

/*
 * Did a cmov or set run on the code near jump @j: from its sides on,
 * both sides of every jump, up to NEAR_MAX instructions, no further than
 * a call or a return?  A part computed without a jump must be decided
 * before the statement, or the code after the if, does anything a call
 * could see: near the jump, not anywhere in a large function (zstd's
 * decoder, whose third part is folded away, runs cmovs elsewhere).
 */
static int test_near(const struct lp_insns *in, const struct lp_insn *j)
{
	uint64_t todo[NEAR_MAX], seen[NEAR_MAX];
	size_t ntodo = 0, nseen = 0, k;

	todo[ntodo++] = j->target;
	todo[ntodo++] = j->next;
	while (ntodo && nseen < NEAR_MAX) {
		uint64_t addr = todo[--ntodo];
		long i = lp_code_at(in, j->obj, addr);
		const struct lp_code_insn *c;
		const struct lp_insn *ins;

		for (k = 0; k < nseen && seen[k] != addr; k++)
			;
		if (i < 0 || k < nseen)
			continue;
		seen[nseen++] = addr;
		c = &in->code[i];
		ins = lp_insns_find(in, j->obj, addr);
		if (ins && ins->test && ins->exe)
			return 1;
		if (c->call || c->flow == LP_FLOW_END)
			continue;
		if ((c->flow == LP_FLOW_COND || c->flow == LP_FLOW_JMP) &&
		    ntodo < NEAR_MAX)
			todo[ntodo++] = c->target;
		if (c->flow != LP_FLOW_JMP && (size_t)i + 1 < in->code_nr &&
		    !strcmp(in->code[i + 1].obj, c->obj) && ntodo < NEAR_MAX)
			todo[ntodo++] = in->code[i + 1].addr;
	}
	return 0;
}

int lp_judge_part_elsewhere(const struct lp_hint *hint,
			    const struct lp_runs *r, const size_t *idx,
			    size_t nidx)
{
	const struct lp_insns *in = r->in;
	size_t parts = lp_judge_cond_parts(hint->cond), k, m, n;

	/*
	 * parameters before the hint: constants where inlined, but a copy
	 * that tests them may fold them with the hint into one jump
	 */
	if (hint->params && parts == 1)
		parts = 2;
	if (parts < 2)
		return 0;
	for (k = 0; k < nidx; k++) {
		const struct lp_insn *a = &in->v[idx[k]];

		if (!a->exe || !a->cond)
			continue;
		if (!a->sym)
			return 1;
		for (n = m = 0; m < nidx; m++) {
			const struct lp_insn *b = &in->v[idx[m]];

			n += b->cond && b->sym && !strcmp(a->obj, b->obj) &&
			     lp_same_function(a->sym, b->sym);
		}
		if (n < parts && test_near(in, a))
			return 1;
	}
	return 0;
}

/* The chain read, with merged returns when @ch->ret: whether it adds up. */
static int read_flows(struct chain *ch, const struct lp_hint *hint,
		      const struct lp_runs *r, struct lp_real_cache *cache,
		      const size_t *idx, size_t nidx)
{
	size_t k;
	int ok = 1;

	for (k = 0; k < nidx && ok; k++) {
		const struct lp_insn *j = &r->in->v[idx[k]];
		int a, b;

		if (!j->cond || !j->next || j->doubt || j->against)
			return 0;
		if (!j->exe)
			continue;
		a = add_side(ch, hint, r, cache, k, 1, idx, nidx);
		b = add_side(ch, hint, r, cache, k, 0, idx, nidx);
		/* T and F, or a test on one side: never two of a kind */
		ok = a > 0 && b > 0 && a != b;
	}
	/*
	 * a statement that jumps may be skipped: never entered, no reading;
	 * but a side that runs through a merged return to the function's
	 * end is the statement's wherever it comes from
	 */
	return ok &&
	       (ch->t || !hint->then_jumps || ch->ret ||
		never_entered(ch, hint, r, idx, nidx)) &&
	       chain_balanced(ch, r, idx, nidx, hint) &&
	       entered_only_by_chain(ch, r->in) && ch->t + ch->f &&
	       (!ch->ret || a_jump_per_part(hint, r->in, idx, nidx)) &&
	       !lp_judge_part_elsewhere(hint, r, idx, nidx);
}

int lp_judge_read_chain(struct lp_prof_site *s, const struct lp_hint *hint,
			const struct lp_runs *r, struct lp_real_cache *cache,
			const size_t *idx, size_t nidx, struct lp_terms *terms)
{
	struct chain ch;
	int ret, ok = 0;

	if (hint->loop || hint->part || !hint->then_apart ||
	    hint->cond_first > hint->line || hint->cond_last < hint->line ||
	    hint->then_first <= 0 || hint->then_first > hint->then_last ||
	    (hint->expect != 0 && hint->expect != 1) || !*hint->func)
		return 0;
	for (ret = 0; ret <= (hint->nret > 0) && !ok; ret++) {
		memset(&ch, 0, sizeof(ch));
		ch.c_in = lp_xcalloc(nidx + 1, sizeof(*ch.c_in));
		ch.expect = hint->expect;
		ch.ret = ret;
		ok = read_flows(&ch, hint, r, cache, idx, nidx);
		free(ch.c_in);
		if (!ok)
			free(ch.terms.v);
	}
	if (!ok)
		return 0;
	s->correct = hint->expect ? ch.t : ch.f;
	s->incorrect = hint->expect ? ch.f : ch.t;
	free(terms->v);
	*terms = ch.terms;
	return ch.ret ? LP_CHAIN_RETURN : LP_CHAIN;
}

/* What ret_walk() walks with. */
struct ret_follow {
	const struct lp_hint *hint;
	const struct lp_runs *r;
	const struct lp_insn *j;
	int before;             /* code of a line before the if ran */
};

static int ret_visit(void *ctx, uint64_t addr, long i)
{
	struct ret_follow *f = ctx;
	const struct lp_hint *hint = f->hint;
	const struct lp_code_insn *c;
	int ret_line = 0;
	size_t k;

	(void)addr;
	if (i < 0)
		return f->before ? 0 : -1;
	c = &f->r->in->code[i];
	if (!own_code(hint, f->r->cache, f->j, c))
		return f->before ? 0 : -1;
	for (k = 0; c->line > 0 && k < hint->nret; k++)
		ret_line |= c->line == hint->ret_line[k];
	/*
	 * Code of a line before the if: a loop's next round, the condition
	 * not held (0), unless it runs straight to the function's end: gcc
	 * gives the value of a merged "return -1;" its loop head's line,
	 * and a side that did not hold runs a test or code after the if
	 * before any return.
	 */
	if (c->line > 0 && !ret_line && c->line < hint->cond_first)
		f->before = 1;
	else if (c->line > 0 && !ret_line &&
		 (c->line < hint->cond_first || c->line > hint->cond_last) &&
		 (c->line < hint->then_first || c->line > hint->then_last))
		return 0;
	if (c->flow == LP_FLOW_END)
		return 1;
	if (c->flow == LP_FLOW_COND)
		return f->before ? 0 : -1;
	return WALK_ON;
}

/*
 * Where side @addr of jump @j goes, for a hint whose statement is one
 * "return E;": 1 into the code of a return of E (its lines, those of
 * every "return E;" of the function, or the closing brace; or of lines
 * before the if, straight) and on to the function's end; 0 into code of
 * other lines first (the code after the if, or before it and then a
 * test); -1 where the walk cannot tell (a test, inlined code, code of
 * another file, no end within reach).
 */
static int ret_walk(const struct lp_hint *hint, const struct lp_runs *r,
		    const struct lp_insn *j, uint64_t addr)
{
	struct ret_follow f = { hint, r, j, 0 };
	int v = walk(r->in, j, addr, ret_visit, &f, -1);

	return v < 0 && f.before ? 0 : v;       /* no end within reach */
}

int lp_judge_return_side(const struct lp_hint *hint, const struct lp_runs *r,
			 const struct lp_insn *j)
{
	int taken, fall;

	if (!hint->nret || hint->loop || hint->part || !j->cond || !j->next ||
	    hint->then_first <= 0 || hint->then_first > hint->then_last)
		return -1;
	taken = ret_walk(hint, r, j, j->target);
	fall = ret_walk(hint, r, j, j->next);
	if (taken == 1 && fall == 0)
		return 1;
	return taken == 0 && fall == 1 ? 0 : -1;
}

int lp_judge_return_path(const struct lp_hint *hint, const struct lp_runs *r,
			 const struct lp_insn *j, uint64_t addr)
{
	return hint->nret ? ret_walk(hint, r, j, addr) : -1;
}

/* What first_visit() walks with: follow_visit()'s, and no call on the way. */
static int first_visit(void *ctx, uint64_t addr, long i)
{
	struct follow *f = ctx;

	if (i >= 0 && f->r->in->code[i].call) {
		f->at = addr;
		return SIDE_UNSURE;
	}
	return follow_visit(ctx, addr, i);
}

/* Is @name a function the text @rest calls ("name(" or "name (")? */
static int rest_calls(const char *rest, const char *name)
{
	size_t n = strlen(name);
	const char *p;

	for (p = rest; n && (p = strstr(p, name)); p += n) {
		const char *q = p + n;

		if (p > rest && lp_judge_ident_char(p[-1]))
			continue;
		while (*q == ' ')
			q++;
		if (*q == '(')
			return 1;
	}
	return 0;
}

int lp_judge_rest_code(const struct lp_hint *hint, const struct lp_runs *r,
		       const char *obj, uint64_t addr)
{
	const char *callee = NULL;
	long line;

	if (!hint->first || !hint->rest)
		return 0;
	line = lp_call_from(r, hint, obj, addr, &callee);
	return line >= hint->cond_first && line <= hint->cond_last &&
	       callee && rest_calls(hint->rest, callee);
}

/*
 * Straight code to REST's: whatever its lines (the compiler gives the
 * code it adds there, as a value it now knows, any line), REST then
 * runs on this side, so the hint did not decide the condition.
 */
static int rest_visit(void *ctx, uint64_t addr, long i)
{
	struct follow *f = ctx;
	const struct lp_code_insn *c;

	f->at = addr;
	if (i < 0)
		return SIDE_UNSURE;
	c = &f->r->in->code[i];
	if (lp_judge_rest_code(f->hint, f->r, f->j->obj, addr))
		return SIDE_C;
	return c->call || c->flow == LP_FLOW_COND || c->flow == LP_FLOW_END ?
		       SIDE_UNSURE : WALK_ON;
}

/*
 * Where side @addr of jump @j goes for a first part: SIDE_C into REST's
 * code, T into the statement, F out of the if, with *@at where (REST's
 * code for SIDE_C); SIDE_UNSURE anywhere else, or past a call on the way.
 */
static enum side first_side(const struct lp_hint *hint,
			    const struct lp_runs *r,
			    struct lp_real_cache *cache,
			    const struct lp_insn *j, uint64_t *at)
{
	struct follow f = { hint, r, cache, j, NULL, 0, 0, *at };
	int side = walk(r->in, j, *at, rest_visit, &f, SIDE_UNSURE);

	if (side == SIDE_C) {
		*at = f.at;
		return SIDE_C;
	}
	side = walk(r->in, j, *at, first_visit, &f, SIDE_UNSURE);
	return side == SIDE_T || side == SIDE_F ? (enum side)side : SIDE_UNSURE;
}

/* What path_visit() checks a side's way into REST's code with. */
struct rest_path {
	const struct lp_hint *hint;
	const struct lp_runs *r;
	const struct lp_insn *j;
	uint64_t n;             /* the side's count */
};

static uint64_t exe_at(const struct lp_insns *in, const char *obj,
		       uint64_t addr)
{
	const struct lp_insn *ins = lp_insns_find(in, obj, addr);

	return ins ? ins->exe : 0;      /* not there: it never ran */
}

/*
 * REST's first instruction at @addr ran as often as the side went there
 * and REST's own jumps (a loop of the callee) came back to it: nothing
 * else entered it, so each run of REST passed the hint's jump.
 */
static int rest_entered_by_side(const struct rest_path *p, uint64_t addr)
{
	const struct lp_insns *in = p->r->in;
	uint64_t n = p->n;
	size_t ne;
	const struct lp_edge *e = lp_insns_edges_into(in, p->j->obj, addr,
						      &ne);

	for (; ne; ne--, e++) {
		const struct lp_insn *k = lp_insns_find(in, e->obj, e->addr);

		if (k && lp_judge_rest_code(p->hint, p->r, e->obj, e->addr))
			n += k->cond ? k->taken : k->exe;
	}
	return exe_at(in, p->j->obj, addr) == n;
}

/*
 * The side's straight code up to REST's, each instruction run exactly as
 * often as the side was taken (entered from nowhere else): 1 where it
 * and REST's first instruction are so, 0 otherwise.
 */
static int path_visit(void *ctx, uint64_t addr, long i)
{
	const struct rest_path *p = ctx;
	const struct lp_code_insn *c;

	if (lp_judge_rest_code(p->hint, p->r, p->j->obj, addr))
		return rest_entered_by_side(p, addr);
	if (i < 0 || exe_at(p->r->in, p->j->obj, addr) != p->n)
		return 0;
	c = &p->r->in->code[i];
	return c->call || c->flow == LP_FLOW_COND || c->flow == LP_FLOW_END ?
		       0 : WALK_ON;
}

/*
 * Jump @j, the only one of the line in its function, read as the test
 * of the first part: one side runs REST's code, which nothing else
 * enters; the other decides the condition, out of the if for &&, into
 * the statement for ||.  The hint's value held (1) or not (0) on the
 * taken side, or -1 where it is not so.
 */
static int first_taken(const struct lp_hint *hint, const struct lp_runs *r,
		       struct lp_real_cache *cache, const struct lp_insn *j)
{
	uint64_t to = j->target, fall = j->next;
	enum side t = first_side(hint, r, cache, j, &to);
	enum side n = first_side(hint, r, cache, j, &fall);
	enum side decides = hint->first == '&' ? SIDE_F : SIDE_T;
	struct rest_path p = { hint, r, j, 0 };

	if (t == SIDE_C && n == decides)
		p.n = j->taken;
	else if (n == SIDE_C && t == decides)
		p.n = j->exe - j->taken;
	else
		return -1;
	if (walk(r->in, j, t == SIDE_C ? j->target : j->next, path_visit, &p,
		 0) != 1)
		return -1;
	/* REST runs where the hint held for &&, where it did not for || */
	return (t == SIDE_C) == (hint->first == '&');
}

/*
 * Is the jump @e, into the statement, of the condition (its lines, REST's
 * code) or of the statement itself?  Any other that ran may have skipped
 * the hint's test, knowing the condition held.
 */
static int condition_edge(const struct lp_hint *hint, const struct lp_runs *r,
			  const struct lp_edge *e)
{
	const char *real = lp_real_of(r->cache, e->file);

	if (real && !strcmp(real, hint->real) &&
	    e->line >= hint->cond_first && e->line <= hint->then_last)
		return 1;
	return lp_in_then(r, hint, e->obj, e->addr) ||
	       lp_judge_rest_code(hint, r, e->obj, e->addr);
}

/*
 * Was the statement entered, while the program ran, only by jumps of the
 * condition and its own?  For &&, REST's code leads there, not the
 * hint's jump, whose sides say nothing of other ways in.
 */
static int then_entered_by_condition(const struct lp_hint *hint,
				     const struct lp_runs *r)
{
	const struct lp_insns *in = r->in;
	size_t i, n;

	for (i = 0; i < in->code_nr; i++) {
		const struct lp_code_insn *c = &in->code[i];
		const struct lp_edge *e;

		if (!lp_in_then(r, hint, c->obj, c->addr))
			continue;
		for (e = lp_insns_edges_into(in, c->obj, c->addr, &n); n;
		     n--, e++) {
			const struct lp_insn *k = lp_insns_find(in, e->obj,
								 e->addr);

			if (k && k->exe && (!k->cond || k->taken) &&
			    !condition_edge(hint, r, e))
				return 0;
		}
	}
	return 1;
}

int lp_judge_read_first(struct lp_prof_site *s, const struct lp_hint *hint,
			const struct lp_runs *r, struct lp_real_cache *cache,
			const size_t *idx, size_t nidx, struct lp_terms *terms)
{
	struct lp_terms t = { NULL, 0, 0 };
	uint64_t held = 0, not = 0;
	size_t k, m, n;

	if (!hint->first || !hint->rest || hint->loop || !hint->then_apart ||
	    hint->cond_first > hint->line || hint->cond_last < hint->line ||
	    hint->then_first <= 0 || hint->then_first > hint->then_last ||
	    (hint->expect != 0 && hint->expect != 1) || !*hint->func)
		return 0;
	for (k = 0; k < nidx; k++) {
		const struct lp_insn *j = &r->in->v[idx[k]];
		int taken;

		if (!j->cond || !j->next || j->doubt || j->against)
			goto fail;
		if (!j->exe)
			continue;
		for (n = m = 0; m < nidx; m++)
			n += r->in->v[idx[m]].sym && j->sym &&
			     !strcmp(r->in->v[idx[m]].obj, j->obj) &&
			     lp_same_function(r->in->v[idx[m]].sym, j->sym);
		if (n != 1 || (taken = first_taken(hint, r, cache, j)) < 0)
			goto fail;
		held += taken ? j->taken : j->exe - j->taken;
		not += taken ? j->exe - j->taken : j->taken;
		lp_terms_add(&t, idx[k], 1, taken == (hint->expect == 1));
		lp_terms_add(&t, idx[k], 0, taken != (hint->expect == 1));
	}
	if (!t.nr || !then_entered_by_condition(hint, r))
		goto fail;
	s->correct = hint->expect ? held : not;
	s->incorrect = hint->expect ? not : held;
	free(terms->v);
	*terms = t;
	return 1;
fail:
	free(t.v);
	return 0;
}
