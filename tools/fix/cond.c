/*
 * cond.c - does the condition a profile recorded match the source's?
 *
 * A likelyprof profile records the condition as the compiler saw it in
 * __builtin_expect: after the macros around it expanded, so
 * "unlikely(config_debug)" may be recorded as "!!(false)" and
 * "likely(IS_ERR(p))" with IS_ERR's body in its place.  The comparison
 * is token-wise: the same tokens are the same condition, and a macro of
 * the tree in the source (an object-like name, or a function-like call
 * with its arguments) may stand for any balanced run of tokens in the
 * profile.  Spaces, comments and line breaks never matter.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/tree.h"
#include "fold.h"
#include "usage.h"

struct ctoks {
	struct lp_lexed lx;
	char *buf;
	size_t from, to;        /* the tokens compared */
};

static void ctoks_open(struct ctoks *c, const char *text)
{
	struct lp_lexed init = LP_LEXED_INIT;

	c->lx = init;
	c->buf = lp_xstrdup(text);
	lp_lex(&c->lx, c->buf, strlen(c->buf));
	c->from = 0;
	c->to = c->lx.nr;
}

static void ctoks_close(struct ctoks *c)
{
	lp_lexed_release(&c->lx);
	free(c->buf);
}

/* Strips "!!" and parentheses around all of it: what the macros added. */
static void strip(struct ctoks *c)
{
	for (;;) {
		if (c->to - c->from >= 2 && lp_tok_is(&c->lx, c->from, "!") &&
		    lp_tok_is(&c->lx, c->from + 1, "!")) {
			c->from += 2;
			continue;
		}
		if (c->to - c->from >= 2 && lp_tok_is(&c->lx, c->from, "(") &&
		    c->lx.tok[c->from].match == c->to - 1) {
			c->from++;
			c->to--;
			continue;
		}
		return;
	}
}

static int same_tok(const struct ctoks *a, size_t i, const struct ctoks *b,
		    size_t j)
{
	const struct lp_token *x = &a->lx.tok[i], *y = &b->lx.tok[j];

	return x->end - x->start == y->end - y->start &&
	       !memcmp(a->buf + x->start, b->buf + y->start,
		       x->end - x->start);
}

struct matcher {
	struct lp_tree *t;
	const struct ctoks *src, *prof;
	long budget;            /* steps left: the search is bounded */
	int expanded;
};

/* Is the source token @i a macro the tree defines? */
static int is_macro(struct matcher *m, size_t i)
{
	const struct lp_lexed *lx = &m->src->lx;
	char *name;
	int yes;

	if (lx->tok[i].kind != LP_TOK_IDENT)
		return 0;
	name = lp_tok_dup(lx, i);
	yes = lp_tree_defines(m->t, name);
	free(name);
	return yes;
}

/* A run of profile tokens [j, k) that is balanced in its brackets. */
static int balanced(const struct ctoks *p, size_t j, size_t k)
{
	size_t i;

	for (i = j; i < k; i++) {
		size_t mt = p->lx.tok[i].match;

		if (mt != LP_NO_MATCH && (mt < j || mt >= k))
			return 0;
	}
	return 1;
}

static int match_from(struct matcher *m, size_t i, size_t j)
{
	const struct ctoks *s = m->src, *p = m->prof;
	size_t end, k;

	if (--m->budget < 0)
		return 0;
	if (i == s->to || j == p->to)
		return i == s->to && j == p->to;
	if (same_tok(s, i, p, j) && match_from(m, i + 1, j + 1))
		return 1;
	if (!is_macro(m, i))
		return 0;
	/* the macro, with its arguments when it is called */
	end = i + 1;
	if (end < s->to && lp_tok_is(&s->lx, end, "(") &&
	    s->lx.tok[end].match != LP_NO_MATCH && s->lx.tok[end].match < s->to)
		end = s->lx.tok[end].match + 1;
	for (k = j + 1; k <= p->to; k++)
		if (balanced(p, j, k) && match_from(m, end, k)) {
			m->expanded = 1;
			return 1;
		}
	return 0;
}

int lp_cond_compare(struct lp_tree *t, const char *profile,
		    const char *source)
{
	struct ctoks s, p;
	struct matcher m;
	int r;

	if (!profile || !*profile || !source || !*source)
		return LP_COND_UNKNOWN;
	ctoks_open(&s, source);
	ctoks_open(&p, profile);
	strip(&s);
	strip(&p);
	m.t = t;
	m.src = &s;
	m.prof = &p;
	m.budget = 20000;
	m.expanded = 0;
	r = match_from(&m, s.from, p.from);
	ctoks_close(&s);
	ctoks_close(&p);
	if (!r)
		return LP_COND_DIFFERENT;
	return m.expanded ? LP_COND_EXPANDED : LP_COND_SAME;
}
