/*
 * data.c - every site of the page as JSON for its script (data.h)
 *
 * The markup holds the worst sites only (a page of 100k rows takes a
 * browser many seconds to lay out); the script draws any page of the
 * table from this data.  Bytes are what count at 100k sites: a site is
 * one array of numbers and two strings, its file, function and
 * spelling indexes into tables, its link made by the script, and the
 * source lines shared by the sites near each other.  Format:
 *
 *   {"per": rows a page, "link": template, "root": --src,
 *    "names": [verdicts], "labels": [their labels],
 *    "files": [], "funcs": [], "spells": [],
 *    "sites": [[verdict, file, line, func, spell, correct, incorrect,
 *               evaluations, condition, reason, dot, flags
 *               (, the compiler's condition where it differs)], ...],
 *    "src": [[file, line, text], ...]}
 *
 * verdict is the index in lp_html_verdicts[]; flags: 1 the tree changed
 * the site since, 2 placed by --src (linked in the tree), 4 its source
 * lines are in "src".  A count past 2^53, which a script's number would
 * round, is a string of its digits.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/quote.h"
#include "json.h"
#include "report/data.h"
#include "usage.h"

#define F_STALE 1
#define F_PLACED 2
#define F_SOURCE 4

/* A table of distinct strings, each site's an index into it. */
struct strtab {
	const char **s;         /* distinct, sorted */
	size_t nr;
	size_t *id;             /* per site */
};

/*
 * JSON string of the first @n bytes of @s (up to a NUL): '<' escaped, so
 * that "</script>" cannot end the element, and bytes that are not UTF-8
 * as U+FFFD, as lp_html_put() shows them.
 */
static void put_jstr(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + n;

	fputc('"', f);
	while (p && p < end && *p) {
		size_t k;

		if (*p == '"' || *p == '\\') {
			fputc('\\', f);
			fputc(*p, f);
		} else if (*p < 0x20 || *p == '<' || *p == 0x7f) {
			fprintf(f, "\\u%04x", *p);
		} else if (*p < 0x80) {
			fputc(*p, f);
		} else if ((k = lp_html_utf8(p, end))) {
			fwrite(p, 1, k, f);
			p += k;
			continue;
		} else {
			fputs("\\ufffd", f);
		}
		p++;
	}
	fputc('"', f);
}

static void put_jstrz(FILE *f, const char *s)
{
	put_jstr(f, s, s ? strlen(s) : 0);
}

static void put_u64(FILE *f, uint64_t n)
{
	if (n > (UINT64_C(1) << 53))
		fprintf(f, ",\"%llu\"", (unsigned long long)n);
	else
		fprintf(f, ",%llu", (unsigned long long)n);
}

static const char **sort_base;

static int cmp_str_at(const void *pa, const void *pb)
{
	size_t a = *(const size_t *)pa, b = *(const size_t *)pb;

	return strcmp(sort_base[a], sort_base[b]);
}

/* Makes @t of the @n strings @s (which it keeps). */
static void strtab_make(struct strtab *t, const char **s, size_t n)
{
	size_t *order = lp_xmalloc((n + 1) * sizeof(*order));
	size_t i;

	t->s = lp_xmalloc((n + 1) * sizeof(*t->s));
	t->id = lp_xmalloc((n + 1) * sizeof(*t->id));
	t->nr = 0;
	for (i = 0; i < n; i++)
		order[i] = i;
	sort_base = s;
	qsort(order, n, sizeof(*order), cmp_str_at);
	for (i = 0; i < n; i++) {
		if (!t->nr || strcmp(t->s[t->nr - 1], s[order[i]]))
			t->s[t->nr++] = s[order[i]];
		t->id[order[i]] = t->nr - 1;
	}
	free(order);
}

static void strtab_put(FILE *f, const char *name, const struct strtab *t)
{
	size_t i;

	fprintf(f, ",\n\"%s\":[", name);
	for (i = 0; i < t->nr; i++) {
		if (i)
			fputc(',', f);
		put_jstrz(f, t->s[i]);
	}
	fputc(']', f);
}

static void put_head(FILE *f, const struct lp_tree *tree,
		     const struct lp_html_opts *o)
{
	int i;

	fprintf(f, "<script type=\"application/json\" id=\"lp-data\">\n"
		"{\"per\":%zu,\"link\":", o->rows ? o->rows : 1);
	put_jstrz(f, o->link ? o->link : "");
	fputs(",\"root\":", f);
	put_jstrz(f, tree ? lp_tree_root(tree) : "");
	/* only where there are views: a page without them is as it was */
	if (o->pages && tree) {
		fputs(",\"pages\":", f);
		put_jstrz(f, LP_HTML_VIEWS);
	}
	fputs(",\n\"names\":[", f);
	for (i = 0; i < LP_HTML_NVERDICTS; i++) {
		fputs(i ? "," : "", f);
		put_jstrz(f, lp_verdict_name(lp_html_verdicts[i]));
	}
	fputs("],\"labels\":[", f);
	for (i = 0; i < LP_HTML_NVERDICTS; i++) {
		fputs(i ? "," : "", f);
		put_jstrz(f, lp_html_verdict_label(lp_html_verdicts[i]));
	}
	fputc(']', f);
}

static void put_site(FILE *f, const struct lp_hsite *h, const size_t *ids,
		     int flags, struct lp_tree *tree)
{
	const struct lp_judged *s = h->e.s;
	const struct lp_judgement *j = &s->j;
	char *reason = lp_site_reason(&h->e, tree);
	char *written = lp_place_arg_text(h->e.pl);
	size_t clen;
	const char *cond = lp_cond_unwrapped(s->cond, &clen);

	fprintf(f, "[%d,%zu,%ld,%zu,%zu", lp_html_verdict_rank(j->verdict),
		ids[0], h->line, ids[1], ids[2]);
	put_u64(f, j->total.correct);
	put_u64(f, j->total.incorrect);
	put_u64(f, j->evals);
	fputc(',', f);
	if (written)
		put_jstrz(f, written);
	else
		put_jstr(f, cond, clen);
	fputc(',', f);
	put_jstrz(f, reason);
	fprintf(f, ",%zu,%d", h->dot, flags);
	/* the source's words; the compiler's where they differ */
	if (written && (strlen(written) != clen ||
			memcmp(written, cond, clen))) {
		fputc(',', f);
		put_jstr(f, cond, clen);
	}
	fputc(']', f);
	free(written);
	free(reason);
}

/* A source line some site shows, by its file's index and line. */
struct srcline {
	size_t file, line;      /* line from 0 */
	const struct lp_srcfile *sf;
};

static int cmp_srcline(const void *pa, const void *pb)
{
	const struct srcline *a = pa, *b = pb;

	if (a->file != b->file)
		return a->file < b->file ? -1 : 1;
	return (a->line > b->line) - (a->line < b->line);
}

/* Each line that a site shows in its fold, once. */
static void put_sources(FILE *f, const struct srcline *l, size_t n)
{
	size_t i, b, e;

	fputs("],\n\"src\":[", f);
	for (i = 0; i < n; i++) {
		if (i && !cmp_srcline(&l[i], &l[i - 1]))
			continue;
		lp_html_line(l[i].sf, l[i].line, &b, &e);
		fprintf(f, "%s[%zu,%zu,", i ? ",\n" : "\n", l[i].file,
			l[i].line + 1);
		put_jstr(f, l[i].sf->buf + b, e - b);
		fputc(']', f);
	}
}

/* The lines of @h's fold, added to @l; @return : the flag of a source. */
static int add_lines(struct lp_tree *tree, const struct lp_hsite *h,
		     size_t file, struct srcline *l, size_t *nl)
{
	size_t at, k;
	const struct lp_srcfile *sf = tree ? lp_html_source(tree, h, &at) :
		NULL;

	if (!sf)
		return 0;
	for (k = at >= 2 ? at - 2 : 0; k <= at + 2 && k < sf->lx.nlines; k++)
		l[(*nl)++] = (struct srcline){ file, k, sf };
	return F_SOURCE;
}

void lp_html_data(FILE *f, const struct lp_hsite *v, size_t n,
		  struct lp_tree *tree, const struct lp_html_opts *o)
{
	const char **files = lp_xmalloc((n + 1) * sizeof(*files));
	const char **funcs = lp_xmalloc((n + 1) * sizeof(*funcs));
	const char **spells = lp_xmalloc((n + 1) * sizeof(*spells));
	struct srcline *lines = lp_xmalloc((5 * n + 1) * sizeof(*lines));
	struct strtab tf, tfn, tsp;
	size_t i, nl = 0;

	for (i = 0; i < n; i++) {
		const struct lp_place *pl = v[i].e.pl;

		files[i] = v[i].file;
		funcs[i] = v[i].e.s->func ? v[i].e.s->func : "";
		spells[i] = lp_spelling(v[i].e.s, pl && pl->placed ?
					pl->hint->name : NULL, NULL, 0);
	}
	strtab_make(&tf, files, n);
	strtab_make(&tfn, funcs, n);
	strtab_make(&tsp, spells, n);
	put_head(f, tree, o);
	strtab_put(f, "files", &tf);
	strtab_put(f, "funcs", &tfn);
	strtab_put(f, "spells", &tsp);
	fputs(",\n\"sites\":[", f);
	for (i = 0; i < n; i++) {
		size_t ids[3] = { tf.id[i], tfn.id[i], tsp.id[i] };
		int flags = (v[i].stale ? F_STALE : 0) |
			(v[i].e.pl && v[i].e.pl->placed ? F_PLACED : 0) |
			add_lines(tree, &v[i], tf.id[i], lines, &nl);

		fputs(i ? ",\n" : "\n", f);
		put_site(f, &v[i], ids, flags, tree);
	}
	if (nl > 1)
		qsort(lines, nl, sizeof(*lines), cmp_srcline);
	put_sources(f, lines, nl);
	fputs("]}\n</script>\n", f);
	for (i = 0; i < n; i++)
		free((char *)spells[i]);
	free(tf.s);
	free(tf.id);
	free(tfn.s);
	free(tfn.id);
	free(tsp.s);
	free(tsp.id);
	free(lines);
	free(spells);
	free(funcs);
	free(files);
}
