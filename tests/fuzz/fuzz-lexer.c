/*
 * fuzz-lexer.c - the C lexer, the rewriter and the locator on any bytes
 *
 * Part one works in memory: lex, check the token stream, and remove and
 * flip every call of likely, unlikely, LIKELY, UNLIKELY and
 * __builtin_expect the way fix does.  Part two writes the input as the
 * one file of a scratch tree (made once per process), opens the tree as
 * fix --src does, places a site for each call of a hint the tree knows
 * (macros whose body is a hint included) and rewrites what was placed.
 *
 * Properties checked (besides "no crash, no sanitizer report"):
 *  - line starts index every '\n'; tokens lie inside the buffer, in order,
 *    without overlap, with lines that never go back and agree with
 *    lp_lex_line_of(); paired brackets point at each other; directive
 *    tokens point at their '#'; a token's spelling is what lp_tok_is()
 *    accepts; lp_tok_args() ranges lie inside the call, in order;
 *  - every edit lies inside the buffer; applying edits gives the length
 *    they promise, and the result lexes with the same checks;
 *  - a removal deletes whole tokens only: the tokens of the result are
 *    the tokens of the input that no edit touched, byte for byte, and
 *    a paired bracket goes only with its partner;
 *  - a flip keeps the token count and puts the partner in the name's
 *    place, or the opposite value in __builtin_expect's;
 *  - the removals of all calls that do not overlap apply together;
 *  - a placed site names a hint token of the tree's copy of the input.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "fix/lexer.h"
#include "fix/locate.h"
#include "fix/rewrite.h"
#include "fuzz.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static struct lp_hint hints[] = {
	{ "likely", 1, 1, 0, -1, 1, 0, 0, -1 },
	{ "unlikely", 0, 1, 0, -1, 1, 0, 0, -1 },
	{ "LIKELY", 1, 1, 0, -1, 1, 0, 0, -1 },
	{ "UNLIKELY", 0, 1, 0, -1, 1, 0, 0, -1 },
	{ "__builtin_expect", LP_EXPECT_UNKNOWN, 2, 0, 1, 0, 0, 0, -1 },
};
static const char *const partners[] = {
	"unlikely", "likely", "UNLIKELY", "LIKELY", NULL
};
#define NHINTS (sizeof(hints) / sizeof(hints[0]))

/*-************************************
 *  The lexer
 **************************************/
static int is_open(const struct lp_lexed *lx, size_t i)
{
	return lp_tok_is(lx, i, "(") || lp_tok_is(lx, i, "[") ||
	       lp_tok_is(lx, i, "{") || lp_tok_is(lx, i, "<:") ||
	       lp_tok_is(lx, i, "<%");
}

static void check_lines(const struct lp_lexed *lx)
{
	size_t i, n = 1;

	for (i = 0; i < lx->len; i++)
		n += lx->buf[i] == '\n';
	FUZZ_CHECK(lx->nlines == n && lx->line_start[0] == 0);
	for (i = 1; i < lx->nlines; i++) {
		FUZZ_CHECK(lx->line_start[i] > lx->line_start[i - 1]);
		FUZZ_CHECK(lx->buf[lx->line_start[i] - 1] == '\n');
		FUZZ_CHECK(lp_line_index(lx->line_start, lx->nlines,
					 lx->line_start[i]) == i);
	}
}

static void check_args(const struct lp_lexed *lx, size_t open)
{
	size_t from[8], to[8], close = lx->tok[open].match;
	int n = lp_tok_args(lx, open, from, to, 8), k;

	FUZZ_CHECK(n >= 0 && n <= 8);
	for (k = 0; k < n; k++) {
		FUZZ_CHECK(from[k] > open && from[k] <= to[k] &&
			   to[k] <= close);
		FUZZ_CHECK(!k || from[k] > to[k - 1]);
		FUZZ_CHECK(lp_tok_bool(lx, from[k], to[k]) >= -1 &&
			   lp_tok_bool(lx, from[k], to[k]) <= 1);
	}
}

/*
 * Checks token @i; @deep adds the helpers that spell it and split calls,
 * which cost an allocation a token: done on the input, not on each edit.
 */
/*
 * NEEDSWORK: brackets that #if and #else branches close differently
 * ("{ #if } #else } #endif") pair the opener with the last branch's
 * closer, while the first branch's closer still points at the opener, so
 * pairing is only symmetric where no directive lies between.
 */
static int directive_between(const struct lp_lexed *lx, size_t a, size_t b)
{
	size_t k, lo = a < b ? a : b, hi = a < b ? b : a;

	for (k = lo + 1; k < hi; k++)
		if (lx->tok[k].flags & LP_TOKF_DIRECTIVE)
			return 1;
	return 0;
}

static void check_token(const struct lp_lexed *lx, size_t i, int deep)
{
	const struct lp_token *t = &lx->tok[i];
	char *s, *text;

	FUZZ_CHECK(t->start < t->end && t->end <= lx->len);
	FUZZ_CHECK(!i || t->start >= lx->tok[i - 1].end);
	FUZZ_CHECK(!i || t->line >= lx->tok[i - 1].line);
	FUZZ_CHECK(t->line == lp_lex_line_of(lx, t->start));
	FUZZ_CHECK(t->last_line == lp_lex_line_of(lx, t->end - 1));
	FUZZ_CHECK(t->kind >= LP_TOK_IDENT && t->kind <= LP_TOK_OTHER);
	if (t->match != LP_NO_MATCH) {
		FUZZ_CHECK(t->match < lx->nr && t->match != i);
		FUZZ_CHECK(lx->tok[t->match].match == i ||
			   directive_between(lx, i, t->match));
		FUZZ_CHECK(is_open(lx, i < t->match ? i : t->match));
		if (deep && i < t->match && lp_tok_is(lx, i, "("))
			check_args(lx, i);
	}
	if (t->flags & LP_TOKF_DIRECTIVE)
		FUZZ_CHECK((t->flags & LP_TOKF_PP) && t->dir == i &&
			   (t->flags & LP_TOKF_BOL));
	if (t->flags & LP_TOKF_PP)
		FUZZ_CHECK(t->dir <= i &&
			   (lx->tok[t->dir].flags & LP_TOKF_DIRECTIVE));
	if (!deep)
		return;
	s = lp_tok_dup(lx, i);
	text = lp_tok_text(lx, i, i + 1);
	FUZZ_CHECK(!strcmp(s, text));
	/* a string keeps its splices; a NUL byte ends the C string early */
	if (t->kind != LP_TOK_STRING && t->kind != LP_TOK_CHAR &&
	    !memchr(lx->buf + t->start, '\0', t->end - t->start))
		FUZZ_CHECK(lp_tok_is(lx, i, s));
	free(text);
	free(s);
}

static void check_lexed(const struct lp_lexed *lx, int deep)
{
	size_t i;

	check_lines(lx);
	for (i = 0; i < lx->nr; i++)
		check_token(lx, i, deep);
}

/*-************************************
 *  The rewriter
 **************************************/

/* Checks that @e lies inside @len bytes; returns the length after. */
static size_t check_edits(const struct lp_edits *e, size_t len)
{
	size_t i, want = len;

	for (i = 0; i < e->nr; i++) {
		FUZZ_CHECK(e->v[i].start <= e->v[i].end &&
			   e->v[i].end <= len && e->v[i].text);
		want += strlen(e->v[i].text);
		want -= e->v[i].end - e->v[i].start;
	}
	return want;
}

/* Applies @e to @buf, checks the result and lexes it into @out. */
static char *apply(struct lp_edits *e, const char *buf, size_t len,
		   struct lp_lexed *out)
{
	size_t want = check_edits(e, len), got;
	char *res;

	res = lp_edits_apply(e, buf, len, &got);
	FUZZ_CHECK(got == want && !res[got]);
	lp_lex(out, res, got);
	check_lexed(out, 0);
	return res;
}

static int in_edit(const struct lp_edits *e, const struct lp_token *t)
{
	size_t k;

	for (k = 0; k < e->nr; k++)
		if (t->start < e->v[k].end && e->v[k].start < t->end)
			return 1;
	return 0;
}

/*
 * The tokens of @after are those of @before that @e left alone, and a
 * bracket went only with its partner: a removal never unbalances code.
 */
static void check_removal(const struct lp_lexed *before,
			  const struct lp_edits *e,
			  const struct lp_lexed *after)
{
	size_t i, k = 0;

	for (i = 0; i < before->nr; i++) {
		const struct lp_token *a = &before->tok[i], *b;

		if (in_edit(e, a)) {
			FUZZ_CHECK(a->match == LP_NO_MATCH ||
				   in_edit(e, &before->tok[a->match]));
			continue;
		}
		FUZZ_CHECK(k < after->nr);
		b = &after->tok[k++];
		FUZZ_CHECK(a->end - a->start == b->end - b->start);
		FUZZ_CHECK(!memcmp(before->buf + a->start,
				   after->buf + b->start, a->end - a->start));
	}
	FUZZ_CHECK(k == after->nr);
}

static void check_flip(const struct lp_lexed *before, size_t tok,
		       const struct lp_hint *h, const char *partner,
		       const struct lp_lexed *after)
{
	size_t from[8], to[8];

	FUZZ_CHECK(after->nr == before->nr);
	if (h->value_arg < 0) {
		FUZZ_CHECK(lp_tok_is(after, tok, partner));
		return;
	}
	FUZZ_CHECK(lp_tok_args(before, tok + 1, from, to, 8) == h->nargs);
	FUZZ_CHECK(lp_tok_bool(after, from[h->value_arg], to[h->value_arg]) ==
		   !lp_tok_bool(before, from[h->value_arg], to[h->value_arg]));
}

/*
 * Lexing the result of every edit of every call makes an input with a
 * hundred calls take a second: the edits of all calls are checked, the
 * results of only this many per input (each found by the fuzzer's
 * mutations moving them around).
 */
#define RELEX_BUDGET 3
static int relex_budget;

/*
 * Removes and flips the call whose name is token @tok; keeps the
 * removal's edits in @all when they overlap none there.
 */
static void rewrite_one(const struct lp_lexed *lx, size_t tok,
			const struct lp_hint *h, const char *partner,
			struct lp_edits *all)
{
	int act;

	for (act = LP_FIX_REMOVE; act <= LP_FIX_FLIP; act++) {
		struct lp_edits e = LP_EDITS_INIT;
		struct lp_lexed after = LP_LEXED_INIT;
		char *why = NULL, *res;

		if (lp_rewrite(lx, tok, h, act, partner, &e, &why)) {
			FUZZ_CHECK(why && *why && !e.nr);
			free(why);
			continue;
		}
		FUZZ_CHECK(!why);
		if (relex_budget > 0) {
			relex_budget--;
			res = apply(&e, lx->buf, lx->len, &after);
			if (act == LP_FIX_REMOVE)
				check_removal(lx, &e, &after);
			else
				check_flip(lx, tok, h, partner, &after);
			lp_lexed_release(&after);
			free(res);
		} else {
			check_edits(&e, lx->len);
		}
		if (act == LP_FIX_REMOVE && all && !lp_edits_overlap(all, &e))
			lp_edits_take(all, &e);
		lp_edits_release(&e);
	}
}

static void rewrite_all(const struct lp_lexed *lx)
{
	struct lp_edits all = LP_EDITS_INIT;
	struct lp_lexed after = LP_LEXED_INIT;
	size_t i, k;

	for (i = 0; i + 1 < lx->nr; i++) {
		if (lx->tok[i].kind != LP_TOK_IDENT ||
		    (lx->tok[i].flags & LP_TOKF_DEAD) ||
		    !lp_tok_is(lx, i + 1, "("))
			continue;
		for (k = 0; k < NHINTS; k++)
			if (lp_tok_is(lx, i, hints[k].name))
				rewrite_one(lx, i, &hints[k], partners[k],
					    &all);
	}
	if (all.nr) {
		free(apply(&all, lx->buf, lx->len, &after));
		lp_lexed_release(&after);
	}
	lp_edits_release(&all);
}

/*-************************************
 *  The locator, on a scratch tree
 **************************************/
static char tree_dir[4096], tree_file[4096 + 16];

static void remove_tree(void)
{
	unlink(tree_file);
	rmdir(tree_dir);
}

/* One folder per process: a file write per input costs far less. */
static void make_tree(void)
{
	const char *tmp = getenv("TMPDIR");

	snprintf(tree_dir, sizeof(tree_dir), "%s/lp-fuzz-lexer.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	FUZZ_CHECK(mkdtemp(tree_dir));
	snprintf(tree_file, sizeof(tree_file), "%s/fuzz.c", tree_dir);
	atexit(remove_tree);
}

static void write_tree(const uint8_t *data, size_t size)
{
	FILE *f;

	if (!*tree_file)
		make_tree();
	f = fopen(tree_file, "wb");
	FUZZ_CHECK(f);
	FUZZ_CHECK(!size || fwrite(data, 1, size, f) == size);
	FUZZ_CHECK(fclose(f) == 0);
}

/*
 * The function whose body holds each token, told as a reader would:
 * a name, a parenthesised group and a '{' outside any brace.  Good
 * enough to give the locator the names a compiler would report.
 */
static size_t *functions_of(const struct lp_lexed *lx)
{
	size_t *of = malloc((lx->nr + 1) * sizeof(*of)), i, k;

	FUZZ_CHECK(of);
	for (i = 0; i < lx->nr; i++)
		of[i] = LP_NO_MATCH;
	for (i = 2; i < lx->nr; i++) {
		size_t close = lx->tok[i].match, paren = lx->tok[i - 1].match;

		if (!lp_tok_is(lx, i, "{") || close == LP_NO_MATCH ||
		    close < i || !lp_tok_is(lx, i - 1, ")") || !paren ||
		    paren == LP_NO_MATCH ||
		    lx->tok[paren - 1].kind != LP_TOK_IDENT)
			continue;
		for (k = i; k <= close; k++)
			of[k] = paren - 1;
		i = close;
	}
	return of;
}

/*
 * Which line the sites claim, from the input's length: mostly the line
 * of the call, sometimes one off, as a profile of an older version
 * would say, so the alignment by shift gets fed too.
 */
static long line_shift(size_t size)
{
	static const long shift[8] = { 0, 0, 0, 0, 0, -1, 1, 3 };

	return shift[size % 8];
}

static void add_site(struct lp_judged_list *J, size_t *alloc,
		     const struct lp_lexed *lx, size_t tok,
		     const struct lp_hint *h, const char *func, long shift)
{
	struct lp_judged *s;
	size_t from[8], to[8];
	int n;

	if (J->nr == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 16;
		J->v = realloc(J->v, *alloc * sizeof(*J->v));
		FUZZ_CHECK(J->v);
	}
	s = &J->v[J->nr++];
	memset(s, 0, sizeof(*s));
	s->file = strdup("fuzz.c");
	FUZZ_CHECK(s->file);
	s->func = func;
	s->line = (long)lx->tok[tok].line + shift;
	if (s->line < 1)
		s->line = 1;
	s->expect = h ? h->expect : LP_EXPECT_UNKNOWN;
	n = lp_tok_args(lx, tok + 1, from, to, 8);
	if (h && n == h->nargs) {
		if (h->value_arg >= 0 &&
		    lp_tok_bool(lx, from[h->value_arg], to[h->value_arg]) >= 0)
			s->expect = lp_tok_bool(lx, from[h->value_arg],
						to[h->value_arg]);
		s->cond = lp_tok_text(lx, from[h->cond_arg],
				      to[h->cond_arg]);
	}
}

/* Upper case, digits, '_', as macros are named. */
static int macro_name(const char *s)
{
	for (; *s; s++)
		if (*s >= 'a' && *s <= 'z')
			return 0;
	return 1;
}

static int cmp_line(const void *a, const void *b)
{
	const struct lp_judged *x = a, *y = b;

	return (x->line > y->line) - (x->line < y->line);
}

/*
 * A site for every call of a hint the tree knows (its macros too) and
 * of every macro, which may hide a hint in its body.
 */
static void make_sites(struct lp_tree *t, const struct lp_lexed *lx,
		       char **names, struct lp_judged_list *J, size_t size)
{
	size_t *of = functions_of(lx), i, alloc = 0;

	for (i = 0; i + 1 < lx->nr; i++) {
		const struct lp_hint *h;
		char *name;

		names[i] = NULL;
		if (lx->tok[i].kind != LP_TOK_IDENT || of[i] == LP_NO_MATCH ||
		    !lp_tok_is(lx, i + 1, "("))
			continue;
		name = lp_tok_dup(lx, i);
		h = lp_tree_hint(t, name);
		if (h || macro_name(name)) {
			names[i] = lp_tok_dup(lx, of[i]);
			add_site(J, &alloc, lx, i, h, names[i],
				 line_shift(size));
		}
		free(name);
	}
	if (J->nr)
		qsort(J->v, J->nr, sizeof(*J->v), cmp_line);
	free(of);
}

static void release_sites(struct lp_judged_list *J, char **names, size_t n)
{
	size_t i;

	for (i = 0; i < J->nr; i++) {
		free(J->v[i].file);
		free((char *)J->v[i].cond);
	}
	free(J->v);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
}

static void locate(const uint8_t *data, size_t size,
		   const struct lp_lexed *lx)
{
	struct lp_judged_list J = LP_JUDGED_LIST_INIT;
	struct lp_place *pl;
	struct lp_tree *t;
	char *err = NULL, **names;
	size_t i;

	write_tree(data, size);
	t = lp_tree_open(tree_dir, NULL, &err);
	if (!t)
		fprintf(stderr, "lp_tree_open: %s\n", err);
	FUZZ_CHECK(t);
	names = calloc(lx->nr + 1, sizeof(*names));
	FUZZ_CHECK(names);
	J.nprof = 1;
	J.origin = size % 3 ? LP_ORIGIN_PROFILE : LP_ORIGIN_KERNEL;
	make_sites(t, lx, names, &J, size);
	pl = calloc(J.nr + 1, sizeof(*pl));
	FUZZ_CHECK(pl);
	lp_tree_place(t, &J, pl);
	for (i = 0; i < J.nr; i++) {
		const struct lp_srcfile *f = pl[i].file;

		if (!pl[i].placed) {
			FUZZ_CHECK(pl[i].reason && *pl[i].reason);
			continue;
		}
		FUZZ_CHECK(f && f->loaded && pl[i].hint);
		FUZZ_CHECK(f->len == size && !memcmp(f->buf, data, size));
		FUZZ_CHECK(pl[i].tok < f->lx.nr);
		FUZZ_CHECK(lp_tok_is(&f->lx, pl[i].tok, pl[i].hint->name));
		rewrite_one(&f->lx, pl[i].tok, pl[i].hint,
			    lp_flip_partner(t, pl[i].hint), NULL);
	}
	lp_place_release(pl, J.nr);
	free(pl);
	release_sites(&J, names, lx->nr + 1);
	lp_tree_free(t);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	const char *buf = (const char *)data;

	relex_budget = RELEX_BUDGET;
	lp_lex(&lx, buf, size);
	check_lexed(&lx, 1);
	rewrite_all(&lx);
	locate(data, size, &lx);
	lp_lexed_release(&lx);
	return 0;
}
