/*
 * names.c - the functions of a C or C++ file, and the names a profile
 * gives them
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

int lp_tok_keyword(const struct lp_lexed *lx, size_t i)
{
	static const char *const kw[] = {
		"if", "while", "for", "switch", "return", "sizeof",
		"__attribute__", "__attribute", "_Alignas", "__typeof__",
		"typeof", "__asm__", "asm", "defined", "_Static_assert",
		"__declspec", "alignas", "decltype", "noexcept", "throw",
		"catch", "static_assert", "alignof", "_Alignof", "new",
		"delete", "operator", "template", "requires",
	};
	return lp_tok_is_any(lx, i, kw, sizeof(kw) / sizeof(kw[0]));
}

int lp_tok_live(const struct lp_lexed *lx, size_t i)
{
	return !(lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD));
}

size_t lp_tok_prev_live(const struct lp_lexed *lx, size_t i)
{
	if (i == LP_NO_MATCH)
		return LP_NO_MATCH;
	while (i-- > 0)
		if (lp_tok_live(lx, i))
			return i;
	return LP_NO_MATCH;
}

int lp_tok_macro_like(const struct lp_lexed *lx, size_t i)
{
	const struct lp_token *t = &lx->tok[i];
	size_t k;
	int letters = 0;

	if (t->kind != LP_TOK_IDENT)
		return 0;
	for (k = t->start; k < t->end; k++) {
		char c = lx->buf[k];

		if (c >= 'a' && c <= 'z')
			return 0;
		letters += c >= 'A' && c <= 'Z';
	}
	return letters > 1;
}

/* An identifier that may be an attribute macro: not a C keyword. */
static int attr_word(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].kind == LP_TOK_IDENT && !lp_tok_keyword(lx, i);
}

static int is_matched(const struct lp_lexed *lx, size_t i, const char *s)
{
	return i != LP_NO_MATCH && lp_tok_is(lx, i, s) &&
	       lx->tok[i].match != LP_NO_MATCH;
}

/*
 * True when the identifier at @i follows a parameter list, maybe through
 * other such words: ") A B" or ") A(x) B".  "struct s {" and "= {" do not.
 */
static int after_params(const struct lp_lexed *lx, size_t i)
{
	size_t k = lp_tok_prev_live(lx, i);

	while (k != LP_NO_MATCH) {
		if (is_matched(lx, k, ")")) {
			size_t b = lp_tok_prev_live(lx, lx->tok[k].match);

			/* "A(x)" before us is another attribute macro */
			if (b != LP_NO_MATCH && attr_word(lx, b) &&
			    lp_tok_prev_live(lx, b) != LP_NO_MATCH &&
			    lp_tok_is(lx, lp_tok_prev_live(lx, b), ")")) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			return 1;
		}
		if (!attr_word(lx, k))
			return 0;
		k = lp_tok_prev_live(lx, k);
	}
	return 0;
}

static int qualifier(const struct lp_lexed *lx, size_t k)
{
	static const char *const q[] = {
		"const", "override", "final", "noexcept", "volatile", "&",
		"&&", "mutable", "constexpr", "try",
	};
	return lp_tok_is_any(lx, k, q, sizeof(q) / sizeof(q[0]));
}

/*
 * From the token before a '{', back over what may stand between a
 * parameter list and a body: attributes, qualifiers, attribute macros.
 */
static size_t skip_trailers(const struct lp_lexed *lx, size_t k)
{
	while (k != LP_NO_MATCH) {
		if (is_matched(lx, k, ")")) {
			size_t b = lp_tok_prev_live(lx, lx->tok[k].match);

			if (b != LP_NO_MATCH &&
			    (lp_tok_is(lx, b, "__attribute__") ||
			     lp_tok_is(lx, b, "__attribute") ||
			     lp_tok_is(lx, b, "noexcept") ||
			     lp_tok_is(lx, b, "throw") ||
			     lp_tok_is(lx, b, "__declspec"))) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			/* ") ATTR(x) {": a project's attribute macro */
			if (b != LP_NO_MATCH && attr_word(lx, b) &&
			    after_params(lx, b)) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			return k;
		}
		if (qualifier(lx, k)) {
			k = lp_tok_prev_live(lx, k);
			continue;
		}
		/* ") mi_attr_noexcept {", ") __THROW {" */
		if (attr_word(lx, k) && after_params(lx, k)) {
			k = lp_tok_prev_live(lx, k);
			continue;
		}
		return k;
	}
	return k;
}

/*
 * A constructor's member initialisers, ") : a(x), b{y} {": from the last
 * initialiser's closing bracket back to the parameters' ')'.
 */
static size_t skip_initialisers(const struct lp_lexed *lx, size_t k)
{
	while (is_matched(lx, k, ")") || is_matched(lx, k, "}")) {
		size_t b = lp_tok_prev_live(lx, lx->tok[k].match);
		size_t c = lp_tok_prev_live(lx, b);

		if (b == LP_NO_MATCH || lx->tok[b].kind != LP_TOK_IDENT ||
		    c == LP_NO_MATCH)
			return k;
		if (lp_tok_is(lx, c, ",")) {
			k = lp_tok_prev_live(lx, c);
			continue;
		}
		if (lp_tok_is(lx, c, ":"))
			return skip_trailers(lx, lp_tok_prev_live(lx, c));
		return k;
	}
	return k;
}

/* Back over "<...>" ending at @k, to the token before its '<'. */
static size_t skip_template_args(const struct lp_lexed *lx, size_t k)
{
	int depth = 0;

	for (; k != LP_NO_MATCH; k = lp_tok_prev_live(lx, k)) {
		depth += lp_tok_is(lx, k, ">") - lp_tok_is(lx, k, "<");
		depth += 2 * lp_tok_is(lx, k, ">>");
		if (!depth)
			return lp_tok_prev_live(lx, k);
		if (lp_tok_is(lx, k, ";") || lp_tok_is(lx, k, "{"))
			return LP_NO_MATCH;
	}
	return LP_NO_MATCH;
}

/* Joins the spellings of tokens [from, to]. */
static char *join_tokens(const struct lp_lexed *lx, size_t from, size_t to)
{
	size_t n = 1, i;
	char *s, *p;

	for (i = from; i <= to; i++)
		n += lx->tok[i].end - lx->tok[i].start;
	s = p = lp_xmalloc(n);
	for (i = from; i <= to; i++) {
		char *t = lp_tok_dup(lx, i);

		p = stpcpy(p, t);
		free(t);
	}
	return s;
}

/*
 * The name before the parameters whose '(' is @open: "f", "A::f" (as
 * "f"), "~A", "operator==", "operator()", "f<int>" (as "f"), or the
 * macro of "PREFIX(f)(...)".  @return : the name to free, with its
 * token in *@tok and *@macro set when a macro builds it; or NULL.
 */
static char *name_before(const struct lp_lexed *lx, size_t open, size_t *tok,
			 int *macro)
{
	size_t k = lp_tok_prev_live(lx, open), b, i;

	*macro = 0;
	if (k == LP_NO_MATCH)
		return NULL;
	/* operator==, operator(), operator[], operator new */
	for (b = k, i = 0; b != LP_NO_MATCH && i < 3;
	     b = lp_tok_prev_live(lx, b), i++)
		if (lp_tok_is(lx, b, "operator")) {
			*tok = b;
			return join_tokens(lx, b, k);
		}
	if (lp_tok_is(lx, k, ">"))
		k = skip_template_args(lx, k);
	if (k != LP_NO_MATCH && is_matched(lx, k, ")")) {
		b = lp_tok_prev_live(lx, lx->tok[k].match);
		if (b == LP_NO_MATCH || !attr_word(lx, b))
			return NULL;
		*macro = 1;
		*tok = b;
		return lp_tok_dup(lx, b);
	}
	if (k == LP_NO_MATCH || !attr_word(lx, k))
		return NULL;
	*tok = k;
	b = lp_tok_prev_live(lx, k);
	if (b != LP_NO_MATCH && lp_tok_is(lx, b, "~")) {
		char *n = lp_tok_dup(lx, k), *s = lp_xstrfmt("~%s", n);

		free(n);
		*tok = b;
		return s;
	}
	return lp_tok_dup(lx, k);
}

static void add_func(struct lp_srcfile *f, size_t *afuncs, char *name,
		     size_t name_tok, size_t open, size_t close, int macro)
{
	struct lp_func *fn;

	if (f->nfuncs == *afuncs) {
		*afuncs = *afuncs ? 2 * *afuncs : 32;
		f->funcs = lp_xrealloc(f->funcs, *afuncs * sizeof(*f->funcs));
	}
	fn = &f->funcs[f->nfuncs++];
	memset(fn, 0, sizeof(*fn));
	fn->name = name;
	fn->name_tok = name_tok;
	fn->open = open;
	fn->close = close;
	fn->macro_name = macro;
}

/*
 * Function definitions: "name ( ... ) [qualifiers, attributes,
 * initialisers] {".  Any other brace is looked into (namespaces,
 * extern "C", class bodies with their members); a function's body is
 * not, so a lambda belongs to the function around it, as a profile
 * from the compiler has it.  K&R declarations are not handled.
 */
void lp_find_functions(struct lp_srcfile *f)
{
	const struct lp_lexed *lx = &f->lx;
	size_t i, afuncs = 0;

	for (i = 0; i < lx->nr; i++) {
		size_t k, name_tok = 0;
		char *name;
		int macro;

		if (!lp_tok_live(lx, i) || !is_matched(lx, i, "{"))
			continue;
		k = skip_trailers(lx, lp_tok_prev_live(lx, i));
		k = skip_initialisers(lx, k);
		if (!is_matched(lx, k, ")"))
			continue;       /* not a body: look inside */
		name = name_before(lx, lx->tok[k].match, &name_tok, &macro);
		if (!name)
			continue;
		if (lx->tok[name_tok].kind == LP_TOK_IDENT &&
		    lp_tok_keyword(lx, name_tok) &&
		    !lp_tok_is(lx, name_tok, "operator")) {
			free(name);
			continue;
		}
		if (!macro && lp_tok_macro_like(lx, name_tok))
			macro = 1;      /* MATCH_FN(...): maybe a macro */
		add_func(f, &afuncs, name, name_tok, i, lx->tok[i].match,
			 macro);
		i = lx->tok[i].match;
	}
}

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
		if (!was_loaded) {
			lp_lexed_release(&f->lx);
			free(f->buf);
			f->buf = NULL;
		}
	}
	if (t->ndefnames)	/* qsort's base may not be NULL */
		qsort(t->defnames, t->ndefnames, sizeof(char *), cmp_str);
}

int lp_tree_defines(struct lp_tree *t, const char *name)
{
	if (!t->ndefs_read)
		read_name_defines(t);
	return t->ndefnames &&
	       bsearch(&name, t->defnames, t->ndefnames, sizeof(char *),
		       cmp_str) != NULL;
}

void lp_name_defines_release(struct lp_tree *t)
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
