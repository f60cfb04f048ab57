/*
 * rewrite.c - remove or flip one annotation, as the seeds do
 */
#include <stdlib.h>
#include <string.h>

#include "fix/rewrite.h"
#include "usage.h"

void lp_edits_add(struct lp_edits *e, size_t start, size_t end,
		  const char *text)
{
	if (start == end && !*text)
		return;
	if (e->nr == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 8;
		e->v = lp_xrealloc(e->v, e->alloc * sizeof(*e->v));
	}
	e->v[e->nr].start = start;
	e->v[e->nr].end = end;
	e->v[e->nr].text = lp_xstrdup(text);
	e->nr++;
}

void lp_edits_release(struct lp_edits *e)
{
	size_t i;

	for (i = 0; i < e->nr; i++)
		free(e->v[i].text);
	free(e->v);
	e->v = NULL;
	e->nr = e->alloc = 0;
}

/* Does token @a belong with @b: both plain code, or one directive? */
static int same_context(const struct lp_lexed *lx, size_t a, size_t b)
{
	const struct lp_token *x = &lx->tok[a], *y = &lx->tok[b];

	if ((x->flags | y->flags) & LP_TOKF_DEAD)
		return 0;
	if ((x->flags & LP_TOKF_PP) != (y->flags & LP_TOKF_PP))
		return 0;
	return !(x->flags & LP_TOKF_PP) || x->dir == y->dir;
}

/*
 * Is the call [name, close] a whole operand, so that its condition can
 * stand there without parentheses?  @L and @R are the tokens around it.
 */
static int whole_operand(const struct lp_lexed *lx, size_t name, size_t close)
{
	static const char *const left[] = {
		"(", ",", "[", "?", "{", ";", "return", "=", "+=", "-=",
		"*=", "/=", "%=", "&=", "|=", "^=", "<<=", ">>=",
	};
	static const char *const right[] = { ")", ",", "]", ";", "}" };
	size_t L, R;

	if (!name || close + 1 >= lx->nr)
		return 0;
	L = name - 1;
	R = close + 1;
	if (!same_context(lx, L, name) || !same_context(lx, R, name))
		return 0;
	/* "#define F(x) likely(x)": the parameter list is no operand */
	if ((lx->tok[L].flags & LP_TOKF_PP) && lp_tok_is(lx, L, ")") &&
	    lx->tok[L].match != LP_NO_MATCH &&
	    lx->tok[L].match == lx->tok[L].dir + 3)
		return 0;
	if (lp_tok_is(lx, L, "(") && lx->tok[L].match == R)
		return 1;
	if (lp_tok_is(lx, L, "?") && lp_tok_is(lx, R, ":"))
		return 1;
	return lp_tok_is_any(lx, L, left, sizeof(left) / sizeof(left[0])) &&
	       lp_tok_is_any(lx, R, right, sizeof(right) / sizeof(right[0]));
}

/* The condition of an if or while: a "!!" there is redundant. */
static int controlling(const struct lp_lexed *lx, size_t name, size_t close)
{
	size_t L = name - 1;

	return name >= 2 && lp_tok_is(lx, L, "(") &&
	       lx->tok[L].match == close + 1 &&
	       (lp_tok_is(lx, L - 1, "if") || lp_tok_is(lx, L - 1, "while"));
}

static int has_top_comma(const struct lp_lexed *lx, size_t from, size_t to)
{
	size_t k;

	for (k = from; k < to; k++) {
		if (lp_tok_is(lx, k, ","))
			return 1;
		if (lx->tok[k].match != LP_NO_MATCH && lx->tok[k].match > k)
			k = lx->tok[k].match;
	}
	return 0;
}

static int blank(char c)
{
	return c == ' ' || c == '\t';
}

/* Is there a comment or a line break between tokens @from and @to? */
static int holds_more_than_blanks_between(const struct lp_lexed *lx,
					  size_t from, size_t to)
{
	size_t k, p;

	for (k = from; k < to; k++)
		for (p = lx->tok[k].end; p < lx->tok[k + 1].start; p++)
			if (!blank(lx->buf[p]))
				return 1;
	return 0;
}

/*
 * Deletes the tokens [from, to) that open a kept range (a name, '(',
 * "!!"), with the blanks after each.  When only blanks lie between them,
 * one edit covers the whole stretch up to @keep.
 */
static void delete_head(const struct lp_lexed *lx, size_t from, size_t to,
			struct lp_edits *e)
{
	size_t k, keep = lx->tok[to].start;

	if (!holds_more_than_blanks_between(lx, from, to)) {
		lp_edits_add(e, lx->tok[from].start, keep, "");
		return;
	}
	for (k = from; k < to; k++) {
		size_t end = lx->tok[k].end;

		while (end < lx->tok[k + 1].start && blank(lx->buf[end]))
			end++;
		lp_edits_add(e, lx->tok[k].start, end, "");
	}
}

/* Deletes the tokens [from, to) that close a kept range, blanks before. */
static void delete_tail(const struct lp_lexed *lx, size_t from, size_t to,
			struct lp_edits *e)
{
	size_t k, after = lx->tok[from - 1].end;

	if (!holds_more_than_blanks_between(lx, from - 1, to - 1)) {
		lp_edits_add(e, after, lx->tok[to - 1].end, "");
		return;
	}
	for (k = from; k < to; k++) {
		size_t start = lx->tok[k].start;

		while (start > lx->tok[k - 1].end && blank(lx->buf[start - 1]))
			start--;
		lp_edits_add(e, start, lx->tok[k].end, "");
	}
}

static int flip_value(const struct lp_lexed *lx, size_t from, size_t to,
		      struct lp_edits *e)
{
	int v = lp_tok_bool(lx, from, to);
	char *s;
	size_t k;

	if (v < 0 || to - from != 1)
		return -1;
	s = lp_tok_dup(lx, from);
	if (!strcmp(s, "true") || !strcmp(s, "false")) {
		lp_edits_add(e, lx->tok[from].start, lx->tok[from].end,
		    v ? "false" : "true");
	} else {
		for (k = 0; s[k] == '0' || s[k] == '1'; k++)
			;
		s[0] = v ? '0' : '1';
		memmove(s + 1, s + k, strlen(s + k) + 1);
		lp_edits_add(e, lx->tok[from].start, lx->tok[from].end, s);
	}
	free(s);
	return 0;
}

/*
 * Does a bracket inside the call pair with one outside it?  Where #if
 * branches close the call apart ("likely(a\n#ifdef X\n))\n#else\n))"),
 * the lexer pairs its '(' with the last branch's ')': an edit there would
 * leave the other branch's ')' behind.
 */
static int crosses_branches(const struct lp_lexed *lx, size_t open,
			    size_t close)
{
	size_t k;

	for (k = open + 1; k < close; k++)
		if (lx->tok[k].match != LP_NO_MATCH &&
		    (lx->tok[k].match <= open || lx->tok[k].match >= close))
			return 1;
	return 0;
}

/*
 * The arguments of the call whose name is token @tok, into @af/@at (8 at
 * most), and its closing parenthesis; -1 with *@why where it is no call
 * of @h that an edit can take apart.
 */
static int call_args(const struct lp_lexed *lx, size_t tok,
		     const struct lp_hint *h, size_t *af, size_t *at,
		     size_t *close, char **why)
{
	size_t open = tok + 1;
	int n;

	if (open >= lx->nr || !lp_tok_is(lx, open, "(") ||
	    lx->tok[open].match == LP_NO_MATCH) {
		*why = lp_xstrfmt("%s at line %u is not a call", h->name,
				  lx->tok[tok].line);
		return -1;
	}
	*close = lx->tok[open].match;
	if (crosses_branches(lx, open, *close)) {
		*why = lp_xstrfmt("%s() at line %u closes differently in "
				  "#if branches", h->name, lx->tok[tok].line);
		return -1;
	}
	n = lp_tok_args(lx, open, af, at, 8);
	if (n != h->nargs || af[h->cond_arg] == at[h->cond_arg]) {
		*why = lp_xstrfmt("%s() at line %u has %d argument%s, not %d",
				  h->name, lx->tok[tok].line, n,
				  n == 1 ? "" : "s", h->nargs);
		return -1;
	}
	return 0;
}

int lp_rewrite_prob(const struct lp_lexed *lx, size_t tok,
		    const struct lp_hint *h, const char *prob,
		    struct lp_edits *out, char **why)
{
	size_t af[8], at[8], close;

	if (call_args(lx, tok, h, af, at, &close, why))
		return -1;
	if (!h->stated || h->prob_arg < 0) {
		*why = lp_xstrfmt("%s() states its probability in its own "
				  "definition, which every use shares",
				  h->name);
		return -1;
	}
	if (af[h->prob_arg] == at[h->prob_arg] ||
	    (lx->tok[af[h->prob_arg]].flags & LP_TOKF_SPLICED) ||
	    (lx->tok[at[h->prob_arg] - 1].flags & LP_TOKF_SPLICED)) {
		*why = lp_xstrfmt("the probability of %s() at line %u is "
				  "not one plain argument", h->name,
				  lx->tok[tok].line);
		return -1;
	}
	lp_edits_add(out, lx->tok[af[h->prob_arg]].start,
	    lx->tok[at[h->prob_arg] - 1].end, prob);
	return 0;
}

int lp_rewrite(const struct lp_lexed *lx, size_t tok, const struct lp_hint *h,
	       enum lp_fix_action act, const char *partner,
	       struct lp_edits *out, char **why)
{
	struct lp_edits e = LP_EDITS_INIT;
	size_t af[8], at[8], open = tok + 1, close, a, b;

	if (call_args(lx, tok, h, af, at, &close, why))
		return -1;
	if (act == LP_FIX_FLIP) {
		if (h->value_arg >= 0) {
			if (flip_value(lx, af[h->value_arg], at[h->value_arg],
				       &e)) {
				*why = lp_xstrfmt("the value of %s() at line "
						  "%u is not 0 or 1", h->name,
						  lx->tok[tok].line);
				return -1;
			}
		} else if (!partner) {
			*why = lp_xstrfmt("%s has no opposite spelling in the "
					  "tree", h->name);
			return -1;
		} else if (lx->tok[tok].flags & LP_TOKF_SPLICED) {
			*why = lp_xstrfmt("%s at line %u is split by a "
					  "backslash-newline", h->name,
					  lx->tok[tok].line);
			return -1;
		} else {
			lp_edits_add(&e, lx->tok[tok].start, lx->tok[tok].end,
				     partner);
		}
		lp_edits_take(out, &e);
		return 0;
	}

	/* remove: keep the condition's tokens [a, b) */
	a = af[h->cond_arg];
	b = at[h->cond_arg];
	if (whole_operand(lx, tok, close)) {
		if (controlling(lx, tok, close) && b - a > 2 &&
		    lp_tok_is(lx, a, "!") && lp_tok_is(lx, a + 1, "!") &&
		    lp_tok_is(lx, a + 2, "(") && lx->tok[a + 2].match == b - 1)
			a += 2;
		if (b - a > 2 && lp_tok_is(lx, a, "(") &&
		    lx->tok[a].match == b - 1 &&
		    !has_top_comma(lx, a + 1, b - 1)) {
			a++;
			b--;
		}
		delete_head(lx, tok, a, &e);
		delete_tail(lx, b, close + 1, &e);
	} else if (b - a > 2 && lp_tok_is(lx, a, "(") &&
		   lx->tok[a].match == b - 1 && h->nargs == 1) {
		/* !likely((a)) -> !(a): the inner pair does the work */
		delete_head(lx, tok, a, &e);
		delete_tail(lx, b, close + 1, &e);
	} else {
		/* keep the call's own parentheses around the condition */
		delete_head(lx, tok, open, &e);
		if (b != close)
			delete_tail(lx, b, close, &e);
	}
	lp_edits_take(out, &e);
	return 0;
}

static int word_byte(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*
 * Deletes the attribute whose '[' is token @at with the blanks after
 * it, or, where only a line break follows, with the blanks before it:
 * `if (c) [[likely]] {` -> `if (c) {`, `else [[unlikely]]\n` ->
 * `else\n`; a line that holds nothing else goes with it.  Words it
 * stood between keep one space.
 */
static void delete_attr(const struct lp_lexed *lx, size_t at, size_t last,
			struct lp_edits *e)
{
	size_t start = lx->tok[at].start, end = lx->tok[last].end;

	while (end < lx->len && blank(lx->buf[end]))
		end++;
	if (end == lx->len || lx->buf[end] == '\n' || lx->buf[end] == '\r')
		while (start > 0 && blank(lx->buf[start - 1]))
			start--;
	/* alone on its line: the line goes, not left blank */
	if ((start == 0 || lx->buf[start - 1] == '\n') && end < lx->len) {
		end += lx->buf[end] == '\r';
		end += end < lx->len && lx->buf[end] == '\n';
	}
	lp_edits_add(e, start, end, start > 0 && end < lx->len &&
	    word_byte(lx->buf[start - 1]) && word_byte(lx->buf[end]) ? " "
								     : "");
}

int lp_rewrite_attr(const struct lp_lexed *lx, const struct lp_attr_site *a,
		    enum lp_fix_action act, struct lp_edits *out, char **why)
{
	struct lp_edits e = LP_EDITS_INIT;
	const size_t at[2] = { a->then, a->other };
	const size_t last[2] = { a->then_last, a->other_last };
	const char *flip[2] = { a->then_flip, a->other_flip };
	size_t k, w;

	for (k = 0; k < 2; k++) {
		if (at[k] == LP_NO_MATCH)
			continue;
		if (act == LP_FIX_REMOVE) {
			delete_attr(lx, at[k], last[k], &e);
			continue;
		}
		if (last[k] == at[k]) {
			/* a macro's name: its partner's, or no flip */
			if (!flip[k]) {
				*why = lp_xstrfmt("no macro of the tree spells "
						  "the other attribute beside "
						  "the one at line %u",
						  lx->tok[at[k]].line);
				lp_edits_release(&e);
				return -1;
			}
			lp_edits_add(&e, lx->tok[at[k]].start,
				     lx->tok[at[k]].end, flip[k]);
			continue;
		}
		w = at[k] + 2;
		if (lx->tok[w].flags & LP_TOKF_SPLICED) {
			*why = lp_xstrfmt("the attribute at line %u is split "
					  "by a backslash-newline",
					  lx->tok[w].line);
			lp_edits_release(&e);
			return -1;
		}
		lp_edits_add(&e, lx->tok[w].start, lx->tok[w].end,
		    lp_tok_is(lx, w, "likely") ? "unlikely" : "likely");
	}
	lp_edits_take(out, &e);
	return 0;
}

const char *lp_flip_partner(const struct lp_tree *t, const struct lp_hint *h)
{
	size_t i;

	if (h->attribute)
		return h->partner;
	if (h->value_arg >= 0 || (h->expect != 0 && h->expect != 1))
		return NULL;
	for (i = 0; i < LP_OPPOSITES; i++) {
		char *name = lp_opposite_name(h->name, i);
		const struct lp_hint *o = name ? lp_tree_hint(t, name) : NULL;

		free(name);
		if (o && o->expect == !h->expect && o->value_arg < 0 &&
		    o->nargs == h->nargs)
			return o->name;
	}
	return NULL;
}

int lp_edits_overlap(const struct lp_edits *have, const struct lp_edits *more)
{
	size_t i, k;

	for (i = 0; i < have->nr; i++)
		for (k = 0; k < more->nr; k++)
			if (more->v[k].start < have->v[i].end &&
			    have->v[i].start < more->v[k].end)
				return 1;
	return 0;
}

void lp_edits_take(struct lp_edits *to, struct lp_edits *from)
{
	size_t i;

	for (i = 0; i < from->nr; i++) {
		lp_edits_add(to, from->v[i].start, from->v[i].end,
			     from->v[i].text);
		free(from->v[i].text);
	}
	free(from->v);
	from->v = NULL;
	from->nr = from->alloc = 0;
}

static int cmp_edit(const void *pa, const void *pb)
{
	const struct lp_edit *a = pa, *b = pb;

	if (a->start != b->start)
		return a->start < b->start ? -1 : 1;
	return a->end < b->end ? -1 : a->end > b->end;
}

char *lp_edits_apply(struct lp_edits *e, const char *buf, size_t len,
		     size_t *newlen)
{
	size_t i, cap = len + 1, pos = 0, n = 0;
	char *out;

	if (e->nr)
		qsort(e->v, e->nr, sizeof(*e->v), cmp_edit);
	for (i = 0; i < e->nr; i++)
		cap += strlen(e->v[i].text);
	out = lp_xmalloc(cap);
	for (i = 0; i < e->nr; i++) {
		if (e->v[i].start < pos)
			lp_bug("overlapping edits at byte %zu", e->v[i].start);
		memcpy(out + n, buf + pos, e->v[i].start - pos);
		n += e->v[i].start - pos;
		memcpy(out + n, e->v[i].text, strlen(e->v[i].text));
		n += strlen(e->v[i].text);
		pos = e->v[i].end;
	}
	memcpy(out + n, buf + pos, len - pos);
	n += len - pos;
	out[n] = '\0';
	*newlen = n;
	return out;
}
