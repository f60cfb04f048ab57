/*
 * attr.c - C++20 [[likely]]/[[unlikely]] rewritten into counted hints
 *
 * An attribute is no expression, so the header's __builtin_expect macro
 * never sees one.  Where the attribute stands on the branch of a
 * condition, it says the same as an expectation on that condition:
 *
 *   if (c) [[likely]] S              if (__builtin_expect(!!(c), 1)) S
 *   if (c) { [[likely]] S ... }      the same: S runs when the branch does
 *   if (c) S else [[likely]] S2      ... expect 0
 *   while (c) [[likely]] S, for (i; c; n) [[likely]] S     expect 1
 *
 * ([[unlikely]] the other way).  The instrumented compile, whose output
 * is never shown, compiles such a copy of the source, in which the
 * header counts each one as any hint.  Only blanks replace the
 * attribute and nothing adds a line, so every line keeps its number and
 * a #line on top keeps the name: the site lands on the attribute's own
 * `if`.  An init-statement stays before the condition it wraps, and a
 * declaration's name is tested after it, as C++17 writes it:
 *
 *   if (T x = e) [[likely]] S        if (T x = e; __builtin_expect(!!(x), 1)) S
 *
 * A declaration after an init-statement has no place left for a test, so
 * the copy gives it an if of its own, which the init's names reach and
 * which takes the else, if any, as the original did:
 *
 *   if (i; T x = e) S
 *       if (i; true) if (T x = e; __builtin_expect(!!(x), 1)) S
 *
 * and a while's declaration is tested in the same way, the body braced
 * so that no `if` of it takes the else that leaves the loop:
 *
 *   while (T x = e) S
 *       for (;;) if (T x = e; __builtin_expect(!!(x), 1)) { S } else break;
 *
 * Forms whose branch is no condition's outcome (a plain statement), or
 * whose condition is none at run time (if constexpr, a range-for, a
 * for's declaration) are left as they are, and cc's note says which and
 * why.
 * Case labels are cases.c's.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/attr.h"
#include "cc/attrmacro.h"
#include "cc/cases.h"
#include "cc/edits.h"
#include "cc/stmt.h"
#include "fix/lexer.h"
#include "usage.h"

#define NONE LP_NO_MATCH

/*
 * A condition to wrap: tokens [from, to] of the statement at @stmt,
 * whose '(' is @open, expected @expect, as the attributes @then (on the
 * body or the if's branch) and @other (on the else) say; NULL where
 * there is none.  A declaration's @name is tested after it, in an if of
 * its own after an init-statement ending at @init; a while's, with the
 * loop's body (tokens [body, body_end]) braced, else LP_NO_MATCH.
 */
struct wrap {
	size_t stmt, open, from, to, name, init, body, body_end;
	int expect;
	const struct lp_attr_mark *then, *other;
};

static int is(const struct lp_lexed *lx, size_t i, const char *s)
{
	return lp_stmt_is(lx, i, s);
}

struct plan {
	const struct lp_lexed *lx;
	struct lp_attr_mark *attr;
	size_t nattr;
	struct wrap *wrap;
	size_t nwrap;
	struct lp_attr_site *cases;     /* case labels' sites (cases.c) */
	size_t ncases;
};

static void add_wrap(struct plan *p, size_t stmt, size_t open,
		     const struct lp_stmt_cond *c, int expect)
{
	struct wrap *w;

	p->wrap = lp_xrealloc(p->wrap, (p->nwrap + 1) * sizeof(*p->wrap));
	w = &p->wrap[p->nwrap++];
	w->stmt = stmt;
	w->open = open;
	w->from = c->from;
	w->to = c->to;
	w->name = c->name;
	w->init = c->init;
	w->body = w->body_end = NONE;
	w->expect = expect;
	w->then = w->other = NULL;
}

/*
 * Decides @a and @b (either may be NULL: @a on the branch taken when the
 * condition holds, @b on the else) on the condition @c of @stmt, whose
 * '(' is @open.
 */
static void decide(struct plan *p, size_t stmt, struct lp_attr_mark *a,
		   struct lp_attr_mark *b, size_t open,
		   const struct lp_stmt_cond *c, int expect, const char *why)
{
	if (!why && a && b && a->likely == b->likely)
		why = "both branches carry the same attribute";
	if (!why)
		why = c->why;
	if (!why) {
		add_wrap(p, stmt, open, c, expect);
		p->wrap[p->nwrap - 1].then = a;
		p->wrap[p->nwrap - 1].other = b;
	}
	if (a)
		a->why = why ? why : "";
	if (b)
		b->why = why ? why : "";
}

/* A mark at token @i that takes the condition (`if NAME(c)`), or NULL. */
static struct lp_attr_mark *taking(struct plan *p, size_t i, int funclike)
{
	struct lp_attr_mark *m = lp_attr_mark_at(p->attr, p->nattr, i);

	return m && m->funclike == funclike ? m : NULL;
}

/*
 * The mark on the branch whose statement starts at token @i: on the
 * statement (`[[a]] S`), or on the first statement of its block (`{
 * [[a]] S ...}`), which runs exactly when the branch is taken.  gcc
 * reads the second as the first (the standard's paths of execution);
 * clang reads only the first, and its documentation says so.  *@inner
 * says which.
 */
static struct lp_attr_mark *on_branch(struct plan *p, size_t i, int *inner)
{
	struct lp_attr_mark *m = taking(p, i, 0);

	*inner = 0;
	if (m || !is(p->lx, i, "{"))
		return m;
	m = taking(p, i + 1, 0);
	*inner = m != NULL;
	return m;
}

/* `if (c) [[a]] S else [[b]] S2` (or `if NAME(c) S ...`) at token @i. */
static void plan_if(struct plan *p, size_t i)
{
	const struct lp_lexed *lx = p->lx;
	const char *why = NULL;
	struct lp_attr_mark *then, *other = NULL, *name;
	struct lp_stmt_cond c;
	size_t j = i + 1, close, end;
	int inner = 0;

	while (is(lx, j, "constexpr") || is(lx, j, "consteval") ||
	       is(lx, j, "!")) {
		why = "if constexpr is decided while compiling";
		j++;
	}
	if ((name = taking(p, j, 1)))
		j++;
	if (!is(lx, j, "(") || (close = lx->tok[j].match) == NONE)
		return;
	then = name ? name : on_branch(p, close + 1, &inner);
	end = lp_stmt_end(lx, then && !name && !inner ? then->last + 1
						      : close + 1);
	if (end != NONE && is(lx, end + 1, "else"))
		other = on_branch(p, end + 2, &inner);
	if (!then && !other)
		return;
	lp_stmt_condition(lx, j + 1, close - 1, &c);
	decide(p, i, then, other, j, &c,
	       then ? then->likely : !other->likely, why);
}

/* A loop's condition, tokens [from, to]: only an expression is tested. */
static const struct lp_stmt_cond *loop_cond(const struct lp_lexed *lx,
					    size_t from, size_t to,
					    const char *why,
					    struct lp_stmt_cond *c)
{
	c->from = from;
	c->to = to;
	c->name = NONE;
	c->init = NONE;
	c->why = why ? why : lp_stmt_unwrappable(lx, from, to);
	return c;
}

/*
 * `while (T x = e) [[a]] S`: the declaration tested in an if of its own,
 * S (from token @body) braced; left where S's end cannot be told.
 */
static void plan_while_declaration(struct plan *p, size_t i,
				   struct lp_stmt_cond *c,
				   struct lp_attr_mark *a, size_t body)
{
	size_t end = lp_stmt_end(p->lx, body);

	if (end == NONE)
		c->why = "the loop's body cannot be read";
	decide(p, i, a, NULL, i + 1, c, a->likely, NULL);
	if (!c->why) {
		p->wrap[p->nwrap - 1].body = body;
		p->wrap[p->nwrap - 1].body_end = end;
	}
}

/* `while (c) [[a]] S`, `for (i; c; n) [[a]] S`, `while NAME(c) S`. */
static void plan_loop(struct plan *p, size_t i)
{
	const struct lp_lexed *lx = p->lx;
	struct lp_attr_mark *a, *name = taking(p, i + 1, 1);
	struct lp_stmt_cond c;
	size_t open = name ? i + 2 : i + 1, close, t, semi[2], n = 0;
	int inner;

	if (!is(lx, open, "(") || (close = lx->tok[open].match) == NONE ||
	    !(a = name ? name : on_branch(p, close + 1, &inner)))
		return;
	if (is(lx, i, "while")) {
		lp_stmt_condition(lx, open + 1, close - 1, &c);
		if (!name && !c.why && c.name != NONE && c.init == NONE)
			plan_while_declaration(p, i, &c, a,
					       inner ? close + 1 : a->last + 1);
		else
			decide(p, i, a, NULL, open,
			       loop_cond(lx, open + 1, close - 1, NULL, &c),
			       a->likely, NULL);
		return;
	}
	for (t = open + 1; t < close && n < 2; t = lp_stmt_next_top(lx, t))
		if (is(lx, t, ";"))
			semi[n++] = t;
	if (n < 2)
		decide(p, i, a, NULL, open,
		       loop_cond(lx, 1, 0, "a range-for has no condition",
				 &c), 0, NULL);
	else
		decide(p, i, a, NULL, open,
		       loop_cond(lx, semi[0] + 1, semi[1] - 1,
				 semi[0] + 1 == semi[1] ?
				 "the loop has no condition" : NULL, &c),
		       a->likely, NULL);
}

static void push_mark(struct plan *p, size_t tok, size_t last, int likely,
		      int funclike, const char *why)
{
	struct lp_attr_mark *a;

	p->attr = lp_xrealloc(p->attr, (p->nattr + 1) * sizeof(*p->attr));
	a = &p->attr[p->nattr++];
	memset(a, 0, sizeof(*a));
	a->tok = tok;
	a->last = last;
	a->likely = likely;
	a->funclike = funclike;
	a->why = why;
}

static int by_tok(const void *a, const void *b)
{
	const struct lp_attr_mark *x = a, *y = b;

	return (x->tok > y->tok) - (x->tok < y->tok);
}

static const char in_body[] = "in a macro's body";

/*
 * The attributes written in @lx, and the uses of the names of @am that
 * spell one (attrmacro.c).  The body of a definition of such a name is
 * no hint of its own: its uses are.
 */
static void find_attributes(struct plan *p, const struct lp_attr_macros *am,
			    const char *file)
{
	const struct lp_lexed *lx = p->lx;
	struct lp_attr_use *uses;
	size_t i, k, n;
	int likely;

	for (i = 0; i < lx->nr; i++) {
		unsigned flags = lx->tok[i].flags;

		if (flags & LP_TOKF_DEAD)
			continue;
		if (lp_attr_macro_in_body(am, lx, i))
			push_mark(p, i, i, 0, 0, in_body);
		if (lx->tok[i].kind != LP_TOK_PUNCT ||
		    (likely = lp_attr_is_hint(lx, i)) < 0)
			continue;
		if (!(flags & LP_TOKF_PP) ||
		    !lp_attr_macro_defines_hint(am, lx, lx->tok[i].dir))
			push_mark(p, i, i + 4, likely, 0,
				  flags & LP_TOKF_PP ? in_body : NULL);
		i += 4;
	}
	n = lp_attr_macro_uses(am, lx, file, &uses);
	for (k = 0; k < n; k++)
		push_mark(p, uses[k].tok, uses[k].tok, uses[k].likely,
			  uses[k].funclike, uses[k].why);
	free(uses);
	if (p->nattr > 1)
		qsort(p->attr, p->nattr, sizeof(*p->attr), by_tok);
}

static const char unclaimed_case[] =
	"on a case label of a switch that cannot be read";

/* Why an attribute that no if or loop claimed is left as it is. */
static const char *unclaimed(const struct lp_lexed *lx,
			     const struct lp_attr_mark *a)
{
	size_t t, i = a->tok;

	if (is(lx, a->last + 1, "case") || is(lx, a->last + 1, "default"))
		return unclaimed_case;
	for (t = i; t-- > 0 && !lp_stmt_skipped(lx, t);) {
		if (is(lx, t, ";") || is(lx, t, "{") || is(lx, t, "}"))
			break;
		if (is(lx, t, "case") || is(lx, t, "default"))
			return unclaimed_case;
	}
	if (i > 0 && is(lx, i - 1, "do"))
		return "on a do-while body, which runs before the condition";
	return "on a statement that is no branch of a condition";
}

/*
 * The if of its own that a declaration after an init-statement, or a
 * while's, is tested in (the test itself is the caller's).
 */
static void wrap_declaration(const struct lp_lexed *lx, const struct wrap *w,
			     struct lp_copy_edits *e)
{
	const struct lp_token *k = &lx->tok[w->stmt];

	if (w->init != NONE)
		lp_copy_edit_add(e, lx->tok[w->from].start, 0, "true) if (");
	if (w->body == NONE)
		return;
	lp_copy_edit_add(e, k->start, k->end - k->start, "for (;;) if");
	lp_copy_edit_add(e, lx->tok[w->body].start, 0, "{ ");
	lp_copy_edit_add(e, lx->tok[w->body_end].end, 0, " } else break;");
}

/* The attributes to blank and the conditions to wrap, as edits. */
static void add_edits(const struct plan *p, struct lp_copy_edits *e)
{
	const struct lp_lexed *lx = p->lx;
	size_t k, at;

	for (k = 0; k < p->nattr; k++) {
		const struct lp_attr_mark *a = &p->attr[k];

		/* on a label it stays: the copy's switch keeps its layout */
		if (!*a->why && !a->on_label) {
			at = lx->tok[a->tok].start;
			lp_copy_edit_add(e, at, lx->tok[a->last].end - at,
					 NULL);
		}
	}
	for (k = 0; k < p->nwrap; k++) {
		const struct wrap *w = &p->wrap[k];
		char *name;

		if (w->name != NONE) {
			wrap_declaration(lx, w, e);
			/* `if (T x = e; __builtin_expect(!!(x), 1))` */
			name = lp_tok_dup(lx, w->name);
			lp_copy_edit_add_owned(e, lx->tok[w->to].end, 0,
				lp_xstrfmt("; __builtin_expect(!!(%s), %d)",
					   name, w->expect));
			free(name);
			continue;
		}
		lp_copy_edit_add(e, lx->tok[w->from].start, 0,
				 "__builtin_expect(!!(");
		lp_copy_edit_add(e, lx->tok[w->to].end, 0,
				 w->expect ? "), 1)" : "), 0)");
	}
}

/*
 * Every attribute hint of @lx found, and decided: the edits of the case
 * labels' switches into @e, their sites kept where @sites.
 */
static void plan_all(struct plan *p, const struct lp_lexed *lx,
		     const struct lp_attr_macros *am, const char *file,
		     struct lp_copy_edits *e, int sites)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->lx = lx;
	find_attributes(p, am, file);
	for (i = 0; i < lx->nr && p->nattr; i++) {
		if (lp_stmt_skipped(lx, i) || lx->tok[i].kind != LP_TOK_IDENT)
			continue;
		if (lp_tok_is(lx, i, "if"))
			plan_if(p, i);
		else if (lp_tok_is(lx, i, "while") || lp_tok_is(lx, i, "for"))
			plan_loop(p, i);
	}
	if (p->nattr)
		lp_case_plan(lx, p->attr, p->nattr, e,
			     sites ? &p->cases : NULL, &p->ncases);
	for (i = 0; i < p->nattr; i++)
		if (!p->attr[i].why)
			p->attr[i].why = unclaimed(lx, &p->attr[i]);
}

/* The plan of @lx into @out, each attribute kept in @out->seen if @keep. */
static void plan_into(struct lp_attr_plan *out, const struct lp_lexed *lx,
		      const struct lp_attr_macros *am, const char *file,
		      struct lp_copy_edits *e, int keep)
{
	struct plan p;
	size_t k;

	memset(out, 0, sizeof(*out));
	plan_all(&p, lx, am, file, e, 0);
	if (keep)
		out->seen = lp_xcalloc(p.nattr + 1, sizeof(*out->seen));
	for (k = 0; k < p.nattr; k++) {
		const struct lp_attr_mark *a = &p.attr[k];

		if (keep) {
			out->seen[k].at = lx->tok[a->tok].start;
			out->seen[k].why = *a->why ? a->why : NULL;
		}
		out->attributes++;
		if (!*a->why)
			out->counted++;
		else if (!out->skipped_why) {
			out->skipped_why = a->why;
			out->skipped_line = lx->tok[a->tok].line;
		}
	}
	add_edits(&p, e);
	free(p.attr);
	free(p.wrap);
	free(p.cases);
}

void lp_attr_plan(struct lp_attr_plan *out, const struct lp_lexed *lx,
		  const struct lp_attr_macros *am, const char *file,
		  struct lp_copy_edits *e)
{
	plan_into(out, lx, am, file, e, 0);
}

void lp_attr_plan_seen(struct lp_attr_plan *out, const struct lp_lexed *lx,
		       const struct lp_attr_macros *am,
		       struct lp_copy_edits *e)
{
	plan_into(out, lx, am, NULL, e, 1);
}

void lp_attr_ignored(struct lp_attr_plan *out, const struct lp_lexed *lx)
{
	struct plan p;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	p.lx = lx;
	find_attributes(&p, NULL, NULL);
	out->attributes = (unsigned)p.nattr;
	if (p.nattr) {
		out->skipped_line = lx->tok[p.attr[0].tok].line;
		out->skipped_why = "C compilers ignore them; they are no hint";
	}
	free(p.attr);
}

static size_t attr_tok(const struct lp_attr_mark *a)
{
	return a ? a->tok : LP_NO_MATCH;
}

static size_t attr_last(const struct lp_attr_mark *a)
{
	return a ? a->last : LP_NO_MATCH;
}

/* A macro mark's partner of the other attribute (attrmacro.c), or NULL. */
static const char *attr_flip(const struct lp_lexed *lx,
			     const struct lp_attr_macros *am,
			     const struct lp_attr_mark *a)
{
	const char *partner;
	char *name;

	if (!a || a->last != a->tok)
		return NULL;
	name = lp_tok_dup(lx, a->tok);
	partner = lp_attr_macro_partner(am, name);
	free(name);
	return partner;
}

static int by_stmt(const void *a, const void *b)
{
	const struct lp_attr_site *x = a, *y = b;

	return (x->stmt > y->stmt) - (x->stmt < y->stmt);
}

size_t lp_attr_sites(const struct lp_lexed *lx,
		     const struct lp_attr_macros *am,
		     struct lp_attr_site **sites)
{
	struct plan p;
	size_t k, n;

	plan_all(&p, lx, am, NULL, NULL, 1);
	*sites = lp_xcalloc(p.nwrap + p.ncases + 1, sizeof(**sites));
	for (k = 0; k < p.nwrap; k++) {
		const struct wrap *w = &p.wrap[k];
		struct lp_attr_site *s = &(*sites)[k];

		s->stmt = w->stmt;
		s->open = w->open;
		s->from = w->name != NONE ? w->name : w->from;
		s->to = w->name != NONE ? w->name + 1 : w->to + 1;
		s->then = attr_tok(w->then);
		s->other = attr_tok(w->other);
		s->then_last = attr_last(w->then);
		s->other_last = attr_last(w->other);
		s->then_flip = attr_flip(lx, am, w->then);
		s->other_flip = attr_flip(lx, am, w->other);
		s->expect = w->expect;
		s->lo = lx->tok[w->name != NONE ? w->to : w->from - 1].line;
		s->hi = lx->tok[w->to].last_line;
	}
	if (p.ncases)
		memcpy(*sites + p.nwrap, p.cases, p.ncases * sizeof(**sites));
	free(p.attr);
	free(p.wrap);
	free(p.cases);
	n = p.nwrap + p.ncases;
	/* in source order, as fix walks a function's tokens */
	qsort(*sites, n, sizeof(**sites), by_stmt);
	return n;
}
