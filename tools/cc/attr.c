/*
 * attr.c - C++20 [[likely]]/[[unlikely]] rewritten into counted hints
 *
 * An attribute is no expression, so the header's __builtin_expect macro
 * never sees one.  Where the attribute stands on the branch of a
 * condition, it says the same as an expectation on that condition:
 *
 *   if (c) [[likely]] S              if (__builtin_expect(!!(c), 1)) S
 *   if (c) S else [[likely]] S2      ... expect 0
 *   while (c) [[likely]] S, for (i; c; n) [[likely]] S     expect 1
 *
 * ([[unlikely]] the other way).  The instrumented compile, whose output
 * is never shown, compiles such a copy of the source, in which the
 * header counts each one as any hint.  Only blanks replace the
 * attribute and nothing adds a line, so every line keeps its number and
 * a #line on top keeps the name: the site lands on the attribute's own
 * `if`.  Forms whose branch is no condition's outcome (a case label, a
 * plain statement), or whose condition cannot be wrapped (a declaration,
 * an init-statement, if constexpr) are left as they are, and cc's note
 * says which and why.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/attr.h"
#include "cc/edits.h"
#include "fix/lexer.h"
#include "usage.h"

#define NONE LP_NO_MATCH

struct attr {
	size_t tok;             /* its first '[' */
	int likely;             /* 1: [[likely]], 0: [[unlikely]] */
	const char *why;        /* NULL until decided; "" once counted */
};

/*
 * A condition to wrap: tokens [from, to] of the statement at @stmt,
 * expected @expect, as the attributes @then (on the body or the if's
 * branch) and @other (on the else) say; NULL where there is none.
 */
struct wrap {
	size_t stmt, from, to;
	int expect;
	const struct attr *then, *other;
};

struct plan {
	const struct lp_lexed *lx;
	struct attr *attr;
	size_t nattr;
	struct wrap *wrap;
	size_t nwrap;
};

static int skipped(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD);
}

static int is(const struct lp_lexed *lx, size_t i, const char *s)
{
	return i < lx->nr && lp_tok_is(lx, i, s);
}

/* The attribute hint starting at token @i, or NULL. */
static struct attr *attr_at(struct plan *p, size_t i)
{
	size_t k;

	for (k = 0; k < p->nattr; k++)
		if (p->attr[k].tok == i)
			return &p->attr[k];
	return NULL;
}

/* After the bracket pair opened at @i, or NONE when it has no match. */
static size_t past(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].match == NONE ? NONE : lx->tok[i].match + 1;
}

static size_t stmt_end(const struct lp_lexed *lx, size_t i);

/* The end of `if [constexpr] (c) S [else S]` starting at token @i. */
static size_t if_end(const struct lp_lexed *lx, size_t i)
{
	size_t j = i + 1, end;

	while (is(lx, j, "constexpr") || is(lx, j, "consteval") ||
	       is(lx, j, "!"))
		j++;
	if (is(lx, j, "("))
		j = past(lx, j);
	end = j == NONE ? NONE : stmt_end(lx, j);
	if (end != NONE && is(lx, end + 1, "else"))
		end = stmt_end(lx, end + 2);
	return end;
}

/*
 * The last token of the statement that starts at token @i, or NONE
 * where it cannot be told (the block closes first, a directive splits
 * it): enough of C++'s statements to find the `else` of an `if`.
 */
static size_t stmt_end(const struct lp_lexed *lx, size_t i)
{
	size_t t;

	if (i >= lx->nr || skipped(lx, i))
		return NONE;
	if (is(lx, i, "[") && is(lx, i + 1, "["))
		return past(lx, i) == NONE ? NONE : stmt_end(lx, past(lx, i));
	if (is(lx, i, "{"))
		return lx->tok[i].match;
	if (is(lx, i, "if"))
		return if_end(lx, i);
	if (is(lx, i, "while") || is(lx, i, "for") || is(lx, i, "switch"))
		return is(lx, i + 1, "(") && past(lx, i + 1) != NONE
		       ? stmt_end(lx, past(lx, i + 1)) : NONE;
	if (is(lx, i, "do")) {
		t = stmt_end(lx, i + 1);
		if (t == NONE || !is(lx, t + 1, "while") ||
		    !is(lx, t + 2, "(") || past(lx, t + 2) == NONE)
			return NONE;
		t = past(lx, t + 2);
		return is(lx, t, ";") ? t : NONE;
	}
	if (is(lx, i, "try") && is(lx, i + 1, "{")) {
		t = lx->tok[i + 1].match;
		while (t != NONE && is(lx, t + 1, "catch") &&
		       is(lx, t + 2, "(") && past(lx, t + 2) != NONE &&
		       is(lx, past(lx, t + 2), "{"))
			t = lx->tok[past(lx, t + 2)].match;
		return t;
	}
	if (is(lx, i, "case") || is(lx, i, "default")) {
		for (t = i + 1; t < lx->nr && !is(lx, t, ":"); t++)
			if (skipped(lx, t) || is(lx, t, ";"))
				return NONE;
		return stmt_end(lx, t + 1);
	}
	/* an expression, a declaration, a jump: up to its ';' */
	for (t = i; t < lx->nr; t++) {
		const struct lp_token *k = &lx->tok[t];

		if (skipped(lx, t))
			return NONE;
		if (is(lx, t, ";"))
			return t;
		if (k->kind == LP_TOK_PUNCT && strchr(")]}", lx->buf[k->start]))
			return NONE;
		if (k->match != NONE && k->match > t)
			t = k->match;
	}
	return NONE;
}

/* The next token at the depth of @i within [i, to], skipping brackets. */
static size_t next_top(const struct lp_lexed *lx, size_t i)
{
	const struct lp_token *k = &lx->tok[i];

	return k->match != NONE && k->match > i ? k->match + 1 : i + 1;
}

static int is_word(const struct lp_lexed *lx, size_t i)
{
	static const char *const ops[] = {
		"and", "or", "not", "xor", "bitand", "bitor", "compl",
		"not_eq", "and_eq", "or_eq", "xor_eq", "return", "sizeof"
	};

	return lx->tok[i].kind == LP_TOK_IDENT &&
	       !lp_tok_is_any(lx, i, ops, sizeof(ops) / sizeof(ops[0]));
}

/*
 * Whether the `=` or `{` at @eq (after @prev and @pprev at its depth,
 * NONE where there is none) declares what it initialises: `T x = e`,
 * `T *x = e`, `T x{e}`, `auto [a, b] = e`, but not `x = e`, `*p = e`,
 * `a.b = e` or `S{1}`.
 */
static int declares(const struct lp_lexed *lx, size_t prev, size_t pprev)
{
	size_t open;

	if (prev == NONE)
		return 0;
	if (is(lx, prev, "]")) {
		open = lx->tok[prev].match;
		return open != NONE && open > 0 &&
		       (is(lx, open - 1, "auto") || is(lx, open - 1, "&") ||
			is(lx, open - 1, "&&"));
	}
	if (!is_word(lx, prev) || pprev == NONE)
		return 0;
	if (is_word(lx, pprev) || is(lx, pprev, ">"))
		return 1;
	return (is(lx, pprev, "*") || is(lx, pprev, "&") ||
		is(lx, pprev, "&&")) && pprev > 0 &&
	       (is_word(lx, pprev - 1) || is(lx, pprev - 1, ">"));
}

/*
 * Why the condition in tokens [from, to] cannot be wrapped in an
 * expectation, or NULL when it can.
 */
static const char *unwrappable(const struct lp_lexed *lx, size_t from,
			       size_t to)
{
	size_t t, prev = NONE, pprev = NONE;

	if (from > to)
		return "no condition";
	for (t = from; t <= to; t++)
		if (skipped(lx, t))
			return "a directive inside the condition";
	for (t = from; t <= to; t = next_top(lx, t)) {
		if (is(lx, t, ";"))
			return "an init-statement before the condition";
		if ((is(lx, t, "=") || is(lx, t, "{")) &&
		    declares(lx, prev, pprev))
			return "the condition is a declaration";
		pprev = prev;
		prev = t;
	}
	return NULL;
}

static void add_wrap(struct plan *p, size_t stmt, size_t from, size_t to,
		     int expect)
{
	struct wrap *w;

	p->wrap = lp_xrealloc(p->wrap, (p->nwrap + 1) * sizeof(*p->wrap));
	w = &p->wrap[p->nwrap++];
	w->stmt = stmt;
	w->from = from;
	w->to = to;
	w->expect = expect;
	w->then = w->other = NULL;
}

/*
 * Decides @a and @b (either may be NULL: @a on the branch taken when the
 * condition holds, @b on the else) on the condition of @stmt.
 */
static void decide(struct plan *p, size_t stmt, struct attr *a,
		   struct attr *b, size_t from, size_t to, int expect,
		   const char *why)
{
	if (!why && a && b && a->likely == b->likely)
		why = "both branches carry the same attribute";
	if (!why)
		why = unwrappable(p->lx, from, to);
	if (!why) {
		add_wrap(p, stmt, from, to, expect);
		p->wrap[p->nwrap - 1].then = a;
		p->wrap[p->nwrap - 1].other = b;
	}
	if (a)
		a->why = why ? why : "";
	if (b)
		b->why = why ? why : "";
}

/* `if (c) [[a]] S else [[b]] S2` at token @i. */
static void plan_if(struct plan *p, size_t i)
{
	const struct lp_lexed *lx = p->lx;
	const char *why = NULL;
	struct attr *then, *other = NULL;
	size_t j = i + 1, close, end;

	while (is(lx, j, "constexpr") || is(lx, j, "consteval") ||
	       is(lx, j, "!")) {
		why = "if constexpr is decided while compiling";
		j++;
	}
	if (!is(lx, j, "(") || (close = lx->tok[j].match) == NONE)
		return;
	then = attr_at(p, close + 1);
	end = stmt_end(lx, then ? past(lx, close + 1) : close + 1);
	if (end != NONE && is(lx, end + 1, "else"))
		other = attr_at(p, end + 2);
	if (!then && !other)
		return;
	decide(p, i, then, other, j + 1, close - 1,
	       then ? then->likely : !other->likely, why);
}

/* `while (c) [[a]] S` and `for (i; c; n) [[a]] S` at token @i. */
static void plan_loop(struct plan *p, size_t i)
{
	const struct lp_lexed *lx = p->lx;
	struct attr *a;
	size_t close, t, semi[2], n = 0;

	if (!is(lx, i + 1, "(") || (close = lx->tok[i + 1].match) == NONE ||
	    !(a = attr_at(p, close + 1)))
		return;
	if (is(lx, i, "while")) {
		decide(p, i, a, NULL, i + 2, close - 1, a->likely, NULL);
		return;
	}
	for (t = i + 2; t < close && n < 2; t = next_top(lx, t))
		if (is(lx, t, ";"))
			semi[n++] = t;
	if (n < 2)
		decide(p, i, a, NULL, 1, 0, 0,
		       "a range-for has no condition");
	else
		decide(p, i, a, NULL, semi[0] + 1, semi[1] - 1, a->likely,
		       semi[0] + 1 == semi[1] ? "the loop has no condition"
					      : NULL);
}

/* [[likely]] or [[unlikely]] (spaces allowed) starting at token @i. */
static int attribute_hint(const struct lp_lexed *lx, size_t i)
{
	return i + 4 < lx->nr && lp_tok_is(lx, i, "[") &&
	       lp_tok_is(lx, i + 1, "[") &&
	       (lp_tok_is(lx, i + 2, "likely") ||
		lp_tok_is(lx, i + 2, "unlikely")) &&
	       lp_tok_is(lx, i + 3, "]") && lp_tok_is(lx, i + 4, "]");
}

static void find_attributes(struct plan *p)
{
	const struct lp_lexed *lx = p->lx;
	size_t i;

	for (i = 0; i < lx->nr; i++) {
		struct attr *a;

		if ((lx->tok[i].flags & LP_TOKF_DEAD) ||
		    lx->tok[i].kind != LP_TOK_PUNCT || !attribute_hint(lx, i))
			continue;
		p->attr = lp_xrealloc(p->attr,
				      (p->nattr + 1) * sizeof(*p->attr));
		a = &p->attr[p->nattr++];
		a->tok = i;
		a->likely = lp_tok_is(lx, i + 2, "likely");
		a->why = lx->tok[i].flags & LP_TOKF_PP
			 ? "in a macro's body" : NULL;
		i += 4;
	}
}

static const char unclaimed_case[] =
	"on a case label, which no one condition decides";

/* Why an attribute that no if or loop claimed is left as it is. */
static const char *unclaimed(const struct lp_lexed *lx, size_t i)
{
	size_t t;

	if (is(lx, i + 5, "case") || is(lx, i + 5, "default"))
		return unclaimed_case;
	for (t = i; t-- > 0 && !skipped(lx, t);) {
		if (is(lx, t, ";") || is(lx, t, "{") || is(lx, t, "}"))
			break;
		if (is(lx, t, "case") || is(lx, t, "default"))
			return unclaimed_case;
	}
	if (i > 0 && is(lx, i - 1, "do"))
		return "on a do-while body, which runs before the condition";
	return "on a statement that is no branch of a condition";
}

/* The attributes to blank and the conditions to wrap, as edits. */
static void add_edits(const struct plan *p, struct lp_copy_edits *e)
{
	const struct lp_lexed *lx = p->lx;
	size_t k, at;

	for (k = 0; k < p->nattr; k++) {
		const struct attr *a = &p->attr[k];

		if (!*a->why) {
			at = lx->tok[a->tok].start;
			lp_copy_edit_add(e, at, lx->tok[a->tok + 4].end - at,
					 NULL);
		}
	}
	for (k = 0; k < p->nwrap; k++) {
		lp_copy_edit_add(e, lx->tok[p->wrap[k].from].start, 0,
				 "__builtin_expect(!!(");
		lp_copy_edit_add(e, lx->tok[p->wrap[k].to].end, 0,
				 p->wrap[k].expect ? "), 1)" : "), 0)");
	}
}

/* Every attribute hint of @lx found, and decided. */
static void plan_all(struct plan *p, const struct lp_lexed *lx)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	p->lx = lx;
	find_attributes(p);
	for (i = 0; i < lx->nr && p->nattr; i++) {
		if (skipped(lx, i) || lx->tok[i].kind != LP_TOK_IDENT)
			continue;
		if (lp_tok_is(lx, i, "if"))
			plan_if(p, i);
		else if (lp_tok_is(lx, i, "while") || lp_tok_is(lx, i, "for"))
			plan_loop(p, i);
	}
	for (i = 0; i < p->nattr; i++)
		if (!p->attr[i].why)
			p->attr[i].why = unclaimed(lx, p->attr[i].tok);
}

void lp_attr_plan(struct lp_attr_plan *out, const struct lp_lexed *lx,
		  struct lp_copy_edits *e)
{
	struct plan p;
	size_t k;

	memset(out, 0, sizeof(*out));
	plan_all(&p, lx);
	for (k = 0; k < p.nattr; k++) {
		const struct attr *a = &p.attr[k];

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
}

static size_t attr_tok(const struct attr *a)
{
	return a ? a->tok : LP_NO_MATCH;
}

size_t lp_attr_sites(const struct lp_lexed *lx, struct lp_attr_site **sites)
{
	struct plan p;
	size_t k;

	plan_all(&p, lx);
	*sites = lp_xcalloc(p.nwrap + 1, sizeof(**sites));
	for (k = 0; k < p.nwrap; k++) {
		const struct wrap *w = &p.wrap[k];
		struct lp_attr_site *s = &(*sites)[k];

		s->stmt = w->stmt;
		s->from = w->from;
		s->to = w->to + 1;
		s->then = attr_tok(w->then);
		s->other = attr_tok(w->other);
		s->expect = w->expect;
		s->lo = lx->tok[w->from - 1].line;
		s->hi = lx->tok[w->to].last_line;
	}
	free(p.attr);
	free(p.wrap);
	return p.nwrap;
}
