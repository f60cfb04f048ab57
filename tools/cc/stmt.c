/*
 * stmt.c - enough of C++'s statements to find where an attribute hint
 * stands: the end of a statement (to find an if's else, a switch's
 * body), and whether a condition can be put inside an expression of
 * ours.  attr.c and cases.c read the source the same way through it.
 */
#include <string.h>

#include "cc/stmt.h"
#include "fix/lexer.h"

#define NONE LP_NO_MATCH

struct lp_attr_mark *lp_attr_mark_at(struct lp_attr_mark *m, size_t n,
				     size_t tok)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (m[k].tok == tok)
			return &m[k];
	return NULL;
}

struct lp_attr_mark *lp_attr_mark_before(struct lp_attr_mark *m, size_t n,
					 size_t tok)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (m[k].last + 1 == tok && !m[k].funclike)
			return &m[k];
	return NULL;
}

static int skipped(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD);
}

static int is(const struct lp_lexed *lx, size_t i, const char *s)
{
	return i < lx->nr && lp_tok_is(lx, i, s);
}

/* After the bracket pair opened at @i, or NONE when it has no match. */
static size_t past(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].match == NONE ? NONE : lx->tok[i].match + 1;
}

int lp_stmt_skipped(const struct lp_lexed *lx, size_t i)
{
	return skipped(lx, i);
}

int lp_stmt_is(const struct lp_lexed *lx, size_t i, const char *s)
{
	return is(lx, i, s);
}

size_t lp_stmt_past(const struct lp_lexed *lx, size_t i)
{
	return past(lx, i);
}

/* The end of `if [constexpr] (c) S [else S]` starting at token @i. */
static size_t if_end(const struct lp_lexed *lx, size_t i)
{
	size_t j = i + 1, end;

	while (is(lx, j, "constexpr") || is(lx, j, "consteval") ||
	       is(lx, j, "!"))
		j++;
	if (is(lx, j, "("))
		j = past(lx, j);
	end = j == NONE ? NONE : lp_stmt_end(lx, j);
	if (end != NONE && is(lx, end + 1, "else"))
		end = lp_stmt_end(lx, end + 2);
	return end;
}

/*
 * The last token of the statement that starts at token @i, or NONE
 * where it cannot be told (the block closes first, a directive splits
 * it): enough of C++'s statements to find the `else` of an `if`.
 */
size_t lp_stmt_end(const struct lp_lexed *lx, size_t i)
{
	size_t t;

	if (i >= lx->nr || skipped(lx, i))
		return NONE;
	if (is(lx, i, "[") && is(lx, i + 1, "["))
		return past(lx, i) == NONE ? NONE
					   : lp_stmt_end(lx, past(lx, i));
	if (is(lx, i, "{"))
		return lx->tok[i].match;
	if (is(lx, i, "if"))
		return if_end(lx, i);
	if (is(lx, i, "while") || is(lx, i, "for") || is(lx, i, "switch"))
		return is(lx, i + 1, "(") && past(lx, i + 1) != NONE
		       ? lp_stmt_end(lx, past(lx, i + 1)) : NONE;
	if (is(lx, i, "do")) {
		t = lp_stmt_end(lx, i + 1);
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
		return lp_stmt_end(lx, t + 1);
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
size_t lp_stmt_next_top(const struct lp_lexed *lx, size_t i)
{
	const struct lp_token *k = &lx->tok[i];

	return k->match != NONE && k->match > i ? k->match + 1 : i + 1;
}

static int is_word(const struct lp_lexed *lx, size_t i)
{
	static const char *const ops[] = {
		"and", "or", "not", "xor", "bitand", "bitor", "compl",
		"not_eq", "and_eq", "or_eq", "xor_eq", "return", "sizeof",
		"new", "delete", "throw", "co_await", "co_yield"
	};

	return lx->tok[i].kind == LP_TOK_IDENT &&
	       !lp_tok_is_any(lx, i, ops, sizeof(ops) / sizeof(ops[0]));
}

/*
 * Whether the `=` or `{` (@brace) after @prev and @pprev at its depth
 * (NONE where there is none) declares what it initialises: `T x = e`,
 * `T *x = e`, `T x{e}`, `auto [a, b] = e`, but not `x = e`, `*p = e`,
 * `a.b = e` or `S{1}`.  Before a `{`, `a & b{1}` is an expression as
 * well as a declaration: read as the first, so that a condition is never
 * rewritten into what does not compile.
 */
static int declares(const struct lp_lexed *lx, size_t prev, size_t pprev,
		    int brace)
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
	return !brace && (is(lx, pprev, "*") || is(lx, pprev, "&") ||
		is(lx, pprev, "&&")) && pprev > 0 &&
	       (is_word(lx, pprev - 1) || is(lx, pprev - 1, ">"));
}

/*
 * The condition between an if's or a switch's parentheses, tokens
 * [from, to]: past an init-statement, and the name it declares when it
 * is a declaration (`T x = e`, `T *x{e}`).  A declared name is tested
 * after the declaration, as `if (T x = e; x)` does.
 */
void lp_stmt_condition(const struct lp_lexed *lx, size_t from, size_t to,
		       struct lp_stmt_cond *c)
{
	static const char binding[] = "the condition is a structured binding";
	size_t t, prev = NONE, pprev = NONE;

	c->from = from;
	c->to = to;
	c->name = NONE;
	c->init = NONE;
	c->why = NULL;
	if (from > to) {
		c->why = "no condition";
		return;
	}
	for (t = from; t <= to; t++)
		if (skipped(lx, t)) {
			c->why = "a directive inside the condition";
			return;
		}
	for (t = from; t <= to; t = lp_stmt_next_top(lx, t))
		if (is(lx, t, ";"))
			c->from = t + 1;
	if (c->from > to) {
		c->why = "no condition";
		return;
	}
	for (t = c->from; t <= to; t = lp_stmt_next_top(lx, t)) {
		if ((is(lx, t, "=") || is(lx, t, "{")) &&
		    declares(lx, prev, pprev, is(lx, t, "{"))) {
			c->name = prev;
			if (is(lx, prev, "]"))
				c->why = binding;
			else if (c->from != from)
				c->init = c->from - 1;
			return;
		}
		/* a bracket pair is its closer: `auto [a, b] =` */
		pprev = prev;
		prev = lx->tok[t].match != NONE && lx->tok[t].match > t ?
		       lx->tok[t].match : t;
	}
}

const char *lp_stmt_unwrappable(const struct lp_lexed *lx, size_t from,
				size_t to)
{
	struct lp_stmt_cond c;

	lp_stmt_condition(lx, from, to, &c);
	if (c.why)
		return c.why;
	if (c.from != from)
		return "an init-statement before the condition";
	if (c.name != NONE)
		return "the condition is a declaration";
	return NULL;
}
