/*
 * slots.c - the annotations of one function, each with the lines a
 * profile may name it by: what locate.c and history.c match sites to
 */
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/tree.h"
#include "fold.h"
#include "usage.h"

static struct lp_slot *push_slot(struct lp_slots *s)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->v = lp_xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	memset(&s->v[s->nr], 0, sizeof(s->v[0]));
	return &s->v[s->nr++];
}

void lp_slots_release(struct lp_slots *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->v[i].cond);
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

/*
 * The lines a compiler may give the hint at @i: gcc reports the line
 * where the outermost macro call starts, clang where it ends.
 */
static void line_range(const struct lp_tree *t, const struct lp_lexed *lx,
		       size_t i, size_t body_open, unsigned *lo,
		       unsigned *hi)
{
	size_t k, n;

	*lo = lx->tok[i].line;
	*hi = lx->tok[i].line;
	if (lp_tok_call(lx, i, lx->nr))
		*hi = lx->tok[lx->tok[i + 1].match].last_line;
	for (k = i; k-- > body_open + 1;) {
		size_t name;

		if (lx->tok[k].match == LP_NO_MATCH || lx->tok[k].match < i)
			continue;       /* does not enclose the hint */
		if (lp_tok_is(lx, k, "{"))
			break;
		if (!lp_tok_is(lx, k, "("))
			continue;
		name = k - 1;
		if (lx->tok[name].kind != LP_TOK_IDENT)
			continue;
		if (!lp_tok_macro_like(lx, name) &&
		    !lp_find_macro(t, lx->buf + lx->tok[name].start,
				   lx->tok[name].end - lx->tok[name].start,
				   &n))
			continue;
		*lo = lx->tok[name].line;
		if (lx->tok[lx->tok[k].match].last_line > *hi)
			*hi = lx->tok[lx->tok[k].match].last_line;
	}
}

static void direct_slot(const struct lp_tree *t, struct lp_srcfile *f,
			const struct lp_func *fn, size_t i,
			const struct lp_hint *h, struct lp_slots *out)
{
	const struct lp_lexed *lx = &f->lx;
	struct lp_slot *s = push_slot(out);
	size_t af[8], at[8];
	int n;

	s->file = f;
	s->call_file = f;
	s->fn = fn;
	s->off = lx->tok[i].start;
	s->hint = h;
	s->expect = lp_call_expect(lx, i, h);
	line_range(t, lx, i, fn->open, &s->lo, &s->hi);
	n = lp_tok_args(lx, i + 1, af, at, 8);
	if (n <= h->cond_arg)
		return;
	s->cond = lp_tok_text(lx, af[h->cond_arg], at[h->cond_arg]);
	/* as the spelling hands it on, and the profile records it */
	if (h->cond_pre || h->cond_post) {
		char *arg = s->cond;

		s->cond = lp_xstrfmt("%s%s%s", h->cond_pre ? h->cond_pre : "",
				     arg, h->cond_post ? h->cond_post : "");
		free(arg);
	}
}

/*
 * Is the token at @i a whole argument of a macro's call, GPRDEF(MINCOST)?
 * An X-macro calls it there: MINCOST's hints are used at that call (as
 * LuaJIT's register allocator does).
 */
static int xmacro_argument(const struct lp_tree *t, const struct lp_lexed *lx,
			   size_t i, size_t body_open)
{
	size_t k, n;

	if (i < 2 || i + 1 >= lx->nr ||
	    !(lp_tok_is(lx, i - 1, "(") || lp_tok_is(lx, i - 1, ",")) ||
	    !(lp_tok_is(lx, i + 1, ")") || lp_tok_is(lx, i + 1, ",")))
		return 0;
	/* the paren that encloses it, and the name before that paren */
	for (k = i; k-- > body_open + 1;) {
		if (!lp_tok_is(lx, k, "(") || lx->tok[k].match == LP_NO_MATCH ||
		    lx->tok[k].match < i)
			continue;
		return lx->tok[k - 1].kind == LP_TOK_IDENT &&
		       (lp_tok_macro_like(lx, k - 1) ||
			lp_find_macro(t, lx->buf + lx->tok[k - 1].start,
				      lx->tok[k - 1].end -
				      lx->tok[k - 1].start, &n));
	}
	return 0;
}

/*
 * The spellings of an attribute site, each beside its flip: the one
 * attribute as written, or the pair on an if and its else (one site).
 * Its expect is that of the attribute (or the pair's first) on its own
 * branch; the site's, on the condition, is the slot's.
 */
static const struct lp_hint attr_hints[] = {
	{ (char *)"[[unlikely]]", 0, 0, -1, -1, 0, 1, 0, -1, "[[likely]]",
	  NULL, NULL },
	{ (char *)"[[likely]]", 1, 0, -1, -1, 0, 1, 0, -1, "[[unlikely]]",
	  NULL, NULL },
	{ (char *)"[[unlikely]]/[[likely]]", 0, 0, -1, -1, 0, 1, 0, -1,
	  "[[likely]]/[[unlikely]]", NULL, NULL },
	{ (char *)"[[likely]]/[[unlikely]]", 1, 0, -1, -1, 0, 1, 0, -1,
	  "[[unlikely]]/[[likely]]", NULL, NULL },
};

/* One side's spelling, and its flip's, where a macro spells it. */
static void side_words(const struct lp_lexed *lx, size_t at, size_t last,
		       const char *flip, int likely, char **word,
		       const char **other)
{
	if (last != at) {
		*word = lp_xstrdup(likely ? "[[likely]]" : "[[unlikely]]");
		*other = likely ? "[[unlikely]]" : "[[likely]]";
		return;
	}
	*word = lp_tok_dup(lx, at);
	*other = flip;
}

/*
 * The spelling of a site on which a macro spells an attribute (UNLIKELY,
 * or UNLIKELY/LIKELY on an if and its else), with the names that flip
 * it: the tree keeps one of each, as the static ones above.
 */
static const struct lp_hint *macro_hint(struct lp_tree *t,
					const struct lp_lexed *lx,
					const struct lp_attr_site *a,
					int likely)
{
	char *w[2] = { NULL, NULL }, *name, *partner = NULL;
	const char *o[2] = { NULL, NULL };
	struct lp_hint *h;
	size_t k;
	/*
	 * `if NAME(c)` reads as a call; any other as the attribute, a
	 * label's too though it stands before its `case`
	 */
	int word = a->label || a->then == LP_NO_MATCH ||
		   a->then > a->from || a->other != LP_NO_MATCH;

	if (a->then != LP_NO_MATCH)
		side_words(lx, a->then, a->then_last, a->then_flip, likely,
			   &w[0], &o[0]);
	if (a->other != LP_NO_MATCH)
		side_words(lx, a->other, a->other_last, a->other_flip,
			   w[0] ? !likely : likely, &w[w[0] != NULL],
			   &o[w[0] != NULL]);
	name = w[1] ? lp_xstrfmt("%s/%s", w[0], w[1]) : lp_xstrdup(w[0]);
	if (o[0] && (!w[1] || o[1]))
		partner = w[1] ? lp_xstrfmt("%s/%s", o[0], o[1])
			       : lp_xstrdup(o[0]);
	free(w[0]);
	free(w[1]);
	for (k = 0; k < t->nattr_hints; k++)
		if (!strcmp(t->attr_hints[k]->name, name)) {
			free(name);
			free(partner);
			return t->attr_hints[k];
		}
	h = lp_xcalloc(1, sizeof(*h));
	*h = attr_hints[likely];
	h->name = name;
	h->partner = partner;
	if (word) {
		lp_word_spelling(name);
		lp_word_spelling(partner);
	}
	t->attr_hints = lp_xrealloc(t->attr_hints, (t->nattr_hints + 1) *
				    sizeof(*t->attr_hints));
	t->attr_hints[t->nattr_hints++] = h;
	return h;
}

/*
 * The attribute sites of @f, read once with cc's reading of the forms;
 * the tree's macros that spell one are read only where @f may use one.
 */
static const struct lp_attr_site *file_attrs(struct lp_tree *t,
					     struct lp_srcfile *f, size_t *n)
{
	if (!f->attrs_read) {
		const struct lp_attr_macros *am = NULL;

		if (lp_attr_macro_use_shape(&f->lx))
			am = lp_tree_attr_macros(t);
		f->nattrs = lp_attr_sites(&f->lx, am, &f->attrs);
		f->attrs_read = 1;
	}
	*n = f->nattrs;
	return f->attrs;
}

/*
 * An attribute site as a slot: the tree holds no call there, but the
 * attribute is what the profile counted, on its statement's lines, with
 * its condition's text.  The slot's byte is its first attribute's '['.
 */
static void attr_slot(struct lp_tree *t, struct lp_srcfile *f,
		      const struct lp_func *fn, const struct lp_attr_site *a,
		      struct lp_slots *out)
{
	const struct lp_lexed *lx = &f->lx;
	struct lp_slot *s = push_slot(out);
	size_t first = a->then != LP_NO_MATCH ? a->then : a->other;
	int pair = a->then != LP_NO_MATCH && a->other != LP_NO_MATCH;
	/* the first's own: the condition's expectation, or its opposite */
	int likely = first == a->then ? a->expect : !a->expect;

	s->file = f;
	s->call_file = f;
	s->fn = fn;
	s->off = lx->tok[first].start;
	s->hint = a->then_last == a->then || a->other_last == a->other ?
		  macro_hint(t, lx, a, likely) : &attr_hints[2 * pair + likely];
	s->expect = a->expect;
	s->lo = a->lo;
	s->hi = a->hi;
	s->cond = lp_tok_text(lx, a->from, a->to);
	s->attr = a;
}

void lp_function_slots(struct lp_tree *t, struct lp_srcfile *f,
		       const struct lp_func *fn, struct lp_slots *out)
{
	const struct lp_lexed *lx = &f->lx;
	size_t i, na, ka = 0;
	const struct lp_attr_site *attrs = file_attrs(t, f, &na);

	for (i = fn->open + 1; i < fn->close; i++) {
		const struct lp_hint *h;
		struct lp_amacro *m;
		struct lp_slot *s;
		size_t n, k;

		/* in source order among the calls */
		while (ka < na && attrs[ka].stmt < i)
			ka++;
		if (ka < na && attrs[ka].stmt == i)
			attr_slot(t, f, fn, &attrs[ka], out);
		if (!lp_tok_live(lx, i) || lx->tok[i].kind != LP_TOK_IDENT ||
		    !lp_tok_call_position(lx, i))
			continue;
		if ((h = lp_tok_hint(t, lx, i))) {
			if (lp_tok_call(lx, i, fn->close))
				direct_slot(t, f, fn, i, h, out);
			continue;
		}
		m = lp_find_macro(t, lx->buf + lx->tok[i].start,
				  lx->tok[i].end - lx->tok[i].start, &n);
		if (!m || (m->funclike && !lp_tok_call(lx, i, fn->close) &&
			   !xmacro_argument(t, lx, i, fn->open)))
			continue;
		for (k = 0; k < m->nt; k++) {
			s = push_slot(out);
			s->file = m->t[k].file;
			s->call_file = f;
			s->fn = fn;
			s->off = m->t[k].off;
			s->hint = m->t[k].hint;
			s->expect = m->t[k].expect;
			s->macro = m->name;
			s->ambiguous = n > 1;
			line_range(t, lx, i, fn->open, &s->lo, &s->hi);
			if (m->funclike)
				s->hi = lx->tok[lx->tok[i + 1].match].last_line;
		}
	}
}

