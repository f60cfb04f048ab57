/*
 * expand.c - the hint forms of a unit's own headers
 *
 * attr.c and hintmacro.c rewrite the forms the header cannot see
 * ([[likely]], a --hint-macro name) in a copy of the source; a header's
 * form reaches the compiler through an #include, out of that copy's
 * reach, and C++ keeps most of its code in headers.  So the diagnostics
 * compile also writes the unit's own headers (-MMD: those not of the
 * system), each is read as the source is, and where one holds a form to
 * count, the compiler prints the unit with its includes expanded and its
 * macros kept (gcc -E -fdirectives-only, clang -E -frewrite-includes).
 * Line markers there name each file and line, so the forms are rewritten
 * line for line where the text comes from the source or from a header
 * not of the system (a marker without flag 3: the standard library's
 * own [[likely]] are its business), and the instrumented compile reads
 * that text instead (gcc with -fpreprocessed -fdirectives-only: macros
 * expanded, includes already done).  The expanding run is the one that
 * sees the includes, so it writes the dependency file the user asked
 * for, naming the real files.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/attrmacro.h"
#include "cc/copy.h"
#include "cc/expand.h"
#include "cc/hintmacro.h"
#include "cc/unseen.h"
#include "fix/lexer.h"
#include "usage.h"

/* --- the dependency file ------------------------------------------------ */

/* Whether @s[@i] ends a word of a make rule (unquoted blank, end). */
static int rule_blank(const char *s, size_t i, size_t len)
{
	return i >= len || s[i] == ' ' || s[i] == '\t' || s[i] == '\n' ||
	       (s[i] == '\\' && i + 1 < len && s[i + 1] == '\n');
}

/*
 * Whether @s[@i] quotes the byte after it: a backslash before a space or
 * a #, a $ before a $.
 */
static int rule_quoted(const char *s, size_t i, size_t len)
{
	return i + 1 < len &&
	       ((s[i] == '\\' && (s[i + 1] == ' ' || s[i + 1] == '#')) ||
		(s[i] == '$' && s[i + 1] == '$'));
}

size_t lp_cc_deps_files(char *s, size_t len, char ***files)
{
	size_t i = 0, nr = 0, alloc = 0;

	*files = NULL;
	/* the target: up to the first ':' that a blank or the end follows */
	while (i < len && !(s[i] == ':' && rule_blank(s, i + 1, len)))
		i++;
	for (i++; i < len && s[i] != '\n';) {
		size_t w = i;
		char *word = s + i, stop;

		if (rule_blank(s, i, len)) {
			i += s[i] == '\\' ? 2 : 1;
			continue;
		}
		while (!rule_blank(s, i, len)) {
			i += rule_quoted(s, i, len);
			s[w++] = s[i++];
		}
		/* s[len] is the NUL lp_read_all() keeps */
		stop = i < len ? s[i] : '\n';
		s[w] = '\0';
		i += stop == '\\' ? 2 : 1;
		if (nr == alloc) {
			alloc = alloc ? 2 * alloc : 16;
			*files = lp_xrealloc(*files, alloc * sizeof(**files));
		}
		(*files)[nr++] = word;
		if (stop == '\n')
			break;          /* the rule ends */
	}
	return nr;
}

/* --- the headers' forms ------------------------------------------------- */

/* Whether @buf can hold a form at all: the cheap test before a lex. */
static int may_hold_form(const char *buf, size_t len,
			 const struct lp_unseen_forms *f)
{
	const struct lp_hint_macros *m = f->macros;
	const struct lp_attr_macros *am = f->attr_macros;
	size_t k;

	if (memmem(buf, len, "likely", 6))
		return 1;
	for (k = 0; k < m->nr; k++)
		if (memmem(buf, len, m->v[k].name, strlen(m->v[k].name)))
			return 1;
	for (k = 0; am && k < am->nr; k++)
		if (memmem(buf, len, am->v[k].name, strlen(am->v[k].name)))
			return 1;
	return 0;
}

/* One note a unit: the first header's forms in full, the others named. */
static void add_to_note(struct lp_cc_header_hints *h, const char *path,
			const char *what)
{
	size_t used = strlen(h->also);

	if (!*h->note) {
		snprintf(h->note, sizeof(h->note), "%s: %s", path, what);
		return;
	}
	h->nalso++;
	if (used + strlen(path) + 3 < sizeof(h->also))
		snprintf(h->also + used, sizeof(h->also) - used, ", %s", path);
}

/* One header @path read into @h. */
static void header_hints(struct lp_cc_header_hints *h, const char *path,
			 const struct lp_unseen_forms *f)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_copy_edits e = LP_COPY_EDITS_INIT;
	struct lp_unseen u;
	char what[400];
	size_t len = 0;
	char *buf = lp_unseen_read(path, &len);
	struct lp_unseen_forms hf = *f;

	if (!buf || !may_hold_form(buf, len, f)) {
		free(buf);
		return;
	}
	/* the forms are counted and described; no copy is written */
	lp_lex(&lx, buf, len);
	hf.file = path;
	lp_unseen_plan(&u, &lx, &hf, &e);
	if (e.nr) {
		h->sum.attr.counted += u.attr.counted;
		h->sum.macros.counted += u.macros.counted;
	}
	if (lp_unseen_describe(&u, what, sizeof(what)))
		add_to_note(h, path, what);
	h->macros_left |= u.macros.calls > u.macros.counted;
	lp_copy_edits_release(&e);
	lp_lexed_release(&lx);
	free(buf);
}

int lp_cc_header_hints(struct lp_cc_header_hints *h, const char *deps,
		       const struct lp_unseen_forms *f)
{
	char **files;
	size_t len, nr, k;
	char *text = lp_unseen_read(deps, &len);

	memset(h, 0, sizeof(*h));
	if (!text)
		return -1;
	nr = lp_cc_deps_files(text, len, &files);
	for (k = 1; k < nr; k++)        /* the first is the source */
		header_hints(h, files[k], f);
	lp_unseen_counted(&h->sum, h->counted_what, sizeof(h->counted_what));
	free(files);
	free(text);
	return 0;
}

/*
 * The names of @path's #defines that spell an attribute, into @am; *@use
 * set where @path may use one defined elsewhere (a system header).
 */
static void collect_names(struct lp_attr_macros *am, const char *path,
			  int *use)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	size_t len = 0;
	char *buf = lp_unseen_read(path, &len);

	if (buf && (memmem(buf, len, "likely", 6) ||
		    memmem(buf, len, "LIKELY", 6))) {
		lp_lex(&lx, buf, len);
		lp_attr_macros_collect(am, &lx);
		*use |= lp_attr_macro_use_shape(&lx);
		lp_lexed_release(&lx);
	}
	free(buf);
}

int lp_cc_attr_macro_names(struct lp_attr_macros *am, const char *src,
			   const char *deps)
{
	char **files;
	size_t len, nr, k;
	char *text = deps ? lp_unseen_read(deps, &len) : NULL;
	int use = 0;

	collect_names(am, src, &use);
	if (text) {
		nr = lp_cc_deps_files(text, len, &files);
		for (k = 1; k < nr; k++)        /* the first is the source */
			collect_names(am, files[k], &use);
		free(files);
		free(text);
	}
	return am->nr || use;
}

/* --- the expanding run -------------------------------------------------- */

static void push_copy(struct lp_args *a, const char *s)
{
	lp_args_push(a, lp_xstrdup(s));
}

/* Whether the user's options name the dependency target themselves. */
static int names_target(int argc, const char **argv, int clang)
{
	int i;

	for (i = 0; i < argc; i++)
		if (!strncmp(argv[i], "-MT", 3) ||
		    !strncmp(argv[i], "-MQ", 3) ||
		    /* gcc's preprocessor takes the source's name there */
		    (!clang && !strncmp(argv[i], "-Wp,-M", 6)))
			return 1;
	return 0;
}

void lp_cc_expand_options(struct lp_args *a, int argc, const char **argv,
			  const char *out, const char *raw, int clang)
{
	int bare;
	char *deps = lp_cc_deps_file(argc, argv, out, &bare);

	push_copy(a, "-E");
	push_copy(a, clang ? "-frewrite-includes" : "-fdirectives-only");
	if (deps && bare) {
		push_copy(a, "-MF");
		push_copy(a, deps);
	}
	if (deps && !names_target(argc, argv, clang)) {
		push_copy(a, "-MQ");
		push_copy(a, out);
	}
	push_copy(a, "-o");
	push_copy(a, raw);
	free(deps);
}

/* --- the expanded text -------------------------------------------------- */

/*
 * The parts of an expanded unit that come from the source or its own
 * headers, one after the other: the system's text (most of a C++ unit)
 * is not lexed at all, which is most of what reading the unit costs.
 */
struct view {
	char *text;             /* the parts, joined */
	size_t len;
	size_t *from;           /* part k: the view's bytes [at[k], at[k+1]) */
	size_t *at;             /* came from raw byte from[k] on */
	size_t nr, alloc;
};

/* Raw bytes [@from, @to) appended to the view as its next part. */
static void view_add(struct view *v, const char *raw, size_t from,
		     size_t to)
{
	if (from >= to)
		return;
	if (v->nr == v->alloc) {
		v->alloc = v->alloc ? 2 * v->alloc : 64;
		v->from = lp_xrealloc(v->from, v->alloc * sizeof(*v->from));
		v->at = lp_xrealloc(v->at, v->alloc * sizeof(*v->at));
	}
	v->from[v->nr] = from;
	v->at[v->nr++] = v->len;
	memcpy(v->text + v->len, raw + from, to - from);
	v->len += to - from;
	v->text[v->len] = '\0';
}

/*
 * The view of @raw: each line marker starts a part, kept unless its
 * flags say the system's.  The marker is the first line of its part, so
 * that every kept part says which file and line it is (attrmacro.c reads
 * them), the one that returns from a system header's text included.
 */
static void view_read(struct view *v, const char *raw, size_t len)
{
	const char *s = raw, *end = raw + len;
	size_t start = 0;
	int keep = 1;

	memset(v, 0, sizeof(*v));
	v->text = lp_xmalloc(len + 1);
	v->text[0] = '\0';
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl + 1 : end;
		struct lp_cc_marker m;

		if (*s == '#' && lp_cc_line_marker(s, eol, &m)) {
			if (keep)
				view_add(v, raw, start, (size_t)(s - raw));
			start = (size_t)(s - raw);
			keep = !m.system;
		}
		s = eol;
	}
	if (keep)
		view_add(v, raw, start, len);
}

/* The part that view byte @at is of, plus 1; 0 before the first. */
static size_t view_part(const struct view *v, size_t at)
{
	size_t lo = 0, hi = v->nr;

	while (lo < hi) {       /* the last part starting at or before @at */
		size_t mid = lo + (hi - lo) / 2;

		if (v->at[mid] <= at)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The raw byte of view byte @at (an edit's place). */
static size_t view_raw(const struct view *v, size_t at)
{
	size_t k = view_part(v, at);

	return k ? v->from[k - 1] + (at - v->at[k - 1]) : at;
}

static void view_release(struct view *v)
{
	free(v->text);
	free(v->from);
	free(v->at);
}

/* --- what the expanded text leaves ------------------------------------- */

/* The attributes of one file of an expanded unit. */
struct file_left {
	const char *name;       /* in the raw text: nlen bytes */
	size_t nlen;
	unsigned all, left, first_line;
	const char *first_why;
};

/* The entry of the file that a line marker names, added if new. */
static struct file_left *file_of(struct file_left **files, size_t *n,
				 const struct lp_cc_marker *m)
{
	const char *name = m->file;
	size_t k, nlen = m->flen;

	lp_cc_skip_dot_slash(&name, &nlen);
	for (k = 0; k < *n; k++)
		if ((*files)[k].nlen == nlen &&
		    !memcmp((*files)[k].name, name, nlen))
			return &(*files)[k];
	*files = lp_xrealloc(*files, (*n + 1) * sizeof(**files));
	memset(&(*files)[*n], 0, sizeof(**files));
	(*files)[*n].name = name;
	(*files)[*n].nlen = nlen;
	return &(*files)[(*n)++];
}

/* Seen attribute @s of the view @v of @raw, booked to its file. */
static void book(const struct view *v, const char *raw, size_t len,
		 const struct lp_attr_seen *s, struct file_left **files,
		 size_t *n)
{
	size_t k = view_part(v, s->at), at, from;
	const char *eol, *p;
	struct lp_cc_marker m;
	struct file_left *f;
	unsigned line;

	if (!k)
		return;
	/* every part starts with its line marker (view_read()) */
	from = v->from[k - 1];
	at = from + (s->at - v->at[k - 1]);
	eol = memchr(raw + from, '\n', len - from);
	if (!eol || !lp_cc_line_marker(raw + from, eol, &m) || !m.flen)
		return;
	for (line = m.line, p = eol + 1; p < raw + at; p++)
		line += *p == '\n';
	f = file_of(files, n, &m);
	f->all++;
	if (s->why && !f->left++) {
		f->first_line = line;
		f->first_why = s->why;
	}
}

/* The notes of what @a (the view @v's plan) leaves, by file, into @out. */
static void expanded_left(const struct view *v, const char *raw,
			  size_t len, const struct lp_attr_plan *a,
			  const char *src, struct lp_cc_expanded_left *out)
{
	struct file_left *files = NULL;
	size_t n = 0, k, slen;
	char what[400], *path;

	memset(out, 0, sizeof(*out));
	for (k = 0; k < a->attributes; k++)
		book(v, raw, len, &a->seen[k], &files, &n);
	slen = strlen(src);
	lp_cc_skip_dot_slash(&src, &slen);
	for (k = 0; k < n; k++) {
		const struct file_left *f = &files[k];
		int is_src = f->nlen == slen && !memcmp(f->name, src, slen);

		if (!lp_unseen_left(is_src ? out->source : what,
				    is_src ? sizeof(out->source) : sizeof(what),
				    f->all, f->all - f->left,
				    "[[likely]]/[[unlikely]]", f->first_line,
				    f->first_why) || is_src)
			continue;
		path = lp_xstrfmt("%.*s", (int)f->nlen, f->name);
		add_to_note(&out->headers, path, what);
		free(path);
	}
	free(files);
}

int lp_cc_expanded_copy(const char *raw, size_t len, const char *src,
			const struct lp_unseen_forms *f, char **copy,
			size_t *copy_len, struct lp_cc_expanded_left *left)
{
	struct lp_lexed lx = LP_LEXED_INIT, whole = LP_LEXED_INIT;
	struct lp_copy_edits e = LP_COPY_EDITS_INIT;
	struct lp_unseen_forms kept = *f;
	struct lp_unseen u;
	struct view v;
	size_t k;
	int made = 0;

	view_read(&v, raw, len);
	lp_lex(&lx, v.text, v.len);
	kept.keep_seen = 1;
	lp_unseen_plan(&u, &lx, &kept, &e);
	if (u.attr.seen)
		expanded_left(&v, raw, len, &u.attr, src, left);
	else
		memset(left, 0, sizeof(*left));
	free(u.attr.seen);
	for (k = 0; k < e.nr; k++)
		e.v[k].at = view_raw(&v, e.v[k].at);
	/* the edits go into the whole text: only its bytes are read */
	whole.buf = raw;
	whole.len = len;
	if (e.nr && !lp_copy_write(&whole, &e, src, copy, copy_len))
		made = 1;
	lp_copy_edits_release(&e);
	lp_lexed_release(&lx);
	view_release(&v);
	return made;
}
