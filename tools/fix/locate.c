/*
 * locate.c - from a profile's (file, line, function) to an annotation
 *
 * locate.h describes the strategy.  The code is in four parts: the tree
 * (walk, safe reads), the tree's spellings and annotated macros (a scan of
 * #define lines), the annotations of a function ("slots", in source
 * order, with the range of lines a compiler may report for each), and the
 * alignment of the profile's sites with those slots.
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

#include "fix/locate.h"
#include "fold.h"
#include "usage.h"

/* One annotation inside a macro body, found by byte offset. */
struct target {
	struct lp_srcfile *file;
	size_t off;
	const struct lp_hint *hint;
	long expect;
};

/* A macro whose body holds annotations. */
struct amacro {
	char *name;
	int funclike;
	struct target *t;
	size_t nt;
	char **callees;         /* other names called in the body */
	size_t ncallees;
	int resolving, resolved;
};

struct lp_tree {
	char *src;              /* as given */
	char *real;             /* realpath */
	struct lp_srcfile *files;
	size_t nfiles, afiles;
	struct lp_hint *hints;
	size_t nhints, ahints;
	struct amacro *macros;
	size_t nmacros, amacros;
};

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

static void unload(struct lp_srcfile *f)
{
	size_t i;

	lp_lexed_release(&f->lx);
	for (i = 0; i < f->nfuncs; i++)
		free(f->funcs[i].name);
	free(f->funcs);
	free(f->buf);
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
static int read_tree_file(struct lp_tree *t, struct lp_srcfile *f,
			  char **err)
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

static int is_keyword(const struct lp_lexed *lx, size_t i)
{
	static const char *const kw[] = {
		"if", "while", "for", "switch", "return", "sizeof",
		"__attribute__", "__attribute", "_Alignas", "__typeof__",
		"typeof", "__asm__", "asm", "defined", "_Static_assert",
		"__declspec", "alignas", "decltype", "noexcept", "throw",
	};
	size_t k;

	for (k = 0; k < sizeof(kw) / sizeof(kw[0]); k++)
		if (lp_tok_is(lx, i, kw[k]))
			return 1;
	return 0;
}

static int live(const struct lp_lexed *lx, size_t i)
{
	return !(lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD));
}

/* The live token before @i, or LP_NO_MATCH. */
static size_t prev_live(const struct lp_lexed *lx, size_t i)
{
	while (i-- > 0)
		if (live(lx, i))
			return i;
	return LP_NO_MATCH;
}

/* An identifier that may be an attribute macro: not a C keyword. */
static int attr_word(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].kind == LP_TOK_IDENT && !is_keyword(lx, i);
}

/*
 * True when the identifier at @i follows a parameter list, maybe through
 * other such words: ") A B" or ") A(x) B".  "struct s {" and "= {" do not.
 */
static int after_params(const struct lp_lexed *lx, size_t i)
{
	size_t k = prev_live(lx, i);

	while (k != LP_NO_MATCH) {
		if (lp_tok_is(lx, k, ")") && lx->tok[k].match != LP_NO_MATCH) {
			size_t b = prev_live(lx, lx->tok[k].match);

			/* "A(x)" before us is another attribute macro */
			if (b != LP_NO_MATCH && attr_word(lx, b) &&
			    prev_live(lx, b) != LP_NO_MATCH &&
			    lp_tok_is(lx, prev_live(lx, b), ")")) {
				k = prev_live(lx, b);
				continue;
			}
			return 1;
		}
		if (!attr_word(lx, k))
			return 0;
		k = prev_live(lx, k);
	}
	return 0;
}

/*
 * Function definitions: "name ( ... ) [attributes, const, K&R
 * declarations are not handled] {" at file scope.  extern "C" and
 * namespace blocks are looked into.
 */
static void find_functions(struct lp_srcfile *f)
{
	const struct lp_lexed *lx = &f->lx;
	size_t i, afuncs = 0;

	for (i = 0; i < lx->nr; i++) {
		size_t close, open, name, k;

		if (!live(lx, i) || !lp_tok_is(lx, i, "{") ||
		    lx->tok[i].match == LP_NO_MATCH)
			continue;
		/* step back over trailing attributes and qualifiers */
		k = prev_live(lx, i);
		for (;;) {
			if (k == LP_NO_MATCH)
				break;
			if (lp_tok_is(lx, k, ")") &&
			    lx->tok[k].match != LP_NO_MATCH) {
				size_t o = lx->tok[k].match;
				size_t b = prev_live(lx, o);

				if (b != LP_NO_MATCH &&
				    (lp_tok_is(lx, b, "__attribute__") ||
				     lp_tok_is(lx, b, "__attribute") ||
				     lp_tok_is(lx, b, "noexcept") ||
				     lp_tok_is(lx, b, "__declspec"))) {
					k = prev_live(lx, b);
					continue;
				}
				/* ") ATTR(x) {": a project's attribute macro */
				if (b != LP_NO_MATCH && attr_word(lx, b) &&
				    after_params(lx, b)) {
					k = prev_live(lx, b);
					continue;
				}
				break;
			}
			if (lp_tok_is(lx, k, "const") ||
			    lp_tok_is(lx, k, "override") ||
			    lp_tok_is(lx, k, "final") ||
			    lp_tok_is(lx, k, "noexcept")) {
				k = prev_live(lx, k);
				continue;
			}
			/* ") mi_attr_noexcept {", ") __THROW {" */
			if (attr_word(lx, k) && after_params(lx, k)) {
				k = prev_live(lx, k);
				continue;
			}
			break;
		}
		if (k == LP_NO_MATCH || !lp_tok_is(lx, k, ")") ||
		    lx->tok[k].match == LP_NO_MATCH) {
			/* namespace x { / extern "C" { : look inside */
			size_t b = prev_live(lx, i);

			if (b != LP_NO_MATCH &&
			    (lx->tok[b].kind == LP_TOK_STRING ||
			     (lx->tok[b].kind == LP_TOK_IDENT &&
			      (b == 0 || (prev_live(lx, b) != LP_NO_MATCH &&
			       lp_tok_is(lx, prev_live(lx, b),
					 "namespace"))))))
				continue;
			i = lx->tok[i].match;
			continue;
		}
		close = k;
		open = lx->tok[close].match;
		name = prev_live(lx, open);
		if (name == LP_NO_MATCH || lx->tok[name].kind != LP_TOK_IDENT ||
		    is_keyword(lx, name)) {
			i = lx->tok[i].match;
			continue;
		}
		if (f->nfuncs == afuncs) {
			afuncs = afuncs ? 2 * afuncs : 32;
			f->funcs = lp_xrealloc(f->funcs,
					       afuncs * sizeof(*f->funcs));
		}
		f->funcs[f->nfuncs].name = lp_tok_dup(lx, name);
		f->funcs[f->nfuncs].name_tok = name;
		f->funcs[f->nfuncs].open = i;
		f->funcs[f->nfuncs].close = lx->tok[i].match;
		f->nfuncs++;
		i = lx->tok[i].match;
	}
}

static void lex_loaded(struct lp_srcfile *f)
{
	lp_lex(&f->lx, f->buf, f->len);
	find_functions(f);
	f->loaded = 1;
}

int lp_srcfile_load(struct lp_tree *t, struct lp_srcfile *f, char **err)
{
	if (f->loaded)
		return 0;
	if (read_tree_file(t, f, err))
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

static const struct lp_hint *tok_hint(const struct lp_tree *t,
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

static void add_hint(struct lp_tree *t, const char *name, long expect,
		     int nargs, int cond_arg, int value_arg, int is_default)
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
}

/* The directive's tokens: [name, end) of "#define name ...". */
struct define {
	size_t name, body, end;     /* body: first token after params */
	size_t params, nparams;     /* '(' of the parameters, their count */
	int funclike;
};

static int parse_define(const struct lp_lexed *lx, size_t dir,
			struct define *d)
{
	size_t i = dir + 2;

	if (!(lx->tok[dir].flags & LP_TOKF_DIRECTIVE) ||
	    (lx->tok[dir].flags & LP_TOKF_DEAD) || dir + 2 >= lx->nr ||
	    lx->tok[dir + 1].dir != dir || !lp_tok_is(lx, dir + 1, "define") ||
	    lx->tok[i].dir != dir || !(lx->tok[i].flags & LP_TOKF_PP) ||
	    lx->tok[i].kind != LP_TOK_IDENT)
		return 0;
	d->name = i;
	d->end = i + 1;
	while (d->end < lx->nr && lx->tok[d->end].dir == dir &&
	       (lx->tok[d->end].flags & LP_TOKF_PP) &&
	       !(lx->tok[d->end].flags & LP_TOKF_DIRECTIVE))
		d->end++;
	d->funclike = i + 1 < d->end && lp_tok_is(lx, i + 1, "(") &&
		      lx->tok[i + 1].start == lx->tok[i].end;
	d->nparams = 0;
	d->params = i + 1;
	d->body = i + 1;
	if (d->funclike) {
		size_t close = lx->tok[i + 1].match, k;

		if (close == LP_NO_MATCH || close >= d->end)
			return 0;
		for (k = i + 2; k < close; k++)
			if (lx->tok[k].kind == LP_TOK_IDENT ||
			    lp_tok_is(lx, k, "..."))
				d->nparams++;
		d->body = close + 1;
	}
	return 1;
}

/* The index of parameter @i's name among the define's, or -1. */
static int param_index(const struct lp_lexed *lx, const struct define *d,
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

/* The first parameter named in tokens [from, to), or -1. */
static int first_param(const struct lp_lexed *lx, const struct define *d,
		       size_t from, size_t to)
{
	for (; from < to; from++) {
		int p = param_index(lx, d, from);

		if (p >= 0)
			return p;
	}
	return -1;
}

/*
 * A spelling of __builtin_expect: a function-like macro whose body, bare
 * or in parentheses, is one call of a known spelling on its parameter.
 */
static int define_hint(struct lp_tree *t, const struct lp_lexed *lx,
		       const struct define *d)
{
	size_t from = d->body, to = d->end, af[3], at[3];
	const struct lp_hint *inner;
	char *name;
	int n, cond, value = -1;
	long expect;

	if (!d->funclike || !d->nparams)
		return 0;
	while (to - from >= 2 && lp_tok_is(lx, from, "(") &&
	       lx->tok[from].match == to - 1) {
		from++;
		to--;
	}
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
		expect = lp_tok_bool(lx, af[1], at[1]);
		if (expect < 0) {
			if (at[1] - af[1] != 1 ||
			    (value = param_index(lx, d, af[1])) < 0)
				goto no;
			expect = LP_EXPECT_UNKNOWN;
		}
	} else if ((inner = tok_hint(t, lx, from))) {
		n = lp_tok_args(lx, from + 1, af, at, 3);
		if (n != inner->nargs)
			goto no;
		cond = first_param(lx, d, af[inner->cond_arg],
				   at[inner->cond_arg]);
		expect = inner->expect;
		if (inner->value_arg >= 0) {
			size_t vf = af[inner->value_arg];
			size_t vt = at[inner->value_arg];

			expect = lp_tok_bool(lx, vf, vt);
			if (expect < 0) {
				if (vt - vf != 1 ||
				    (value = param_index(lx, d, vf)) < 0)
					goto no;
				expect = LP_EXPECT_UNKNOWN;
			}
		}
	} else {
		goto no;
	}
	if (cond < 0)
		goto no;
	add_hint(t, name, expect, (int)d->nparams, cond, value, 0);
	free(name);
	return 1;
no:
	free(name);
	return 0;
}

/* The expected value of the hint call whose name is token @i. */
static long call_expect(const struct lp_lexed *lx, size_t i,
			const struct lp_hint *h)
{
	size_t af[8], at[8];
	int n;

	if (h->value_arg < 0)
		return h->expect;
	n = lp_tok_args(lx, i + 1, af, at, 8);
	if (n <= h->value_arg)
		return LP_EXPECT_UNKNOWN;
	n = lp_tok_bool(lx, af[h->value_arg], at[h->value_arg]);
	return n < 0 ? LP_EXPECT_UNKNOWN : n;
}

static int is_call(const struct lp_lexed *lx, size_t i, size_t end)
{
	return i + 1 < end && lp_tok_is(lx, i + 1, "(") &&
	       lx->tok[i + 1].match != LP_NO_MATCH;
}

/* Not a member access (p->likely) nor a declaration's name. */
static int call_position(const struct lp_lexed *lx, size_t i)
{
	return i == 0 || !(lp_tok_is(lx, i - 1, ".") ||
			   lp_tok_is(lx, i - 1, "->") ||
			   lp_tok_is(lx, i - 1, "define"));
}

static struct amacro *new_macro(struct lp_tree *t, char *name, int funclike)
{
	struct amacro *m;

	if (t->nmacros == t->amacros) {
		t->amacros = t->amacros ? 2 * t->amacros : 32;
		t->macros = lp_xrealloc(t->macros,
					t->amacros * sizeof(*t->macros));
	}
	m = &t->macros[t->nmacros++];
	memset(m, 0, sizeof(*m));
	m->name = name;
	m->funclike = funclike;
	return m;
}

static void add_target(struct amacro *m, struct lp_srcfile *f, size_t off,
		       const struct lp_hint *h, long expect)
{
	m->t = lp_xrealloc(m->t, (m->nt + 1) * sizeof(*m->t));
	m->t[m->nt].file = f;
	m->t[m->nt].off = off;
	m->t[m->nt].hint = h;
	m->t[m->nt].expect = expect;
	m->nt++;
}

/* Records @d when its body calls a spelling: an annotated macro. */
static void define_annotated(struct lp_tree *t, struct lp_srcfile *f,
			     const struct define *d)
{
	const struct lp_lexed *lx = &f->lx;
	struct amacro *m = NULL;
	char *name = lp_tok_dup(lx, d->name);
	size_t i;

	if (lp_tree_hint(t, name)) {
		free(name);
		return;
	}
	for (i = d->body; i < d->end; i++) {
		const struct lp_hint *h;

		if (lx->tok[i].kind != LP_TOK_IDENT || !is_call(lx, i, d->end))
			continue;
		h = tok_hint(t, lx, i);
		if (!m && h)
			m = new_macro(t, name, d->funclike);
		if (h && call_position(lx, i))
			add_target(m, f, lx->tok[i].start, h,
				   call_expect(lx, i, h));
	}
	if (!m) {
		free(name);
		return;
	}
	/* calls of names that may be annotated macros too */
	for (i = d->body; i < d->end; i++) {
		if (lx->tok[i].kind != LP_TOK_IDENT || tok_hint(t, lx, i))
			continue;
		m->callees = lp_xrealloc(m->callees, (m->ncallees + 1) *
					 sizeof(char *));
		m->callees[m->ncallees++] = lp_tok_dup(lx, i);
	}
}

static int c_like(const char *rel)
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

	if (f->is_link || !c_like(f->rel))
		return 0;
	if (f->loaded)
		return mentions_hint(t, f, from);
	if (read_tree_file(t, f, &err)) {
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
				struct define d;

				if (parse_define(&f->lx, k, &d) &&
				    define_hint(t, &f->lx, &d))
					found = 1;
			}
			unload(f);
		}
		from = before;
	}
	for (i = 0; i < t->nfiles; i++) {
		struct lp_srcfile *f = &t->files[i];

		if (!load_if_hinted(t, f, 0))
			continue;
		for (k = 0; k < f->lx.nr; k++) {
			struct define d;

			if (parse_define(&f->lx, k, &d))
				define_annotated(t, f, &d);
		}
		unload(f);
	}
}

static int cmp_macro(const void *a, const void *b)
{
	return strcmp(((const struct amacro *)a)->name,
		      ((const struct amacro *)b)->name);
}

/* The first of the definitions named @name, and how many there are. */
static struct amacro *find_macro(const struct lp_tree *t, const char *name,
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

/* Adds the targets of the annotated macros @m's body calls. */
static void resolve_macro(struct lp_tree *t, struct amacro *m)
{
	size_t i;

	if (m->resolved || m->resolving)
		return;
	m->resolving = 1;
	for (i = 0; i < m->ncallees; i++) {
		size_t n, k;
		struct amacro *c = find_macro(t, m->callees[i],
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

struct lp_tree *lp_tree_open(const char *src, char **err)
{
	struct lp_tree *t;
	struct stat st;
	size_t i;

	if (stat(src, &st) || !S_ISDIR(st.st_mode)) {
		*err = lp_xstrfmt("'%s' is not a folder", src);
		return NULL;
	}
	t = lp_xcalloc(1, sizeof(*t));
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
	scan_macros(t);
	if (t->nmacros)
		qsort(t->macros, t->nmacros, sizeof(*t->macros), cmp_macro);
	for (i = 0; i < t->nmacros; i++)
		resolve_macro(t, &t->macros[i]);
	return t;
}

void lp_tree_free(struct lp_tree *t)
{
	size_t i, k;

	if (!t)
		return;
	for (i = 0; i < t->nfiles; i++) {
		unload(&t->files[i]);
		free(t->files[i].rel);
	}
	for (i = 0; i < t->nhints; i++)
		free(t->hints[i].name);
	for (i = 0; i < t->nmacros; i++) {
		for (k = 0; k < t->macros[i].ncallees; k++)
			free(t->macros[i].callees[k]);
		free(t->macros[i].callees);
		free(t->macros[i].name);
		free(t->macros[i].t);
	}
	free(t->macros);
	free(t->hints);
	free(t->files);
	free(t->src);
	free(t->real);
	free(t);
}

/*-************************************
 *  The annotations of a function
 **************************************/

/* One annotation as the profile would see it. */
struct slot {
	unsigned lo, hi;        /* lines a compiler may report */
	struct lp_srcfile *file;        /* where the hint token is */
	size_t off;             /* its byte offset */
	const struct lp_hint *hint;
	long expect;
	char *cond;             /* the condition's text, for direct hints */
	const char *macro;      /* the macro holding it, or NULL */
	int ambiguous;          /* a macro with several definitions */
};

struct slots {
	struct slot *v;
	size_t nr, alloc;
};

static struct slot *push_slot(struct slots *s)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 16;
		s->v = lp_xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	memset(&s->v[s->nr], 0, sizeof(s->v[0]));
	return &s->v[s->nr++];
}

static void release_slots(struct slots *s)
{
	size_t i;

	for (i = 0; i < s->nr; i++)
		free(s->v[i].cond);
	free(s->v);
	s->v = NULL;
	s->nr = s->alloc = 0;
}

/* An identifier that reads as a macro: upper case, digits, '_'. */
static int macro_like(const struct lp_lexed *lx, size_t i)
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
	if (is_call(lx, i, lx->nr))
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
		if (!macro_like(lx, name) &&
		    !find_macro(t, lx->buf + lx->tok[name].start,
				lx->tok[name].end - lx->tok[name].start, &n))
			continue;
		*lo = lx->tok[name].line;
		if (lx->tok[lx->tok[k].match].last_line > *hi)
			*hi = lx->tok[lx->tok[k].match].last_line;
	}
}

static void function_slots(const struct lp_tree *t, struct lp_srcfile *f,
			   const struct lp_func *fn, struct slots *out)
{
	const struct lp_lexed *lx = &f->lx;
	size_t i;

	for (i = fn->open + 1; i < fn->close; i++) {
		const struct lp_hint *h;
		struct amacro *m;
		struct slot *s;
		size_t n, k;

		if (!live(lx, i) || lx->tok[i].kind != LP_TOK_IDENT ||
		    !call_position(lx, i))
			continue;
		if ((h = tok_hint(t, lx, i))) {
			size_t af[8], at[8];

			if (!is_call(lx, i, fn->close))
				continue;
			s = push_slot(out);
			s->file = f;
			s->off = lx->tok[i].start;
			s->hint = h;
			s->expect = call_expect(lx, i, h);
			line_range(t, lx, i, fn->open, &s->lo, &s->hi);
			n = lp_tok_args(lx, i + 1, af, at, 8);
			if ((int)n > h->cond_arg)
				s->cond = lp_tok_text(lx, af[h->cond_arg],
						      at[h->cond_arg]);
			continue;
		}
		m = find_macro(t, lx->buf + lx->tok[i].start,
			       lx->tok[i].end - lx->tok[i].start, &n);
		if (!m || (m->funclike && !is_call(lx, i, fn->close)))
			continue;
		for (k = 0; k < m->nt; k++) {
			s = push_slot(out);
			s->file = m->t[k].file;
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

/*-************************************
 *  Finding the file
 **************************************/

/* Number of trailing path components @a and @b share. */
static size_t common_tail(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = 0;

	for (;;) {
		size_t ea = la, eb = lb;

		while (la && a[la - 1] != '/')
			la--;
		while (lb && b[lb - 1] != '/')
			lb--;
		if (ea - la != eb - lb || memcmp(a + la, b + lb, ea - la) ||
		    ea == la)
			return n;
		n++;
		if (!la || !lb)
			return n;
		la--;
		lb--;
	}
}

static int func_matches(const char *have, const char *want, int kernel)
{
	size_t n = strlen(want);

	if (!strcmp(have, want))
		return 1;
	/* the kernel prints %-30.30s */
	return kernel && n == 30 && !strncmp(have, want, n);
}

/*
 * The name in the source of @f (loaded) of the function the profile calls
 * @want: @want itself when @f defines it; else the one name that @want
 * ends in after a '_' (jemalloc's private_namespace.h renames free_default
 * to je_free_default by a macro, and __func__ says the new name); else
 * NULL.
 */
static const char *source_func_name(const struct lp_srcfile *f,
				    const char *want, int kernel)
{
	const char *tail = NULL;
	size_t i, wl = strlen(want);

	for (i = 0; i < f->nfuncs; i++)
		if (func_matches(f->funcs[i].name, want, kernel))
			return want;
	for (i = 0; i < f->nfuncs; i++) {
		const char *have = f->funcs[i].name;
		size_t hl = strlen(have);

		if (hl + 1 >= wl || want[wl - hl - 1] != '_' ||
		    strcmp(want + wl - hl, have))
			continue;
		if (tail && strcmp(tail, have))
			return NULL;    /* a_b_c: b_c or c? say none */
		tail = have;
	}
	return tail;
}

static int defines(struct lp_tree *t, struct lp_srcfile *f, const char *func,
		   int kernel)
{
	char *err = NULL;

	if (lp_srcfile_load(t, f, &err)) {
		free(err);
		return 0;
	}
	return !*func || source_func_name(f, func, kernel) != NULL;
}

/*
 * Finds the file of profile path @path (canonical) defining @func.
 * @return : the file, or NULL with *@why set.
 */
static struct lp_srcfile *find_file(struct lp_tree *t, const char *path,
				    const char *func, int kernel, char **why)
{
	const char *rel = path;
	struct lp_srcfile **cand = NULL, *best = NULL, *top_other = NULL;
	size_t ncand = 0, i, top = 0, nwith = 0, ntop_with = 0, n = 0;
	size_t rl = strlen(t->real);
	int outside = 0;

	if (path[0] == '/' && !strncmp(path, t->real, rl) && path[rl] == '/')
		rel = path + rl + 1;
	else if (path[0] == '/' || !strncmp(path, "../", 3) ||
		 !strcmp(path, ".."))
		outside = 1;
	for (i = 0; i < t->nfiles; i++) {
		size_t s = common_tail(t->files[i].rel, rel);

		if (!s)
			continue;
		cand = lp_xrealloc(cand, (ncand + 1) * sizeof(*cand));
		cand[ncand++] = &t->files[i];
		if (s > top)
			top = s;
	}
	if (!ncand) {
		*why = outside && path[0] != '/' ?
			lp_xstrfmt("'%s' leads outside the source tree, and "
				   "no file in it has that name", path) :
			lp_xstrfmt("no file named '%s' in the source tree",
				   lp_path_base(path));
		free(cand);
		return NULL;
	}
	/* longest common tail first, then any with the function */
	for (i = 0; i < ncand; i++) {
		int has = !cand[i]->is_link &&
			  defines(t, cand[i], func, kernel);

		if (common_tail(cand[i]->rel, rel) == top) {
			n++;
			if (has) {
				ntop_with++;
				best = cand[i];
			}
		} else if (has && !nwith) {
			top_other = cand[i];
		}
		nwith += has;
	}
	if (ntop_with == 1)
		goto found;
	if (ntop_with > 1) {
		*why = lp_xstrfmt("%zu files in the tree end in '%s' and "
				  "define '%s'", ntop_with, rel, func);
	} else if (nwith == 1) {
		/* the function moved to a file of the same name */
		best = top_other;
		goto found;
	} else if (nwith > 1) {
		*why = lp_xstrfmt("%zu files named '%s' define '%s'", nwith,
				  lp_path_base(path), func);
	} else if (n == 1) {
		for (i = 0; i < ncand; i++)
			if (common_tail(cand[i]->rel, rel) == top)
				best = cand[i];
		*why = best->is_link ?
			lp_xstrfmt("'%s' is a symbolic link; not following "
				   "it", best->rel) :
			lp_xstrfmt("no function '%s' in '%s'", func,
				   best->rel);
	} else {
		*why = lp_xstrfmt("no file named '%s' defines '%s'",
				  lp_path_base(path), func);
	}
	best = NULL;
found:
	free(cand);
	return best;
}

/*-************************************
 *  Aligning the profile with the source
 **************************************/

/* The profile's sites of one function of one file. */
struct group {
	struct lp_srcfile *file;
	const char *func;
	size_t *idx;            /* into sites->v, in line order */
	size_t n;
};

/* Letters and digits of a condition, without "!!" and outer parens. */
static char *squash(const char *s)
{
	size_t n = strlen(s), i, k = 0;
	char *o = lp_xmalloc(n + 1);
	int changed = 1;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\n')
			o[k++] = s[i];
	o[k] = '\0';
	while (changed) {
		changed = 0;
		k = strlen(o);
		if (k >= 2 && o[0] == '!' && o[1] == '!') {
			memmove(o, o + 2, k - 1);
			changed = 1;
		} else if (k >= 2 && o[0] == '(' && o[k - 1] == ')') {
			int depth = 0;

			for (i = 0; i < k; i++) {
				depth += o[i] == '(';
				depth -= o[i] == ')';
				if (!depth && i < k - 1)
					break;
			}
			if (i == k) {
				o[k - 1] = '\0';
				memmove(o, o + 1, k - 1);
				changed = 1;
			}
		}
	}
	return o;
}

static int compatible(const struct lp_judged *p, const struct slot *s)
{
	if (p->expect == LP_EXPECT_UNKNOWN || s->expect == LP_EXPECT_UNKNOWN)
		return 1;
	return p->expect == s->expect;
}

static int cond_matches(const struct lp_judged *p, const struct slot *s)
{
	char *a, *b;
	int eq;

	if (!p->cond || !*p->cond || !s->cond)
		return 0;
	a = squash(p->cond);
	b = squash(s->cond);
	eq = !strcmp(a, b);
	free(a);
	free(b);
	return eq;
}

/*
 * The slot for the site at @line + @shift: the one slot whose range holds
 * it (a condition that matches breaks a tie).  @return : its index,
 * (size_t)-1 for none, (size_t)-2 for several.
 */
static size_t slot_at(const struct slots *S, const struct lp_judged *p,
		      long line)
{
	size_t k, hit = (size_t)-1, nhit = 0, ncond = 0, cond_hit = 0;

	for (k = 0; k < S->nr; k++) {
		if (line < S->v[k].lo || line > S->v[k].hi ||
		    !compatible(p, &S->v[k]))
			continue;
		nhit++;
		hit = k;
		if (cond_matches(p, &S->v[k])) {
			ncond++;
			cond_hit = k;
		}
	}
	if (nhit == 1)
		return hit;
	if (ncond == 1)
		return cond_hit;
	return nhit ? (size_t)-2 : (size_t)-1;
}

/* Maps every site at a common @shift; 0 when one is missing or unclear. */
static int map_shift(const struct lp_judged_list *J, const struct group *g,
		     const struct slots *S, long shift, size_t *map)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		map[i] = slot_at(S, &J->v[g->idx[i]],
				 J->v[g->idx[i]].line + shift);
		if (map[i] >= (size_t)-2)
			return 0;
		for (k = 0; k < i; k++)
			if (map[k] == map[i])
				return 0;
	}
	return 1;
}

static void place_slot(struct lp_place *pl, const struct slot *s,
		       struct lp_srcfile *call_file)
{
	pl->placed = 1;
	pl->file = s->file;
	pl->hint = s->hint;
	pl->expect = s->expect;
	pl->call_file = call_file;
	pl->line = s->lo;
	pl->macro = s->macro;
	pl->tok = (size_t)s->off;       /* a byte offset until resolved */
}

static void refuse(struct lp_place *pl, char *why)
{
	if (pl->placed || pl->reason) {
		free(why);
		return;
	}
	pl->reason = why;
}

/* Pass 1 for one function: exact lines, order, one shift, condition. */
static void align(const struct lp_judged_list *J, const struct group *g,
		  const struct slots *S, struct lp_place *out)
{
	size_t *map = lp_xcalloc(g->n, sizeof(*map)), i, k;
	long best_shift = 0;
	int ok = 0, nshift = 0;

	if (!S->nr) {
		for (i = 0; i < g->n; i++)
			refuse(&out[g->idx[i]], lp_xstrfmt(
				"'%s' in '%s' has no annotation left",
				g->func, g->file->rel));
		free(map);
		return;
	}
	if (map_shift(J, g, S, 0, map)) {
		ok = 1;
	} else if (g->n == S->nr) {
		ok = 1;
		for (i = 0; i < g->n; i++) {
			map[i] = i;
			if (!compatible(&J->v[g->idx[i]], &S->v[i]))
				ok = 0;
		}
	}
	if (!ok) {
		/* the shifts that put the first site on some annotation */
		for (k = 0; k < S->nr; k++) {
			long shift = (long)S->v[k].lo - J->v[g->idx[0]].line;

			if ((!nshift || shift != best_shift) &&
			    map_shift(J, g, S, shift, map)) {
				nshift++;
				best_shift = shift;
			}
		}
		if (nshift == 1)
			ok = map_shift(J, g, S, best_shift, map);
	}
	if (!ok) {
		/* each site by its condition's text */
		ok = 1;
		for (i = 0; i < g->n && ok; i++) {
			size_t n = 0;

			for (k = 0; k < S->nr; k++)
				if (compatible(&J->v[g->idx[i]], &S->v[k]) &&
				    cond_matches(&J->v[g->idx[i]], &S->v[k])) {
					n++;
					map[i] = k;
				}
			ok = n == 1;
		}
	}
	for (i = 0; i < g->n; i++) {
		struct lp_place *pl = &out[g->idx[i]];

		if (!ok)
			continue;
		if (S->v[map[i]].ambiguous) {
			refuse(pl, lp_xstrfmt("macro %s has several "
					      "definitions in the tree",
					      S->v[map[i]].macro));
			continue;
		}
		place_slot(pl, &S->v[map[i]], g->file);
	}
	free(map);
}

/*
 * Pass 2: a site still unplaced takes the shift of the placed site of the
 * same file nearest to it, if that shift lands on exactly one annotation
 * of its function (give or take two lines).
 */
static void align_by_neighbours(const struct lp_judged_list *J,
				const struct group *g, const struct slots *S,
				const struct lp_place *all,
				struct lp_place *out, size_t nall)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		const struct lp_judged *p = &J->v[g->idx[i]];
		struct lp_place *pl = &out[g->idx[i]];
		long best = -1, shift = 0;
		size_t hit = 0, nhit = 0;

		if (pl->placed || pl->reason)
			continue;
		for (k = 0; k < nall; k++) {
			long d;

			if (!all[k].placed || all[k].call_file != g->file ||
			    all[k].macro)
				continue;
			d = labs(J->v[k].line - p->line);
			if (best < 0 || d < best) {
				best = d;
				shift = (long)all[k].line - J->v[k].line;
			}
		}
		if (best >= 0) {
			for (k = 0; k < S->nr; k++) {
				long at = p->line + shift;

				if (at + 2 >= S->v[k].lo &&
				    at - 2 <= S->v[k].hi &&
				    compatible(p, &S->v[k])) {
					nhit++;
					hit = k;
				}
			}
		}
		if (nhit == 1 && !S->v[hit].ambiguous) {
			place_slot(pl, &S->v[hit], g->file);
			continue;
		}
		refuse(pl, lp_xstrfmt(
			"%s() in '%s' has %zu annotation%s and the profile "
			"%zu site%s there; cannot tell which one line %ld "
			"was", g->func, g->file->rel, S->nr,
			S->nr == 1 ? "" : "s", g->n, g->n == 1 ? "" : "s",
			p->line));
	}
}

/* Turns the byte offsets of placed sites into token indices. */
static void resolve_tokens(struct lp_tree *t, struct lp_place *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct lp_place *pl = &out[i];
		size_t lo, hi, off;
		char *err = NULL;

		if (!pl->placed)
			continue;
		off = pl->tok;
		if (lp_srcfile_load(t, pl->file, &err)) {
			pl->placed = 0;
			pl->reason = err;
			continue;
		}
		lo = 0;
		hi = pl->file->lx.nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (pl->file->lx.tok[mid].start < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == pl->file->lx.nr || pl->file->lx.tok[lo].start != off)
			lp_bug("annotation at byte %zu of '%s' lost", off,
			       pl->file->rel);
		pl->tok = lo;
	}
}

static int cmp_line_idx(const void *a, const void *b, void *ctx)
{
	const struct lp_judged_list *J = ctx;
	const struct lp_judged *x = &J->v[*(const size_t *)a];
	const struct lp_judged *y = &J->v[*(const size_t *)b];

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

void lp_tree_place(struct lp_tree *t, const struct lp_judged_list *J,
		   struct lp_place *out)
{
	struct group *groups = NULL;
	struct lp_srcfile **file_of = lp_xcalloc(J->nr + 1, sizeof(*file_of));
	size_t ngroups = 0, i, k, pass, run = 0;
	int kernel = J->origin == LP_ORIGIN_KERNEL ||
		     J->origin == LP_ORIGIN_KERNEL_ALL;

	memset(out, 0, J->nr * sizeof(*out));
	/* files, one look-up per distinct (path, function) */
	for (i = 0; i < J->nr; i++) {
		const struct lp_judged *p = &J->v[i];
		const char *func = p->func ? p->func : "";
		char *why = NULL;

		if (i && !strcmp(J->v[i - 1].file, p->file) &&
		    !strcmp(J->v[i - 1].func ? J->v[i - 1].func : "", func) &&
		    (file_of[i - 1] || out[i - 1].reason)) {
			file_of[i] = file_of[i - 1];
			if (!file_of[i])
				out[i].reason = lp_xstrdup(out[i - 1].reason);
			continue;
		}
		/* sites are sorted by file: look back over this file's only */
		if (!i || strcmp(J->v[i - 1].file, p->file))
			run = i;
		for (k = run; k < i && !file_of[i]; k++)
			if (file_of[k] && !strcmp(J->v[k].file, p->file) &&
			    !strcmp(J->v[k].func ? J->v[k].func : "", func))
				file_of[i] = file_of[k];
		if (!file_of[i])
			file_of[i] = find_file(t, p->file, func, kernel, &why);
		if (!file_of[i])
			out[i].reason = why;
	}
	/* groups: the sites of one function of one file */
	for (i = 0; i < J->nr; i++) {
		const char *func = J->v[i].func ? J->v[i].func : "";
		struct group *g = NULL;

		if (!file_of[i])
			continue;
		for (k = ngroups; k-- > 0 && groups[k].file == file_of[i];)
			if (!strcmp(groups[k].func, func)) {
				g = &groups[k];
				break;
			}
		if (!g) {
			groups = lp_xrealloc(groups, (ngroups + 1) *
					     sizeof(*groups));
			g = &groups[ngroups++];
			memset(g, 0, sizeof(*g));
			g->file = file_of[i];
			g->func = func;
		}
		g->idx = lp_xrealloc(g->idx, (g->n + 1) * sizeof(size_t));
		g->idx[g->n++] = i;
	}
	for (pass = 1; pass <= 2; pass++) {
		for (k = 0; k < ngroups; k++) {
			struct group *g = &groups[k];
			struct slots S = { NULL, 0, 0 };
			const char *name;
			char *err = NULL;

			if (lp_srcfile_load(t, g->file, &err)) {
				for (i = 0; i < g->n; i++)
					refuse(&out[g->idx[i]],
					       lp_xstrdup(err));
				free(err);
				continue;
			}
			qsort_r(g->idx, g->n, sizeof(size_t), cmp_line_idx,
				(void *)J);
			name = *g->func ? source_func_name(g->file, g->func,
							   kernel) : "";
			for (i = 0; name && i < g->file->nfuncs; i++)
				if (!*name ||
				    func_matches(g->file->funcs[i].name,
						 name, kernel))
					function_slots(t, g->file,
						       &g->file->funcs[i], &S);
			if (pass == 1)
				align(J, g, &S, out);
			else
				align_by_neighbours(J, g, &S, out, out, J->nr);
			release_slots(&S);
		}
	}
	resolve_tokens(t, out, J->nr);
	for (k = 0; k < ngroups; k++)
		free(groups[k].idx);
	free(groups);
	free(file_of);
}

void lp_place_release(struct lp_place *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(p[i].reason);
}
