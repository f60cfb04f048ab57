/*
 * hints.c - where the hints are, from the preprocessed sources
 *
 * Every spelling of a hint (likely, LIKELY, expect(x, 1), a project's
 * own macro) ends in __builtin_expect, so the compiler's preprocessor
 * finds them all; its line markers say which file and line each came
 * from.  A macro call that spans lines is put on the line where it starts
 * (gcc) - the line an instrumented gcc build reports too.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/gotos.h"
#include "judge/judge.h"
#include "judge/parts.h"
#include "usage.h"

static void hint_release(struct lp_hint *h)
{
	size_t k;

	for (k = 0; k < h->nother_funcs; k++)
		free(h->other_funcs[k]);
	free(h->other_funcs);
	free(h->file);
	free(h->real);
	free(h->unit);
	free(h->unit_real);
	free(h->func);
	free(h->cond);
	free(h->rest);
	free(h->ret_line);
	free(h->exit_line);
	free(h->if_first);
	free(h->if_last);
	free(h->goto_first);
	free(h->goto_last);
}

void lp_hints_release(struct lp_hints *h)
{
	size_t i;

	if (!h)
		return;
	for (i = 0; i < h->nr; i++)
		hint_release(&h->v[i]);
	free(h->v);
	memset(h, 0, sizeof(*h));
}

/* A copy of [s, e) with runs of white space made one space, trimmed. */
static char *squeeze(const char *s, const char *e)
{
	char *d = lp_xmalloc((size_t)(e - s) + 1), *o = d;
	int space = 0;

	for (; s < e; s++) {
		/*
		 * A line marker inside the text (NULL from a system header
		 * is "# 82 \"x.c\" 3 4" lines around ((void *)0)) is no
		 * part of it, nor the newlines and the column's indent
		 * around it: the compiler's own text has none of them.
		 */
		if (*s == '\n') {
			const char *q = s + 1;

			while (q < e && (*q == ' ' || *q == '\t'))
				q++;
			if (q < e && *q == '#') {
				while (q < e && *q != '\n')
					q++;
				if (q == e)
					break;
				while (q + 1 < e &&
				       (q[1] == ' ' || q[1] == '\t'))
					q++;
				s = q;
				continue;
			}
		}
		if (*s == ' ' || *s == '\t' || *s == '\n') {
			space = o != d;
			continue;
		}
		if (space)
			*o++ = ' ';
		space = 0;
		*o++ = *s;
	}
	*o = '\0';
	return d;
}

/* "1", "(0)", "1L": the expected value, or LP_EXPECT_UNKNOWN. */
static long expect_value(const char *s)
{
	char *end;
	long v;

	while (*s == '(')
		s++;
	v = strtol(s, &end, 0);
	if (end == s)
		return LP_EXPECT_UNKNOWN;
	while (*end == 'L' || *end == 'l' || *end == 'U' || *end == 'u')
		end++;
	while (*end == ')')
		end++;
	return *end ? LP_EXPECT_UNKNOWN : v;
}

/*
 * The stated probability of a __builtin_expect_with_probability as the
 * preprocessor left it (0.9, 0.9f, (0.9)): 1 + millionths, or 0 when it
 * is no plain number in 0..1.
 */
static unsigned int prob_value(const char *s)
{
	char *end;
	double p;

	while (*s == '(')
		s++;
	p = strtod(s, &end);
	if (end == s)
		return 0;
	while (*end == 'f' || *end == 'F' || *end == 'l' || *end == 'L')
		end++;
	while (*end == ')')
		end++;
	if (*end || !(p >= 0.0 && p <= 1.0))
		return 0;
	return 1u + (unsigned int)(p * 1000000.0 + 0.5);
}

struct scan {
	struct lp_hints *out;
	const char *root;       /* real path of the source folder, with / */
	const char *unit;
	const char *dir;        /* where the preprocessor ran (NULL: here) */
	const char *file;       /* the line marker's file, real path */
	int in_tree;            /* ... under root, and not a system header */
	long line;
	/*
	 * The real path of every name the line markers gave: a unit names
	 * its few files thousands of times, once at each change of file.
	 */
	char **names, **reals;
	size_t nnames;
	/*
	 * The "return E;" statements of the function being scanned, with
	 * the condition of the if whose whole statement each is (0: none),
	 * and the hints it holds from @fn_hints on.
	 */
	struct ret {
		long line, if_first, if_last;
		char *text;
	} *rets;
	size_t nrets, rets_alloc, fn_hints;
	long if_first, if_last; /* the if whose ')' was the last token */
	int if_braced;          /* ... or its ')' and then a '{' */
	struct lp_gotos gotos;  /* ... its gotos and labels */
	char prev;              /* the last token ('a': a word, a literal) */
	long prev_line;         /* ... its line */
	int prev_else;          /* ... it was "else" */
};

/* @func among @o's functions, added if it is another. */
static void other_func(struct lp_hint *o, const char *func)
{
	size_t k;

	if (!strcmp(o->func, func))
		return;
	for (k = 0; k < o->nother_funcs; k++)
		if (!strcmp(o->other_funcs[k], func))
			return;
	o->other_funcs = lp_xrealloc(o->other_funcs, (o->nother_funcs + 1) *
				     sizeof(*o->other_funcs));
	o->other_funcs[o->nother_funcs++] = lp_xstrdup(func);
}

/*
 * The real path of marker name @name (NULL: none), kept in @sc; @name is
 * malloc'd, and kept or freed.
 */
static const char *real_of(struct scan *sc, char *name)
{
	size_t i;

	for (i = sc->nnames; i-- > 0;)
		if (!strcmp(sc->names[i], name)) {
			free(name);
			return sc->reals[i];
		}
	sc->names = lp_xrealloc(sc->names, (sc->nnames + 1) *
				sizeof(*sc->names));
	sc->reals = lp_xrealloc(sc->reals, (sc->nnames + 1) *
				sizeof(*sc->reals));
	sc->names[sc->nnames] = name;
	sc->reals[sc->nnames] = realpath(name, NULL);
	return sc->reals[sc->nnames++];
}

static void add_hint(struct scan *sc, const char *func, int loop,
		     const char *cond, const char *cond_end, const char *arg2,
		     const char *arg2_end, const char *arg3,
		     const char *arg3_end)
{
	struct lp_hint h;
	char *e2 = squeeze(arg2, arg2_end);
	size_t i;

	memset(&h, 0, sizeof(h));
	h.real = lp_xstrdup(sc->file);
	h.file = lp_xstrdup(sc->file + strlen(sc->root));
	h.unit = lp_xstrdup(sc->unit);
	h.unit_real = lp_xstrfmt("%s%s", sc->root, sc->unit);
	h.func = lp_xstrdup(func);
	h.cond = squeeze(cond, cond_end);
	h.line = sc->line;
	h.expect = expect_value(e2);
	h.loop = loop;
	free(e2);
	if (arg3) {
		char *e3 = squeeze(arg3, arg3_end);

		h.prob = prob_value(e3);
		free(e3);
		/* a number it cannot read: no way to read the jumps by */
		if (!h.prob)
			h.expect = LP_EXPECT_UNKNOWN;
		h.rare = h.prob && h.prob - 1 < 500000;
		if (h.rare && (h.expect == 0 || h.expect == 1))
			h.expect = !h.expect;
		else if (h.rare)
			h.expect = LP_EXPECT_UNKNOWN;
	}
	/* a header's hint is seen by every unit that includes it: once */
	for (i = 0; i < sc->out->nr; i++) {
		struct lp_hint *o = &sc->out->v[i];

		if (o->line == h.line && o->expect == h.expect &&
		    !strcmp(o->real, h.real) && !strcmp(o->cond, h.cond)) {
			other_func(o, h.func);
			hint_release(&h);
			return;
		}
	}
	if (sc->out->nr == sc->out->alloc) {
		sc->out->alloc = sc->out->alloc ? sc->out->alloc * 2 : 64;
		sc->out->v = lp_xrealloc(sc->out->v, sc->out->alloc *
					 sizeof(h));
	}
	sc->out->v[sc->out->nr++] = h;
}

/* "# 12 "file" 1 3": a line marker; sets where the next line comes from. */
static void line_marker(struct scan *sc, const char *p)
{
	char *end, *name;
	long n;

	n = strtol(p, &end, 10);
	while (*end == ' ')
		end++;
	if (end == p || *end != '"')
		return;
	name = (char *)++end;
	while (*end && *end != '"' && *end != '\n')
		end++;
	/* relative names are the preprocessor's, from where it ran */
	if (*name != '/' && sc->dir)
		name = lp_xstrfmt("%s/%.*s", sc->dir, (int)(end - name), name);
	else
		name = lp_xstrfmt("%.*s", (int)(end - name), name);
	sc->line = n - 1;       /* the marker's own newline adds one */
	sc->file = real_of(sc, name);
	/* flag 3 (on this line): a system header, never ours */
	sc->in_tree = sc->file &&
		      !strncmp(sc->file, sc->root, strlen(sc->root));
	while (*end && *end != '\n') {
		if (end[0] == ' ' && end[1] == '3' &&
		    (end[2] == ' ' || end[2] == '\n' || !end[2]))
			sc->in_tree = 0;
		end++;
	}
}

/*
 * The parentheses open around the text scanned, each marked when it
 * opened after while or for (a hint inside one is a loop's condition, or
 * in a for's init or step, which rarely hold a hint) or after if (the
 * hints added inside get the lines of the statement it guards).
 */
enum { KW_NONE, KW_LOOP, KW_IF };

struct parens {
	unsigned char kw[256];
	size_t hints_at[256];   /* for an if: the number of hints at '(' */
	const char *open_at[256];       /* ... and where it opened */
	long open_line[256];            /* ... on which line */
	/*
	 * ... whether nothing but "}", "{", "else" or a label comes before
	 * the if on its line: no code of another statement there
	 */
	unsigned char alone[256];
	size_t depth;
	int after;              /* the last token was while, for or if */
	int if_alone;           /* ... an if alone on its line so far */
	const char *text;       /* the unit: the functions a condition calls */
	const char *func;       /* ... and the function scanned */
};

/*
 * The statements guarded by ifs whose condition held a hint, open while
 * the scan goes through them: their first and last lines go to the hints
 * [from, to) of the if's condition.
 */
struct body {
	size_t from, to;
	enum { B_WAIT, B_BRACE, B_STMT } state;
	int brace;              /* the brace depth before the statement */
	size_t depth;           /* the paren depth (a simple statement) */
	long first, last;       /* the lines of its first and last tokens */
	long cond_first;        /* the line of the if's opening paren */
	long cond_last;         /* ... and of its closing one */
	int jumps;              /* holds a return, break, continue or goto */
};

struct bodies {
	struct body v[64];
	size_t nr;
};

static void paren_open(struct parens *ps, size_t nhints, const char *p,
		       long line)
{
	if (ps->depth < sizeof(ps->kw)) {
		ps->kw[ps->depth] = (unsigned char)ps->after;
		ps->hints_at[ps->depth] = nhints;
		ps->open_at[ps->depth] = p;
		ps->open_line[ps->depth] = line;
		ps->alone[ps->depth] = (unsigned char)ps->if_alone;
	}
	ps->depth++;
	ps->after = KW_NONE;
}

/*
 * A ')': an if's or a loop's condition ends.  Its hints are parts of it,
 * or the whole of it; an if's whole hint gets the statement it guards.
 */
static void paren_close(struct parens *ps, struct bodies *bs,
			struct lp_hints *out, size_t nhints, const char *p,
			long line)
{
	size_t d;
	int after;

	if (!ps->depth)
		return;
	d = --ps->depth;
	if (d >= sizeof(ps->kw) || ps->kw[d] == KW_NONE ||
	    ps->hints_at[d] == nhints)
		return;
	after = nhints == ps->hints_at[d] + 1 && nhints <= out->nr ?
		lp_judge_after_constants(ps->text, ps->func,
					 ps->open_at[d] + 1, p) : 0;
	if (after == LP_AFTER_PARAMETERS)
		out->v[nhints - 1].params = 1;
	if (!lp_judge_whole_condition(ps->open_at[d] + 1, p) && !after) {
		const char *rest;
		size_t i;
		int op;

		for (i = ps->hints_at[d]; i < nhints && i < out->nr; i++)
			out->v[i].part = 1;
		/* an if's first part: the statement is its reading too */
		if (ps->kw[d] != KW_IF || !ps->alone[d] ||
		    nhints != ps->hints_at[d] + 1 ||
		    nhints > out->nr ||
		    !(op = lp_judge_first_part(ps->open_at[d] + 1, p, &rest)))
			return;
		out->v[nhints - 1].first = (char)op;
		out->v[nhints - 1].rest = squeeze(rest, p);
	}
	/*
	 * A while's body is its statement as an if's is: a jump into it is
	 * taken when the condition held (a do-while's is the ';' after it,
	 * no lines: read as before).
	 */
	if (ps->kw[d] == KW_NONE || bs->nr == 64)
		return;
	memset(&bs->v[bs->nr], 0, sizeof(bs->v[0]));
	bs->v[bs->nr].from = ps->hints_at[d];
	bs->v[bs->nr].to = nhints;
	bs->v[bs->nr].cond_first = ps->open_line[d];
	bs->v[bs->nr].cond_last = line;
	bs->v[bs->nr++].state = B_WAIT;
}

static int keyword(const char *s, size_t n)
{
	if ((n == 5 && !memcmp(s, "while", 5)) ||
	    (n == 3 && !memcmp(s, "for", 3)))
		return KW_LOOP;
	return n == 2 && !memcmp(s, "if", 2) ? KW_IF : KW_NONE;
}

static int jump_keyword(const char *s, size_t n)
{
	return (n == 6 && !memcmp(s, "return", 6)) ||
	       (n == 5 && !memcmp(s, "break", 5)) ||
	       (n == 8 && !memcmp(s, "continue", 8)) ||
	       (n == 4 && !memcmp(s, "goto", 4));
}

/* The statements open now hold a jump: their code may be no code. */
static void mark_jumps(struct bodies *bs)
{
	size_t i;

	for (i = 0; i < bs->nr; i++)
		if (bs->v[i].state != B_WAIT)
			bs->v[i].jumps = 1;
}

static int in_loop_condition(const struct parens *ps)
{
	size_t i;

	for (i = 0; i < ps->depth && i < sizeof(ps->kw); i++)
		if (ps->kw[i] == KW_LOOP)
			return 1;
	return 0;
}

/*
 * Token @c (a letter for a word or a literal) at brace depth @brace
 * (before a '{' or '}' counts) and paren depth @depth: where the
 * statements of @bs start and end, by their first and last tokens (not
 * the braces).  A statement starting on its if's own line starts, for the
 * reading of jumps, on the next: the if's line is the condition's code.
 */
static void body_token(struct bodies *bs, struct lp_hints *out, char c,
		       int brace, size_t depth, long line)
{
	while (bs->nr) {
		struct body *b = &bs->v[bs->nr - 1];
		size_t i;

		if (b->state == B_WAIT) {
			b->brace = brace;
			b->depth = depth;
			b->state = c == '{' ? B_BRACE : B_STMT;
			b->first = c == '{' ? 0 : line;
			b->last = line;
			if (c != ';')
				return;
		} else if (b->state == B_BRACE) {
			/* the closing brace's line may be an else if's */
			if (c != '}' || brace != b->brace + 1) {
				if (!b->first)
					b->first = line;
				b->last = line;
				return;
			}
		} else if (!((c == ';' && brace == b->brace &&
			      depth == b->depth) ||
			     (c == '}' && brace == b->brace))) {
			b->last = line;
			return;
		} else if (c == ';') {
			b->last = line;
		}
		for (i = b->from; i < b->to && i < out->nr; i++) {
			struct lp_hint *h = &out->v[i];

			h->then_first = b->first > h->line ? b->first :
							     h->line + 1;
			h->then_last = b->first ? b->last : 0;
			h->cond_first = b->cond_first;
			h->cond_last = b->cond_last;
			h->then_apart = b->first > b->cond_last;
			h->then_jumps = b->jumps;
		}
		bs->nr--;
	}
}

/*
 * __builtin_expect's arguments from @p on (and a stated probability's,
 * @stated): a hint, when in the tree.
 */
static void expect_call(struct scan *sc, const char *p, const char *func,
			int loop, int stated)
{
	const char *q = p, *a1, *a2 = NULL, *a3 = NULL;
	int depth = 0;

	while (*q == ' ' || *q == '\n')
		q++;
	if (*q != '(')
		return;
	a1 = q + 1;
	for (; *q; q++) {
		if (*q == '"' || *q == '\'') {
			q = lp_judge_skip_literal(q) - 1;
		} else if (strchr("([{", *q)) {
			depth++;
		} else if (strchr(")]}", *q)) {
			if (!--depth)
				break;
		} else if (*q == ',' && depth == 1) {
			/* the last two commas split off value and number */
			if (stated && a2)
				a3 = a2;
			a2 = q + 1;
		}
	}
	if (!*q || !a2 || !sc->in_tree || (stated && !a3))
		return;
	if (stated)
		add_hint(sc, func, loop, a1, a3 - 1, a3, a2 - 1, a2, q);
	else
		add_hint(sc, func, loop, a1, a2 - 1, a2, q, NULL, NULL);
}

/* Is the statement whose ';' is @q its if's whole one ("{" it "}")? */
static int alone(const struct scan *sc, const char *q)
{
	if (!sc->if_braced)
		return 1;
	for (q++; *q == ' ' || *q == '\t' || *q == '\n' || *q == '\r'; q++)
		;
	return *q == '}';
}

/*
 * "return E;" at @p (past the word): noted with its text, and with the
 * if whose ')' (or '{') came just before it, whose whole statement it is.
 */
static void note_return(struct scan *sc, const char *p)
{
	const char *q = p;
	int depth = 0;
	struct ret *r;

	for (; *q && !(*q == ';' && !depth); q++) {
		if (*q == '"' || *q == '\'')
			q = lp_judge_skip_literal(q) - 1;
		else if (strchr("([{", *q))
			depth++;
		else if (strchr(")]}", *q) && --depth < 0)
			return;
	}
	if (!*q)
		return;
	if (sc->nrets == sc->rets_alloc) {
		sc->rets_alloc = sc->rets_alloc ? 2 * sc->rets_alloc : 16;
		sc->rets = lp_xrealloc(sc->rets, sc->rets_alloc *
				       sizeof(*sc->rets));
	}
	r = &sc->rets[sc->nrets++];
	r->line = sc->line;
	r->if_first = alone(sc, q) ? sc->if_first : 0;
	r->if_last = alone(sc, q) ? sc->if_last : 0;
	r->text = squeeze(p, q);
}

/* "goto L;" at @p (past the word), maybe the whole statement of an if */
static void goto_seen(struct scan *sc, const char *p)
{
	const char *q = strchr(p, ';');
	int whole = q && alone(sc, q);

	lp_gotos_goto(&sc->gotos, p, sc->line, whole ? sc->if_first : 0,
		      whole ? sc->if_last : 0);
}

/*
 * Word @s (@n bytes, @p past it) starting a statement and followed by a
 * ':' is a label (not "default", not a case's value, not the middle of
 * a ?:, which no statement starts with).
 */
static void note_label(struct scan *sc, const char *s, size_t n,
		       const char *p)
{
	while (*p == ' ' || *p == '\t')
		p++;
	if (*p != ':' || p[1] == ':' || !strchr(";{}:", sc->prev) ||
	    !sc->prev || (n == 7 && !memcmp(s, "default", 7)))
		return;
	lp_gotos_label(&sc->gotos, s, n, sc->line);
}

/* A ')' that closes an if's condition: a return may follow it. */
static void if_closing(struct scan *sc, const struct parens *ps)
{
	size_t d = ps->depth - 1;

	if (!ps->depth || d >= sizeof(ps->kw) || ps->kw[d] != KW_IF)
		return;
	sc->if_first = ps->open_line[d];
	sc->if_last = sc->line;
}

static void push_line(long **v, size_t *nr, long line)
{
	*v = lp_xrealloc(*v, (*nr + 1) * sizeof(**v));
	(*v)[(*nr)++] = line;
}

/*
 * The function's closing brace, on line @close: each hint of it whose
 * if's statement is one "return E;" learns where the returns of E are
 * and which ifs jump to them (lp_hint.ret_line).
 */
static void function_returns(struct scan *sc, long close)
{
	size_t i, k, m;

	for (i = sc->fn_hints; i < sc->out->nr; i++) {
		struct lp_hint *h = &sc->out->v[i];
		const char *text = NULL;

		for (k = 0; k < sc->nrets && !text && h->cond_first; k++)
			if (sc->rets[k].if_first == h->cond_first &&
			    sc->rets[k].if_last == h->cond_last &&
			    !strcmp(h->real, sc->file))
				text = sc->rets[k].text;
		for (m = 0; text && m < sc->nrets; m++) {
			const struct ret *r = &sc->rets[m];

			push_line(&h->exit_line, &h->nexit, r->line);
			if (strcmp(r->text, text))
				continue;
			push_line(&h->ret_line, &h->nret, r->line);
			if (!r->if_first)
				continue;
			h->if_first = lp_xrealloc(h->if_first, (h->nif + 1) *
						  sizeof(*h->if_first));
			h->if_last = lp_xrealloc(h->if_last, (h->nif + 1) *
						 sizeof(*h->if_last));
			h->if_first[h->nif] = r->if_first;
			h->if_last[h->nif++] = r->if_last;
		}
		if (text)
			push_line(&h->ret_line, &h->nret, close);
		if (close)
			lp_gotos_give(&sc->gotos, h, close);
	}
	lp_gotos_clear(&sc->gotos);
	for (k = 0; k < sc->nrets; k++)
		free(sc->rets[k].text);
	sc->nrets = 0;
	sc->fn_hints = sc->out->nr;
}

static void token_seen(struct scan *sc, char c, int is_else)
{
	sc->prev = c;
	sc->prev_line = sc->line;
	sc->prev_else = is_else;
}

/*
 * Does an if met now start the code of its line?  Code inlined from a
 * call on the line of its condition is then the condition's.
 */
static int if_alone(const struct scan *sc)
{
	return !sc->prev || sc->prev_line < sc->line || sc->prev_else ||
	       strchr("{}:", sc->prev);
}

static void scan_text(struct scan *sc, const char *p)
{
	int brace = 0, paren = 0;
	char func[256] = "", last_call[256] = "";
	struct parens ps;
	struct bodies bs;

	memset(&ps, 0, sizeof(ps));
	ps.text = p;
	ps.func = func;
	bs.nr = 0;

	while (*p) {
		if (*p == '\n') {
			sc->line++;
			p++;
			if (*p == '#') {
				const char *q = p + 1;

				while (*q == ' ')
					q++;
				if (!strncmp(q, "line", 4))
					q += 4;
				line_marker(sc, q);
				while (*p && *p != '\n')
					p++;
			}
			continue;
		}
		if (*p == '"' || *p == '\'') {
			body_token(&bs, sc->out, 'a', brace, ps.depth,
				   sc->line);
			token_seen(sc, 'a', 0);
			ps.after = KW_NONE;
			sc->if_first = sc->if_last = sc->if_braced = 0;
			p = lp_judge_skip_literal(p);
			continue;
		}
		if (lp_judge_ident_char(*p) && !(*p >= '0' && *p <= '9')) {
			const char *s = p;
			size_t n;

			body_token(&bs, sc->out, 'a', brace, ps.depth,
				   sc->line);
			while (lp_judge_ident_char(*p))
				p++;
			n = (size_t)(p - s);
			ps.after = keyword(s, n);
			if (ps.after == KW_IF)
				ps.if_alone = if_alone(sc);
			if (jump_keyword(s, n))
				mark_jumps(&bs);
			if (brace && n == 6 && !memcmp(s, "return", 6))
				note_return(sc, p);
			if (brace && n == 4 && !memcmp(s, "goto", 4))
				goto_seen(sc, p);
			if (brace && !paren)
				note_label(sc, s, n, p);
			token_seen(sc, 'a', n == 4 && !memcmp(s, "else", 4));
			sc->if_first = sc->if_last = sc->if_braced = 0;
			if ((n == 16 || n == 33) &&
			    !memcmp(s, n == 16 ? "__builtin_expect" :
				    "__builtin_expect_with_probability", n)) {
				expect_call(sc, p, func,
					    in_loop_condition(&ps), n == 33);
				/* lines inside are counted as we go on */
				continue;
			}
			if (!brace && !paren && n < sizeof(last_call)) {
				const char *q = p;

				while (*q == ' ')
					q++;
				if (*q == '(' && !(n > 2 && s[0] == '_' &&
						   s[1] == '_')) {
					memcpy(last_call, s, n);
					last_call[n] = '\0';
				}
			}
			continue;
		}
		if (*p != ' ' && *p != '\t' && *p != '\r') {
			body_token(&bs, sc->out, *p, brace, ps.depth,
				   sc->line);
			/* "if (c) { return E; }" is "if (c) return E;" */
			if (*p == '{' && sc->if_first && !sc->if_braced)
				sc->if_braced = 1;
			else
				sc->if_first = sc->if_last = sc->if_braced = 0;
			if (*p != '\n')
				token_seen(sc, *p, 0);
		}
		if (*p != '(' && *p != ' ' && *p != '\t')
			ps.after = KW_NONE;
		if (*p == '(') {
			paren++;
			paren_open(&ps, sc->out->nr, p, sc->line);
		} else if (*p == ')') {
			paren -= paren > 0;
			if_closing(sc, &ps);
			paren_close(&ps, &bs, sc->out, sc->out->nr, p,
				    sc->line);
		} else if (*p == '{' && !brace++) {
			memcpy(func, last_call, sizeof(func));
			function_returns(sc, 0);
		} else if (*p == '}' && brace && !--brace) {
			func[0] = '\0';
			function_returns(sc, sc->line);
		}
		else if (*p == ';' && !brace)
			last_call[0] = '\0';
		p++;
	}
}

/* What lp_judge_capture_all() hands each unit's text to. */
struct units {
	struct lp_hints *out;
	const char *root;
};

/*
 * Scans the preprocessed text of the unit whose path is @c->arg (its
 * command @c->argv, run in @c->dir) for hints.
 */
static int scan_unit(struct lp_capture *c, void *ctx)
{
	struct units *u = ctx;
	const char *path = c->arg;
	struct scan sc;
	size_t i;
	char *t;

	if (c->status) {
		if (c->status < 0)
			return -1;
		lp_judge_why_not(path, c->dir, c->argv);
		u->out->failed++;
		return 0;
	}
	memset(&sc, 0, sizeof(sc));
	sc.out = u->out;
	sc.root = u->root;
	sc.unit = path + strlen(u->root);
	sc.dir = c->dir;
	/* a leading newline lets the first line marker be seen as one */
	t = lp_xstrfmt("\n%s", c->out);
	sc.line = 0;
	sc.fn_hints = sc.out->nr;
	scan_text(&sc, t);
	free(t);
	for (i = 0; i < sc.nrets; i++)
		free(sc.rets[i].text);
	free(sc.rets);
	lp_gotos_clear(&sc.gotos);
	for (i = 0; i < sc.nnames; i++) {
		free(sc.names[i]);
		free(sc.reals[i]);
	}
	free(sc.names);
	free(sc.reals);
	return 0;
}

int lp_hints_scan_units(struct lp_hints *out, const char *root,
			struct lp_capture *c, size_t n)
{
	struct units u;
	size_t i;

	u.out = out;
	u.root = root;
	for (i = 0; i < n; i++)
		c[i].quiet = 1;
	return n ? lp_judge_capture_all(c, n, scan_unit, &u) : 0;
}
