/*
 * tree.c - the source tree: walking it safely, reading its files, and
 * learning its spellings of __builtin_expect and its annotated macros
 * (a scan of #define lines)
 *
 * The tree is walked without following symbolic links; files are opened
 * with O_NOFOLLOW and checked to resolve inside the tree, and a path from
 * a profile is only ever compared with the walked names, never opened.
 */
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cc/hintmacro.h"
#include "fix/tree.h"
#include "fold.h"
#include "usage.h"

/*-************************************
 *  The tree
 **************************************/

static struct lp_tree *walking;
static size_t walk_root_len;

static int walk_one(const char *path, const struct stat *st, int flag,
		    struct FTW *ftw)
{
	struct lp_tree *t = walking;
	struct lp_srcfile *f;
	const char *base = path + ftw->base;

	(void)st;
	if (flag == FTW_D && ftw->level > 0 &&
	    (!strcmp(base, ".git") || !strcmp(base, ".hg") ||
	     !strcmp(base, ".svn")))
		return FTW_SKIP_SUBTREE;
	if (flag != FTW_F && flag != FTW_SL && flag != FTW_SLN)
		return FTW_CONTINUE;
	if (t->nfiles == t->afiles) {
		t->afiles = t->afiles ? 2 * t->afiles : 256;
		t->files = lp_xrealloc(t->files, t->afiles * sizeof(*t->files));
	}
	f = &t->files[t->nfiles++];
	memset(f, 0, sizeof(*f));
	f->rel = lp_xstrdup(path + walk_root_len + 1);
	f->is_link = flag != FTW_F;
	return FTW_CONTINUE;
}

const char *lp_tree_root(const struct lp_tree *t)
{
	return t->real;
}

char *lp_tree_path(const struct lp_tree *t, const struct lp_srcfile *f)
{
	size_t n = strlen(t->src);

	if (!strcmp(t->src, "."))
		return lp_xstrdup(f->rel);
	return lp_xstrfmt("%s%s%s", t->src,
			  n && t->src[n - 1] == '/' ? "" : "/", f->rel);
}

void lp_srcfile_unload(struct lp_srcfile *f)
{
	size_t i;

	lp_lexed_release(&f->lx);
	for (i = 0; i < f->nfuncs; i++)
		free(f->funcs[i].name);
	free(f->funcs);
	free(f->buf);
	free(f->attrs);
	f->attrs = NULL;
	f->nattrs = 0;
	f->attrs_read = 0;
	f->funcs = NULL;
	f->nfuncs = 0;
	f->buf = NULL;
	f->loaded = 0;
}

/*
 * Reads a file of the tree.  O_NOFOLLOW refuses a link in the last
 * component; realpath() then proves no folder on the way was one that
 * leads out (the tree may have changed since the walk).
 */
int lp_read_tree_file(struct lp_tree *t, struct lp_srcfile *f, char **err)
{
	char *path = lp_xstrfmt("%s/%s", t->real, f->rel);
	char *real = NULL;
	size_t n = strlen(t->real), cap = 8192;
	int fd;
	ssize_t got;

	if (f->is_link) {
		*err = lp_xstrfmt("'%s' is a symbolic link; not following it",
				  f->rel);
		goto fail;
	}
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0) {
		*err = lp_xstrfmt("cannot open '%s': %s", f->rel,
				  strerror(errno));
		goto fail;
	}
	real = realpath(path, NULL);
	if (!real || strncmp(real, t->real, n) || real[n] != '/' ||
	    fstat(fd, &f->st) || !S_ISREG(f->st.st_mode)) {
		*err = lp_xstrfmt("'%s' is not a regular file inside the tree",
				  f->rel);
		close(fd);
		goto fail;
	}
	f->buf = lp_xmalloc(cap);
	f->len = 0;
	while ((got = read(fd, f->buf + f->len, cap - f->len)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			*err = lp_xstrfmt("cannot read '%s': %s", f->rel,
					  strerror(errno));
			close(fd);
			free(f->buf);
			f->buf = NULL;
			goto fail;
		}
		f->len += (size_t)got;
		if (f->len == cap) {
			cap *= 2;
			f->buf = lp_xrealloc(f->buf, cap);
		}
	}
	close(fd);
	f->buf[f->len] = '\0';
	free(path);
	free(real);
	return 0;
fail:
	free(path);
	free(real);
	return -1;
}

static void lex_loaded(struct lp_srcfile *f)
{
	lp_lex(&f->lx, f->buf, f->len);
	lp_find_functions(f);
	f->loaded = 1;
}

int lp_srcfile_load(struct lp_tree *t, struct lp_srcfile *f, char **err)
{
	if (f->loaded)
		return 0;
	if (lp_read_tree_file(t, f, err))
		return -1;
	if (memchr(f->buf, '\0', f->len)) {
		*err = lp_xstrfmt("'%s' is a binary file", f->rel);
		free(f->buf);
		f->buf = NULL;
		return -1;
	}
	lex_loaded(f);
	return 0;
}

/*-************************************
 *  Spellings and annotated macros
 **************************************/

static const char *const default_hints[] = {
	"likely", "unlikely", "LIKELY", "UNLIKELY"
};

const struct lp_hint *lp_tree_hint(const struct lp_tree *t,
				   const char *name)
{
	size_t i;

	for (i = 0; i < t->nhints; i++)
		if (!strcmp(t->hints[i].name, name))
			return &t->hints[i];
	return NULL;
}

const struct lp_hint *lp_tok_hint(const struct lp_tree *t,
				  const struct lp_lexed *lx, size_t i)
{
	size_t k;

	if (lx->tok[i].kind != LP_TOK_IDENT)
		return NULL;
	for (k = 0; k < t->nhints; k++)
		if (lp_tok_is(lx, i, t->hints[k].name))
			return &t->hints[k];
	return NULL;
}

static struct lp_hint *add_hint(struct lp_tree *t, const char *name,
				long expect, int nargs, int cond_arg,
				int value_arg, int is_default)
{
	struct lp_hint *h;

	if (t->nhints == t->ahints) {
		t->ahints = t->ahints ? 2 * t->ahints : 16;
		t->hints = lp_xrealloc(t->hints, t->ahints * sizeof(*t->hints));
	}
	h = &t->hints[t->nhints++];
	h->name = lp_xstrdup(name);
	h->expect = expect;
	h->nargs = nargs;
	h->cond_arg = cond_arg;
	h->value_arg = value_arg;
	h->is_default = is_default;
	h->attribute = 0;
	h->stated = 0;
	h->prob_arg = -1;
	h->cond_pre = h->cond_post = NULL;
	return h;
}

/* The index of parameter @i's name among the define's, or -1. */
static int param_index(const struct lp_lexed *lx, const struct lp_define *d,
		       size_t i)
{
	size_t k, close;
	int n = 0;

	if (!d->funclike || lx->tok[i].kind != LP_TOK_IDENT)
		return -1;
	close = lx->tok[d->params].match;
	for (k = d->params + 1; k < close; k++) {
		if (lx->tok[k].kind != LP_TOK_IDENT)
			continue;
		if (lx->tok[k].end - lx->tok[k].start ==
		    lx->tok[i].end - lx->tok[i].start &&
		    !memcmp(lx->buf + lx->tok[k].start,
			    lx->buf + lx->tok[i].start,
			    lx->tok[i].end - lx->tok[i].start))
			return n;
		n++;
	}
	return -1;
}

/* The token of the first parameter named in tokens [from, to), or @to. */
static size_t first_param_tok(const struct lp_lexed *lx,
			      const struct lp_define *d, size_t from,
			      size_t to)
{
	for (; from < to; from++)
		if (param_index(lx, d, from) >= 0)
			return from;
	return to;
}

/* The first parameter named in tokens [from, to), or -1. */
static int first_param(const struct lp_lexed *lx, const struct lp_define *d,
		       size_t from, size_t to)
{
	size_t at = first_param_tok(lx, d, from, to);

	return at < to ? param_index(lx, d, at) : -1;
}

/* @a, @b and @c (each may be NULL) joined, malloc'd; NULL when empty. */
static char *join3(const char *a, const char *b, const char *c)
{
	char *s = lp_xstrfmt("%s%s%s", a ? a : "", b ? b : "", c ? c : "");

	if (!*s) {
		free(s);
		return NULL;
	}
	return s;
}

/*
 * The text around the condition's parameter in the argument [@from,
 * @to) that a hint's spelling hands on, inside what @inner (or NULL)
 * writes around that argument in turn: "false || (" and ")" for
 * `__builtin_expect(false || (x), false)`.  NULL for none.
 */
static void cond_around(const struct lp_lexed *lx, const struct lp_define *d,
			size_t from, size_t to, const struct lp_hint *inner,
			char **pre, char **post)
{
	size_t at = first_param_tok(lx, d, from, to);
	char *before = NULL, *after = NULL;

	if (at > from)
		before = lp_tok_text(lx, from, at);
	if (at + 1 < to)
		after = lp_tok_text(lx, at + 1, to);
	*pre = join3(inner ? inner->cond_pre : NULL, before,
		     before ? " " : NULL);
	*post = join3(after ? " " : NULL, after,
		      inner ? inner->cond_post : NULL);
	free(before);
	free(after);
}

/*
 * A spelling of __builtin_expect: a function-like macro whose body, bare
 * or in parentheses, is one call of a known spelling on its parameter.
 */
/* Tokens [*@from, *@to) without the parentheses around all of them. */
static void unparen(const struct lp_lexed *lx, size_t *from, size_t *to)
{
	while (*to - *from >= 2 && lp_tok_is(lx, *from, "(") &&
	       lx->tok[*from].match == *to - 1) {
		++*from;
		--*to;
	}
}

/*
 * The expected value of a hint's value argument [@vf, @vt): 1 or 0, or
 * LP_EXPECT_UNKNOWN with *@value the parameter of @d that gives it
 * (libecb's __builtin_expect ((expr),(value))); -1 when it is neither.
 */
static long value_arg(const struct lp_lexed *lx, const struct lp_define *d,
		      size_t vf, size_t vt, int *value)
{
	long expect = lp_tok_bool(lx, vf, vt);

	if (expect >= 0)
		return expect;
	unparen(lx, &vf, &vt);
	if (vt - vf != 1 || (*value = param_index(lx, d, vf)) < 0)
		return -1;
	return LP_EXPECT_UNKNOWN;
}

/* The parameter that is all of tokens [@from, @to), or -1. */
static int prob_param(const struct lp_lexed *lx, const struct lp_define *d,
		      size_t from, size_t to)
{
	unparen(lx, &from, &to);
	return to - from == 1 ? param_index(lx, d, from) : -1;
}

static int define_hint(struct lp_tree *t, const struct lp_lexed *lx,
		       const struct lp_define *d)
{
	size_t from = d->body, to = d->end, af[3], at[3];
	const struct lp_hint *inner;
	struct lp_hint *h;
	char *name;
	int n, cond, value = -1, prob = -1, stated = 0;
	long expect;
	char *pre = NULL, *post = NULL;

	if (!d->funclike || !d->nparams)
		return 0;
	unparen(lx, &from, &to);
	if (to - from < 3 || !lp_tok_is(lx, from + 1, "(") ||
	    lx->tok[from + 1].match != to - 1)
		return 0;
	name = lp_tok_dup(lx, d->name);
	if (lp_tree_hint(t, name)) {
		free(name);
		return 0;
	}
	if (lp_tok_is(lx, from, "__builtin_expect")) {
		n = lp_tok_args(lx, from + 1, af, at, 3);
		if (n != 2)
			goto no;
		cond = first_param(lx, d, af[0], at[0]);
		expect = value_arg(lx, d, af[1], at[1], &value);
		if (expect == -1)
			goto no;
		cond_around(lx, d, af[0], at[0], NULL, &pre, &post);
	} else if ((inner = lp_tok_hint(t, lx, from))) {
		n = lp_tok_args(lx, from + 1, af, at, 3);
		if (n != inner->nargs)
			goto no;
		cond = first_param(lx, d, af[inner->cond_arg],
				   at[inner->cond_arg]);
		cond_around(lx, d, af[inner->cond_arg], at[inner->cond_arg],
			    inner, &pre, &post);
		expect = inner->expect;
		if (inner->value_arg >= 0) {
			expect = value_arg(lx, d, af[inner->value_arg],
					   at[inner->value_arg], &value);
			if (expect == -1)
				goto no;
		}
		/* the number, when a parameter gives it, is restated there */
		stated = inner->stated;
		if (stated && inner->prob_arg >= 0)
			prob = prob_param(lx, d, af[inner->prob_arg],
					  at[inner->prob_arg]);
	} else {
		goto no;
	}
	if (cond < 0)
		goto no;
	h = add_hint(t, name, expect, (int)d->nparams, cond, value, 0);
	h->stated = stated;
	h->prob_arg = prob;
	h->cond_pre = pre;
	h->cond_post = post;
	free(name);
	return 1;
no:
	free(pre);
	free(post);
	free(name);
	return 0;
}

/* The expected value of the hint call whose name is token @i. */
long lp_call_expect(const struct lp_lexed *lx, size_t i,
			const struct lp_hint *h)
{
	size_t af[8], at[8];
	int n;

	/* a stated probability below one half expects the other value */
	if (h->value_arg < 0 || h->stated)
		return h->stated ? LP_EXPECT_UNKNOWN : h->expect;
	n = lp_tok_args(lx, i + 1, af, at, 8);
	if (n <= h->value_arg)
		return LP_EXPECT_UNKNOWN;
	n = lp_tok_bool(lx, af[h->value_arg], at[h->value_arg]);
	return n < 0 ? LP_EXPECT_UNKNOWN : n;
}

int lp_tok_call(const struct lp_lexed *lx, size_t i, size_t end)
{
	return i + 1 < end && lp_tok_is(lx, i + 1, "(") &&
	       lx->tok[i + 1].match != LP_NO_MATCH;
}

/* Not a member access (p->likely) nor a declaration's name. */
int lp_tok_call_position(const struct lp_lexed *lx, size_t i)
{
	return i == 0 || !(lp_tok_is(lx, i - 1, ".") ||
			   lp_tok_is(lx, i - 1, "->") ||
			   lp_tok_is(lx, i - 1, "define"));
}

/* A new entry at the end of array @v (@n used, @a allocated). */
static struct lp_amacro *push_amacro(struct lp_amacro **v, size_t *n,
				     size_t *a, char *name, int funclike)
{
	struct lp_amacro *m;

	if (*n == *a) {
		*a = *a ? 2 * *a : 32;
		*v = lp_xrealloc(*v, *a * sizeof(**v));
	}
	m = &(*v)[(*n)++];
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->funclike = funclike;
	return m;
}

static struct lp_amacro *new_macro(struct lp_tree *t, char *name, int funclike)
{
	return push_amacro(&t->macros, &t->nmacros, &t->amacros, name,
			   funclike);
}

static void add_target(struct lp_amacro *m, struct lp_srcfile *f, size_t off,
		       const struct lp_hint *h, long expect)
{
	m->t = lp_xrealloc(m->t, (m->nt + 1) * sizeof(*m->t));
	m->t[m->nt].file = f;
	m->t[m->nt].off = off;
	m->t[m->nt].hint = h;
	m->t[m->nt].expect = expect;
	m->nt++;
}

/*
 * A pending entry for @d, which calls no spelling: only where its body
 * calls some name (an identifier before '('), which may be an annotated
 * macro.  NULL where it calls none.
 */
static struct lp_amacro *new_pending(struct lp_tree *t, char *name,
				     const struct lp_lexed *lx,
				     const struct lp_define *d)
{
	size_t i;

	for (i = d->body; i < d->end; i++)
		if (lx->tok[i].kind == LP_TOK_IDENT &&
		    lp_tok_call(lx, i, d->end))
			break;
	if (i == d->end)
		return NULL;
	return push_amacro(&t->pending, &t->npending, &t->apending, name, 1);
}

/* Records @d when its body calls a spelling: an annotated macro. */
static void define_annotated(struct lp_tree *t, struct lp_srcfile *f,
			     const struct lp_define *d)
{
	const struct lp_lexed *lx = &f->lx;
	struct lp_amacro *m = NULL;
	char *name = lp_tok_dup(lx, d->name);
	size_t i;

	if (lp_tree_hint(t, name)) {
		free(name);
		return;
	}
	for (i = d->body; i < d->end; i++) {
		const struct lp_hint *h;

		if (lx->tok[i].kind != LP_TOK_IDENT ||
		    !lp_tok_call(lx, i, d->end))
			continue;
		h = lp_tok_hint(t, lx, i);
		if (!m && h)
			m = new_macro(t, name, d->funclike);
		if (h && lp_tok_call_position(lx, i))
			add_target(m, f, lx->tok[i].start, h,
				   lp_call_expect(lx, i, h));
	}
	if (!m) {
		/* a call of one that does may make it annotated (below) */
		if (!d->funclike || !(m = new_pending(t, name, lx, d))) {
			free(name);
			return;
		}
	}
	/* calls of names that may be annotated macros too */
	for (i = d->body; i < d->end; i++) {
		if (lx->tok[i].kind != LP_TOK_IDENT || lp_tok_hint(t, lx, i))
			continue;
		m->callees = lp_xrealloc(m->callees, (m->ncallees + 1) *
					 sizeof(char *));
		m->callees[m->ncallees++] = lp_tok_dup(lx, i);
	}
}

int lp_c_like(const char *rel)
{
	static const char *const ext[] = {
		".c", ".h", ".cc", ".cpp", ".cxx", ".hh", ".hpp", ".hxx",
		".inc", ".inl", ".ipp", ".tcc", ".C", ".H", ".c++", ".h++",
	};
	const char *dot = strrchr(rel, '.');
	size_t i;

	if (!dot || strchr(dot, '/'))
		return 0;
	for (i = 0; i < sizeof(ext) / sizeof(ext[0]); i++)
		if (!strcmp(dot, ext[i]))
			return 1;
	return 0;
}

/* Does @f name "__builtin_expect" or a spelling from @from on? */
static int mentions_hint(const struct lp_tree *t, const struct lp_srcfile *f,
			 size_t from)
{
	size_t i;

	if (!memmem(f->buf, f->len, "define", 6))
		return 0;
	if (memmem(f->buf, f->len, "__builtin_expect", 16))
		return 1;
	for (i = from; i < t->nhints; i++)
		if (memmem(f->buf, f->len, t->hints[i].name,
			   strlen(t->hints[i].name)))
			return 1;
	return 0;
}

/* Loads @f only if it is C and mentions a spelling from @from on. */
static int load_if_hinted(struct lp_tree *t, struct lp_srcfile *f,
			  size_t from)
{
	char *err = NULL;

	if (f->is_link || !lp_c_like(f->rel))
		return 0;
	if (f->loaded)
		return mentions_hint(t, f, from);
	if (lp_read_tree_file(t, f, &err)) {
		free(err);
		return 0;
	}
	if (memchr(f->buf, '\0', f->len) || !mentions_hint(t, f, from)) {
		free(f->buf);
		f->buf = NULL;
		return 0;
	}
	lex_loaded(f);
	return 1;
}

/*
 * Two sweeps over the tree's C files: the first, repeated while it finds
 * new ones, learns the spellings (a spelling may be defined through
 * another); the second records annotated macros with all of them known.
 * A file is lexed only when it names a spelling, and unloaded after.
 */
static void scan_macros(struct lp_tree *t)
{
	size_t i, k, from = 0;
	int found = 1;

	while (found) {
		size_t before = t->nhints;

		found = 0;
		for (i = 0; i < t->nfiles; i++) {
			struct lp_srcfile *f = &t->files[i];

			if (!load_if_hinted(t, f, from))
				continue;
			for (k = 0; k < f->lx.nr; k++) {
				struct lp_define d;

				if (lp_parse_define(&f->lx, k, &d) &&
				    define_hint(t, &f->lx, &d))
					found = 1;
			}
			lp_srcfile_unload(f);
		}
		from = before;
	}
	for (i = 0; i < t->nfiles; i++) {
		struct lp_srcfile *f = &t->files[i];

		if (!load_if_hinted(t, f, 0))
			continue;
		for (k = 0; k < f->lx.nr; k++) {
			struct lp_define d;

			if (lp_parse_define(&f->lx, k, &d))
				define_annotated(t, f, &d);
		}
		lp_srcfile_unload(f);
	}
}

static int cmp_macro(const void *a, const void *b)
{
	return strcmp(((const struct lp_amacro *)a)->name,
		      ((const struct lp_amacro *)b)->name);
}

/* The first of the definitions named @name, and how many there are. */
struct lp_amacro *lp_find_macro(const struct lp_tree *t, const char *name,
				size_t len, size_t *count)
{
	size_t lo = 0, hi = t->nmacros, first;

	*count = 0;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		int c = strncmp(t->macros[mid].name, name, len);

		if (!c && t->macros[mid].name[len])
			c = 1;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	first = lo;
	while (lo < t->nmacros && !strncmp(t->macros[lo].name, name, len) &&
	       !t->macros[lo].name[len])
		lo++;
	*count = lo - first;
	return *count ? &t->macros[first] : NULL;
}

static void amacro_release(struct lp_amacro *m)
{
	size_t k;

	for (k = 0; k < m->ncallees; k++)
		free(m->callees[k]);
	free(m->callees);
	free(m->t);
	free(m->name);
}

/* Whether @m's body calls a name that is one annotated macro. */
static int calls_annotated(const struct lp_tree *t,
			   const struct lp_amacro *m)
{
	size_t i, n;

	for (i = 0; i < m->ncallees; i++)
		if (lp_find_macro(t, m->callees[i], strlen(m->callees[i]),
				  &n) && n == 1)
			return 1;
	return 0;
}

/*
 * Moves the pending #defines that call an annotated macro among the
 * annotated ones, level by level (a macro over a macro over a hint),
 * and lets the others go.  @t->macros is sorted before and after.
 */
static void promote_pending(struct lp_tree *t)
{
	char *calls = lp_xcalloc(t->npending + 1, 1);
	size_t i, moved = 1, round;

	for (round = 0; moved && round < 8; round++) {
		size_t first = t->nmacros;

		moved = 0;
		/* marked first, against the sorted ones, then moved */
		for (i = 0; i < t->npending; i++)
			calls[i] = t->pending[i].name &&
				   calls_annotated(t, &t->pending[i]);
		for (i = 0; i < t->npending; i++) {
			struct lp_amacro *p = &t->pending[i], *m;

			if (!calls[i])
				continue;
			m = new_macro(t, p->name, 1);
			m->callees = p->callees;
			m->ncallees = p->ncallees;
			memset(p, 0, sizeof(*p));
			moved++;
		}
		if (t->nmacros > first)
			qsort(t->macros, t->nmacros, sizeof(*t->macros),
			      cmp_macro);
	}
	for (i = 0; i < t->npending; i++)
		if (t->pending[i].name)
			amacro_release(&t->pending[i]);
	free(calls);
	free(t->pending);
	t->pending = NULL;
	t->npending = t->apending = 0;
}

/* Adds the targets of the annotated macros @m's body calls. */
static void resolve_macro(struct lp_tree *t, struct lp_amacro *m)
{
	size_t i;

	if (m->resolved || m->resolving)
		return;
	m->resolving = 1;
	for (i = 0; i < m->ncallees; i++) {
		size_t n, k;
		struct lp_amacro *c = lp_find_macro(t, m->callees[i],
					      strlen(m->callees[i]), &n);

		if (n != 1 || c == m)
			continue;
		resolve_macro(t, c);
		for (k = 0; k < c->nt; k++)
			add_target(m, c->t[k].file, c->t[k].off, c->t[k].hint,
				   c->t[k].expect);
	}
	m->resolving = 0;
	m->resolved = 1;
}

/* What names.c read of the tree's #defines, which the tree owns. */
static void name_defines_release(struct lp_tree *t)
{
	size_t i, k;

	for (i = 0; i < t->nndefs; i++) {
		for (k = 0; k < t->ndefs[i].nparams; k++)
			free(t->ndefs[i].params[k]);
		for (k = 0; k < t->ndefs[i].nbody; k++)
			free(t->ndefs[i].body[k]);
		free(t->ndefs[i].params);
		free(t->ndefs[i].body);
		free(t->ndefs[i].name);
	}
	free(t->ndefs);
	t->ndefs = NULL;
	t->nndefs = 0;
	for (i = 0; i < t->ndefnames; i++)
		free(t->defnames[i]);
	free(t->defnames);
	t->defnames = NULL;
	t->ndefnames = 0;
	lp_attr_macros_release(&t->attr_macros);
	for (i = 0; i < t->nattr_hints; i++) {
		free(t->attr_hints[i]->name);
		free((char *)t->attr_hints[i]->partner);
		free(t->attr_hints[i]);
	}
	free(t->attr_hints);
	t->attr_hints = NULL;
	t->nattr_hints = 0;
}

/*
 * The names cc --hint-macro counted: a call of one is a hint of the
 * direction given, though the tree defines it as no __builtin_expect
 * (sqlite's likely(X) is (X)); likely and unlikely are known already.
 */
static void add_hint_macros(struct lp_tree *t,
			    const struct lp_hint_macros *m)
{
	size_t k, i;

	for (k = 0; m && k < m->nr; k++) {
		for (i = 0; i < t->nhints; i++)
			if (!strcmp(t->hints[i].name, m->v[k].name))
				break;
		if (i < t->nhints)
			t->hints[i].expect = m->v[k].expect;
		else
			add_hint(t, m->v[k].name, m->v[k].expect, 1, 0, -1, 0);
	}
}

struct lp_tree *lp_tree_open(const char *src,
			     const struct lp_hint_macros *macros, char **err)
{
	struct lp_tree *t;
	struct lp_hint *h;
	struct stat st;
	size_t i;

	if (stat(src, &st) || !S_ISDIR(st.st_mode)) {
		*err = lp_xstrfmt("'%s' is not a folder", src);
		return NULL;
	}
	t = lp_xcalloc(1, sizeof(*t));
	t->git = -1;
	t->src = lp_xstrdup(src);
	t->real = realpath(src, NULL);
	if (!t->real) {
		*err = lp_xstrfmt("cannot resolve '%s': %s", src,
				  strerror(errno));
		lp_tree_free(t);
		return NULL;
	}
	walking = t;
	walk_root_len = strlen(t->real);
	if (!strcmp(t->real, "/"))
		walk_root_len = 0;
	if (nftw(t->real, walk_one, 32, FTW_PHYS | FTW_ACTIONRETVAL)) {
		*err = lp_xstrfmt("cannot walk '%s': %s", src, strerror(errno));
		lp_tree_free(t);
		return NULL;
	}
	walking = NULL;
	for (i = 0; i < sizeof(default_hints) / sizeof(default_hints[0]); i++)
		add_hint(t, default_hints[i], i % 2 ? 0 : 1, 1, 0, -1, 1);
	add_hint(t, "__builtin_expect", LP_EXPECT_UNKNOWN, 2, 0, 1, 0);
	h = add_hint(t, "__builtin_expect_with_probability", LP_EXPECT_UNKNOWN,
		     3, 0, 1, 0);
	h->stated = 1;
	h->prob_arg = 2;
	add_hint_macros(t, macros);
	scan_macros(t);
	if (t->nmacros)
		qsort(t->macros, t->nmacros, sizeof(*t->macros), cmp_macro);
	promote_pending(t);
	for (i = 0; i < t->nmacros; i++)
		resolve_macro(t, &t->macros[i]);
	return t;
}

void lp_tree_free(struct lp_tree *t)
{
	size_t i;

	if (!t)
		return;
	for (i = 0; i < t->nfiles; i++) {
		lp_srcfile_unload(&t->files[i]);
		free(t->files[i].rel);
		free(t->files[i].revs);
	}
	for (i = 0; i < t->nhints; i++) {
		free(t->hints[i].name);
		free(t->hints[i].cond_pre);
		free(t->hints[i].cond_post);
	}
	for (i = 0; i < t->nmacros; i++)
		amacro_release(&t->macros[i]);
	name_defines_release(t);
	free(t->messages);
	free(t->macros);
	free(t->hints);
	free(t->files);
	free(t->src);
	free(t->real);
	free(t);
}
