/*
 * names.c - which function of the tree a profile's name means (the
 * functions of each file are funcs.c's)
 *
 * A profile names a site's function as __func__ says it: the bare name
 * of a C function, of a C++ member (defined in its class or out of line
 * as A::B::f), constructor (A), destructor (~A) or operator
 * (operator==); g++ adds template arguments (f<int>), clang does not;
 * a lambda is "operator()".  The source may not spell the name plainly
 * either: a macro builds it (int PREFIX(f)(int a), with #define
 * PREFIX(x) zng_ ## x) or stands for it (#define MATCH_FN
 * match_slow_avx2 before a template header is included).  The name is
 * one piece of evidence among several (locate.c), so this file says how
 * well a definition answers to a name, including "cannot tell".
 */
#include <stdlib.h>
#include <string.h>

#include "fix/tree.h"
#include "fold.h"
#include "usage.h"

/*-************************************
 *  Names that macros build
 **************************************/

static void add_ndef(struct lp_tree *t, const struct lp_lexed *lx,
		     const struct lp_define *d, size_t *alloc)
{
	struct lp_name_define *nd;
	size_t k, close;

	t->defnames = lp_xrealloc(t->defnames, (t->ndefnames + 1) *
				  sizeof(char *));
	t->defnames[t->ndefnames++] = lp_tok_dup(lx, d->name);
	for (k = d->body; k < d->end; k++)
		if (lx->tok[k].kind != LP_TOK_IDENT && !lp_tok_is(lx, k, "##"))
			return;
	if (d->body == d->end || d->end - d->body > 16 ||
	    (!d->funclike && d->end - d->body != 1))
		return;
	if (t->nndefs == *alloc) {
		*alloc = *alloc ? 2 * *alloc : 64;
		t->ndefs = lp_xrealloc(t->ndefs, *alloc * sizeof(*t->ndefs));
	}
	nd = &t->ndefs[t->nndefs++];
	memset(nd, 0, sizeof(*nd));
	nd->name = lp_tok_dup(lx, d->name);
	nd->funclike = d->funclike;
	if (d->funclike) {
		close = lx->tok[d->params].match;
		for (k = d->params + 1; k < close; k++) {
			if (lx->tok[k].kind != LP_TOK_IDENT)
				continue;
			nd->params = lp_xrealloc(nd->params, (nd->nparams + 1) *
						 sizeof(char *));
			nd->params[nd->nparams++] = lp_tok_dup(lx, k);
		}
	}
	nd->nbody = d->end - d->body;
	nd->body = lp_xcalloc(nd->nbody, sizeof(char *));
	for (k = 0; k < nd->nbody; k++)
		nd->body[k] = lp_tok_dup(lx, d->body + k);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The tree's #defines that may build a name: an identifier for another
 * (#define MATCH_FN match_slow_avx2) or identifiers pasted together
 * (#define PREFIX(x) zng_ ## x).  Read once, on first need: only a
 * function whose name is a macro asks.
 */
static void read_name_defines(struct lp_tree *t)
{
	size_t i, k, alloc = 0;

	t->ndefs_read = 1;
	for (i = 0; i < t->nfiles; i++) {
		struct lp_srcfile *f = &t->files[i];
		int was_loaded = f->loaded;
		char *err = NULL;

		if (f->is_link || !lp_c_like(f->rel))
			continue;
		if (!was_loaded) {
			if (lp_read_tree_file(t, f, &err)) {
				free(err);
				continue;
			}
			if (!memmem(f->buf, f->len, "define", 6) ||
			    memchr(f->buf, '\0', f->len)) {
				free(f->buf);
				f->buf = NULL;
				continue;
			}
			lp_lex(&f->lx, f->buf, f->len);
		}
		for (k = 0; k < f->lx.nr; k++) {
			struct lp_define d;

			if (lp_parse_define(&f->lx, k, &d))
				add_ndef(t, &f->lx, &d, &alloc);
		}
		lp_attr_macros_collect(&t->attr_macros, &f->lx);
		if (!was_loaded) {
			lp_lexed_release(&f->lx);
			free(f->buf);
			f->buf = NULL;
		}
	}
	if (t->ndefnames)	/* qsort's base may not be NULL */
		qsort(t->defnames, t->ndefnames, sizeof(char *), cmp_str);
	t->attr_macros.from_tree = 1;
}

const struct lp_attr_macros *lp_tree_attr_macros(struct lp_tree *t)
{
	if (!t->ndefs_read)
		read_name_defines(t);
	return &t->attr_macros;
}

int lp_tree_defines(struct lp_tree *t, const char *name)
{
	if (!t->ndefs_read)
		read_name_defines(t);
	return t->ndefnames &&
	       bsearch(&name, t->defnames, t->ndefnames, sizeof(char *),
		       cmp_str) != NULL;
}


/* @nd's body with @args for its parameters, pasted into one word. */
static char *paste(const struct lp_name_define *nd, char **args,
		   size_t nargs)
{
	char *s = lp_xstrdup(""), *n;
	size_t i, k;

	for (i = 0; i < nd->nbody; i++) {
		const char *w = nd->body[i];

		if (!strcmp(w, "##"))
			continue;
		for (k = 0; k < nd->nparams && k < nargs; k++)
			if (!strcmp(w, nd->params[k]))
				w = args[k];
		/* two words not pasted by ## would be two tokens */
		if (*s && (i == 0 || strcmp(nd->body[i - 1], "##"))) {
			free(s);
			return NULL;
		}
		n = lp_xstrfmt("%s%s", s, w);
		free(s);
		s = n;
	}
	return s;
}

/* Compares @name with @want as a profile spells it. */
static int same_name(const char *name, const char *want, size_t wl,
		     int kernel)
{
	if (strlen(name) == wl && !strncmp(name, want, wl))
		return 1;
	/* the kernel prints %-30.30s */
	return kernel && wl == 30 && !strncmp(name, want, wl);
}

/*
 * Does @name, after expanding the tree's name macros (to @depth), give
 * @want?  @return : 1 yes, 0 no, -1 when @name is no such macro.
 */
static int expands_to(struct lp_tree *t, const char *name, char **args,
		      size_t nargs, const char *want, size_t wl, int kernel,
		      int depth)
{
	size_t i;
	int known = 0;

	for (i = 0; i < t->nndefs; i++) {
		const struct lp_name_define *nd = &t->ndefs[i];
		char *s;
		int r;

		if (strcmp(nd->name, name) || nd->funclike != (args != NULL) ||
		    (args && nd->nparams != nargs))
			continue;
		known = 1;
		s = paste(nd, args, nargs);
		if (!s)
			continue;
		r = same_name(s, want, wl, kernel);
		if (!r && depth < 4)
			r = expands_to(t, s, NULL, 0, want, wl, kernel,
				       depth + 1) == 1;
		free(s);
		if (r)
			return 1;
	}
	return known ? 0 : -1;
}

/* @want ends in "_" @have: a prefix added by a macro (je_, zng_). */
static int prefixed(const char *have, const char *want, size_t wl)
{
	size_t hl = strlen(have);

	return hl + 1 < wl && want[wl - hl - 1] == '_' &&
	       !strncmp(want + wl - hl, have, hl);
}

/* The length of @want without g++'s template arguments: "f<int>" is f. */
static size_t bare_length(const char *want)
{
	const char *lt = strchr(want, '<');

	if (!strncmp(want, "operator", 8) || !lt)
		return strlen(want);
	return (size_t)(lt - want);
}

int lp_profile_name_readable(const char *want)
{
	return want && *want && strcmp(want, "operator()") &&
	       strncmp(want, "<lambda", 7) && strcmp(want, "_GLOBAL__sub_I");
}

/* The identifiers that are whole arguments of the call at @open. */
static size_t macro_args(const struct lp_lexed *lx, size_t open,
			 char **args, size_t max)
{
	size_t from[8], to[8];
	int n = lp_tok_args(lx, open, from, to, 8), i;

	if (n < 0 || (size_t)n > max)
		return (size_t)-1;
	for (i = 0; i < n; i++)
		args[i] = to[i] - from[i] == 1 &&
			  lx->tok[from[i]].kind == LP_TOK_IDENT ?
			  lp_tok_dup(lx, from[i]) : lp_xstrdup("");
	return (size_t)n;
}

int lp_func_name_is(struct lp_tree *t, const struct lp_srcfile *f,
		    const struct lp_func *fn, const char *want, int kernel)
{
	const struct lp_lexed *lx = &f->lx;
	size_t wl = bare_length(want), nargs = 0, i;
	char *args[8];
	int r, call;

	if (same_name(fn->name, want, wl, kernel))
		return LP_NAME_EXACT;
	if (!fn->macro_name)
		return prefixed(fn->name, want, wl) ? LP_NAME_PREFIXED
						    : LP_NAME_NO;
	if (!t->ndefs_read)
		read_name_defines(t);
	call = lp_tok_call(lx, fn->name_tok, lx->nr) &&
	       lx->tok[fn->name_tok + 1].match < fn->open;
	if (call) {
		nargs = macro_args(lx, fn->name_tok + 1, args, 8);
		if (nargs == (size_t)-1)
			return LP_NAME_UNKNOWN;
	}
	r = expands_to(t, fn->name, call ? args : NULL, nargs, want, wl,
		       kernel, 0);
	if (r < 0) {
		/* no definition to read: an argument may be the name */
		r = LP_NAME_UNKNOWN;
		for (i = 0; i < nargs; i++)
			if (*args[i] && (same_name(args[i], want, wl, 0) ||
					 prefixed(args[i], want, wl)))
				r = LP_NAME_PREFIXED;
	} else {
		r = r ? LP_NAME_EXACT : LP_NAME_NO;
	}
	for (i = 0; i < nargs; i++)
		free(args[i]);
	return r;
}

/*-************************************
 *  Functions that return a constant
 **************************************/

/* Does the body of @fn hold "return <number or true/false>;"? */
static int returns_constant(const struct lp_lexed *lx,
			    const struct lp_func *fn)
{
	size_t i;

	for (i = fn->open + 1; i + 2 < fn->close; i++) {
		size_t v = i + 1, end = i + 2;

		if (!lp_tok_live(lx, i) || !lp_tok_is(lx, i, "return"))
			continue;
		if (lp_tok_is(lx, v, "(") && lx->tok[v].match == v + 2) {
			v++;
			end = v + 2;
		}
		if (end < fn->close && lp_tok_is(lx, end, ";") &&
		    (lx->tok[v].kind == LP_TOK_NUMBER ||
		     lp_tok_is(lx, v, "true") || lp_tok_is(lx, v, "false")))
			return 1;
	}
	return 0;
}

const char *lp_tree_constant_function(struct lp_tree *t, const char *name)
{
	size_t i, k, n = strlen(name);

	for (i = 0; i < t->nfiles; i++) {
		struct lp_srcfile *f = &t->files[i];
		char *err = NULL;

		if (f->is_link || !lp_c_like(f->rel))
			continue;
		if (!f->loaded) {
			/* a cheap look first: most files never name it */
			if (lp_read_tree_file(t, f, &err)) {
				free(err);
				continue;
			}
			if (!memmem(f->buf, f->len, name, n)) {
				free(f->buf);
				f->buf = NULL;
				continue;
			}
			free(f->buf);
			f->buf = NULL;
			if (lp_srcfile_load(t, f, &err)) {
				free(err);
				continue;
			}
		}
		for (k = 0; k < f->nfuncs; k++)
			if (!strcmp(f->funcs[k].name, name) &&
			    returns_constant(&f->lx, &f->funcs[k]))
				return f->rel;
	}
	return NULL;
}

/* The function a condition calls when the call is all of it. */
char *lp_condition_call(const struct lp_lexed *lx, size_t from, size_t to)
{
	if (to - from < 3 || lx->tok[from].kind != LP_TOK_IDENT ||
	    !lp_tok_is(lx, from + 1, "(") || lx->tok[from + 1].match != to - 1)
		return NULL;
	return lp_tok_dup(lx, from);
}
