/*
 * html.c - the page of `report --format html` and `check --format html`
 *
 * The markup holds the worst --rows sites, functions and files, and
 * counts the rest, so that the page reads without its script.  Every
 * site is in the page's data (data.c), from which the script draws the
 * tables a page of rows at a time: a browser lays out 250 rows at once,
 * where 100k would take it many seconds.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/quote.h"
#include "json.h"
#include "report/chart.h"
#include "report/data.h"
#include "report/html.h"
#include "report/page.h"
#include "report/site.h"
#include "usage.h"
#include "verdict.h"

/* The sites of one function or one file, summed. */
struct hgroup {
	const char *file;
	const char *func;               /* NULL for a file */
	size_t sites, change;
	uint64_t correct, incorrect, evals;
};

/* Verdicts only some profiles have: listed where a site has one. */
static int verdict_optional(enum lp_verdict v)
{
	return v == LP_VERDICT_UNSURE || v == LP_VERDICT_SETTING ||
	       v == LP_VERDICT_RESTATE;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*-************************************
 *  The sites, worst first
 **************************************/
static int cmp_worst(const void *pa, const void *pb)
{
	const struct lp_hsite *a = pa, *b = pb;
	const struct lp_judgement *x = &a->e.s->j, *y = &b->e.s->j;
	int cx = lp_verdict_changes(x->verdict) && !a->stale;
	int cy = lp_verdict_changes(y->verdict) && !b->stale;

	if (cx != cy)
		return cy - cx;
	if (x->total.incorrect != y->total.incorrect)
		return x->total.incorrect < y->total.incorrect ? 1 : -1;
	if (x->evals != y->evals)
		return x->evals < y->evals ? 1 : -1;
	/* the list's order is by file and line, without a strcmp */
	return (a->idx > b->idx) - (a->idx < b->idx);
}

static struct lp_hsite *collect(const struct lp_judged_list *sites,
			     const struct lp_place *places,
			     const struct lp_html_opts *o, size_t *nr)
{
	struct lp_hsite *v = lp_xcalloc(sites->nr + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < sites->nr; i++) {
		const struct lp_judged *s = &sites->v[i];
		const struct lp_place *pl = places ? &places[i] : NULL;
		struct lp_hsite *h = &v[n];

		if (o->omit_below && s->j.evals < o->omit_below)
			continue;
		h->e.s = s;
		h->e.pl = pl;
		h->e.workload = o->workload;
		h->idx = i;
		h->stale = lp_verdict_changes(s->j.verdict) &&
			lp_place_stale(pl);
		if (pl && pl->placed) {
			h->file = pl->call_file->rel;
			h->line = pl->line;
		} else {
			h->file = s->file;
			h->line = s->line;
		}
		n++;
	}
	*nr = n;
	return v;
}


static void put_head(FILE *f, const struct lp_html_opts *o)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>", f);
	lp_html_puts(f, o->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
		lp_html_style);
	lp_html_puts(f, o->title);
	fputs("</h1>\n", f);
}

/* The profiles, the thresholds and check's summary, with filter links. */
static void put_summary(FILE *f, const struct lp_hsite *v, size_t n,
			const struct lp_tree *tree,
			const struct lp_html_opts *o)
{
	const struct lp_policy *pol = o->pol;
	size_t count[LP_HTML_NVERDICTS] = { 0 }, i;

	fputs("<p>Profiles: ", f);
	for (i = 0; i < o->ninputs; i++) {
		fputs(i ? ", <code>" : "<code>", f);
		lp_html_puts(f, o->inputs[i]);
		fputs("</code>", f);
	}
	if (o->workload) {
		fputs(", of ", f);
		lp_html_puts(f, o->workload);
	}
	fprintf(f, ". Verdicts as <code>likelyprof check</code> gives "
		"them: remove at %g%% wrong, flip at %g%%%s in every "
		"profile, nothing said below %llu evaluations.</p>\n",
		pol->remove_at, pol->flip_at, pol->no_flip ? " (off)" : "",
		(unsigned long long)pol->min_hits);
	for (i = 0; i < n; i++)
		count[lp_html_verdict_rank(v[i].e.s->j.verdict)]++;
	fprintf(f, "<p id=\"summary\"><a href=\"#verdict=change\">%zu of "
		"%zu site%s to change</a>", count[0] + count[1] + count[2], n,
		lp_plural(n));
	for (i = 0; i < LP_HTML_NVERDICTS; i++)
		/* only a profile from a binary has unsure sites */
		if (count[i] || !verdict_optional(lp_html_verdicts[i]))
			fprintf(f, "%s<a href=\"#verdict=%s\">%zu %s</a>",
				i ? ", " : ": ",
				lp_verdict_name(lp_html_verdicts[i]), count[i],
				lp_html_verdict_label(lp_html_verdicts[i]));
	fputs("</p>\n", f);
	if (!count[0] && !count[1] && !count[2])
		return;
	fputs("<p>To change them: <code>likelyprof fix --src ", f);
	lp_html_puts(f, tree ? lp_tree_root(tree) : "DIR");
	for (i = 0; i < o->ninputs; i++) {
		fputc(' ', f);
		lp_html_puts(f, o->inputs[i]);
	}
	fputs(" &gt; fixes.mbox</code> writes the patches (one per "
	      "function, quoting the counts) for <code>git am</code>.</p>\n",
	      f);
}

static void put_controls(FILE *f)
{
	size_t i;

	fputs("<form id=\"filters\" onsubmit=\"return false\">"
	      "<label>verdict <select name=\"verdict\">"
	      "<option value=\"\">all</option>"
	      "<option value=\"change\">to change</option>", f);
	for (i = 0; i < LP_HTML_NVERDICTS; i++)
		fprintf(f, "<option value=\"%s\">%s</option>",
			lp_verdict_name(lp_html_verdicts[i]),
			lp_html_verdict_label(lp_html_verdicts[i]));
	fputs("</select></label>\n<label>file <input name=\"file\" "
	      "type=\"search\" size=\"16\"></label>\n<label>function "
	      "<input name=\"func\" type=\"search\" size=\"16\"></label>\n"
	      "<label>evaluations &ge; <input name=\"min\" type=\"number\" "
	      "min=\"0\" style=\"width:8em\"></label>\n"
	      "<span id=\"shown\"></span></form>\n"
	      "<p id=\"views\">View: <button type=\"button\" "
	      "data-view=\"sites\">sites</button> <button type=\"button\" "
	      "data-view=\"functions\">by function</button> <button "
	      "type=\"button\" data-view=\"files\">by file</button></p>\n", f);
}

/*-************************************
 *  The table of sites
 **************************************/
/* The site's line, and in a fold it and two lines each side. */
static void put_source(FILE *f, struct lp_tree *tree, const struct lp_hsite *h)
{
	size_t l, first, last, at, b, e;
	const struct lp_srcfile *sf = lp_html_source(tree, h, &at);

	if (!sf) {
		fputs("<td></td>", f);
		return;
	}
	first = at >= 2 ? at - 2 : 0;
	last = at + 2 < sf->lx.nlines ? at + 2 : sf->lx.nlines - 1;
	lp_html_line(sf, at, &b, &e);
	fputs("<td><details><summary><code>", f);
	lp_html_put(f, sf->buf + b, e - b);
	fputs("</code></summary><pre>", f);
	for (l = first; l <= last; l++) {
		lp_html_line(sf, l, &b, &e);
		fprintf(f, "%s%5zu  ", l == at ? "<mark>" : "", l + 1);
		lp_html_put(f, sf->buf + b, e - b);
		fputs(l == at ? "</mark>\n" : "\n", f);
	}
	fputs("</pre></details></td>", f);
}

static void put_site(FILE *f, size_t i, const struct lp_hsite *h,
		     const char *msg, struct lp_tree *tree,
		     const struct lp_html_opts *o)
{
	const struct lp_judged *s = h->e.s;
	const struct lp_judgement *j = &s->j;
	const char *name = h->e.pl && h->e.pl->placed ?
		h->e.pl->hint->name : NULL;
	char *spell = lp_spelling(s, name, NULL, 0);
	const char *vn = lp_verdict_name(j->verdict);
	double pct = lp_html_pct(j->total.incorrect, j->evals);
	const char *cond;
	char *written;
	size_t clen;

	fprintf(f, "<tr id=\"s%zu\" data-v=\"%s\" data-n=\"%llu\" "
		"data-file=\"", i, vn, (unsigned long long)j->evals);
	lp_html_puts(f, h->file);
	fputs("\" data-func=\"", f);
	lp_html_puts(f, s->func);
	fputs("\"><td><code>", f);
	lp_html_puts(f, spell);
	fprintf(f, "</code></td><td data-s=\"%d\"><span class=\"v %s\">%s"
		"</span><div class=\"why\">", lp_html_verdict_rank(j->verdict),
		vn,
		lp_html_verdict_label(j->verdict));
	lp_html_puts(f, msg);
	if (h->stale)
		fputs("; the tree changed it since the profile", f);
	fputs("</div></td>", f);
	lp_html_count(f, j->total.correct);
	lp_html_count(f, j->total.incorrect);
	lp_html_pct_cell(f, j->total.incorrect, j->evals);
	fprintf(f, "<td><span class=\"bar\"><i class=\"%s\" style=\"width:"
		"%.1f%%\"></i></span></td><td>", vn, pct);
	lp_html_puts(f, s->func);
	fputs("</td><td data-s=\"", f);
	lp_html_puts(f, h->file);
	fprintf(f, ":%010ld\"><a href=\"", h->line);
	lp_html_site_link(f, o, h->file, h->line,
			  h->e.pl && h->e.pl->placed ? tree : NULL);
	fputs("\">", f);
	lp_html_puts(f, h->file);
	fprintf(f, ":%ld</a></td><td><code", h->line);
	cond = lp_cond_unwrapped(s->cond, &clen);
	/* the source's words; the compiler's, where they differ, on hover */
	written = lp_place_arg_text(h->e.pl);
	if (written && (strlen(written) != clen ||
			memcmp(written, cond, clen))) {
		fputs(" title=\"", f);
		lp_html_put(f, cond, clen);
		fputs("\"", f);
	}
	fputc('>', f);
	if (written)
		lp_html_puts(f, written);
	else
		lp_html_put(f, cond, clen);
	fputs("</code></td>", f);
	free(written);
	if (tree)
		put_source(f, tree, h);
	fputs("</tr>\n", f);
	free(spell);
}

static void put_sites_head(FILE *f, int src)
{
	fputs("<div class=\"box\"><table id=\"sites\" data-p=\"\">\n<thead><tr>"
	      "<th data-key=\"annotation\">annotation</th>"
	      "<th data-key=\"verdict\" class=\"num\">verdict</th>"
	      "<th data-key=\"correct\" class=\"num\">correct</th>"
	      "<th data-key=\"incorrect\" class=\"num\">incorrect</th>"
	      "<th data-key=\"wrong\" class=\"num\">% wrong</th><th></th>"
	      "<th data-key=\"function\">function</th>"
	      "<th data-key=\"file\">file:line</th>"
	      "<th data-key=\"condition\">condition</th>", f);
	if (src)
		fputs("<th>source</th>", f);
	fputs("</tr></thead>\n<tbody>\n", f);
}

/* The sites not shown in full, a line per verdict. */
static void put_rest(FILE *f, const struct lp_hsite *v, size_t from, size_t n)
{
	size_t count[LP_HTML_NVERDICTS] = { 0 }, i;
	uint64_t evals[LP_HTML_NVERDICTS] = { 0 };
	uint64_t wrong[LP_HTML_NVERDICTS] = { 0 };

	if (from >= n)
		return;
	for (i = from; i < n; i++) {
		const struct lp_judgement *j = &v[i].e.s->j;
		int r = lp_html_verdict_rank(j->verdict);

		count[r]++;
		evals[r] = sat_add(evals[r], j->evals);
		wrong[r] = sat_add(wrong[r], j->total.incorrect);
	}
	fprintf(f, "<div class=\"bounded\"><h2>The other %zu site%s</h2>\n"
		"<table id=\"rest\">\n"
		"<thead><tr><th>verdict</th><th>sites</th><th>evaluations"
		"</th><th>incorrect</th></tr></thead>\n<tbody>\n", n - from,
		lp_plural(n - from));
	for (i = 0; i < LP_HTML_NVERDICTS; i++) {
		if (!count[i])
			continue;
		fprintf(f, "<tr data-v=\"%s\"><td>%s</td>",
			lp_verdict_name(lp_html_verdicts[i]),
			lp_html_verdict_label(lp_html_verdicts[i]));
		fprintf(f, "<td class=\"n\">%zu</td>", count[i]);
		lp_html_count(f, evals[i]);
		lp_html_count(f, wrong[i]);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table></div>\n", f);
}

/*-************************************
 *  Views by function and by file
 **************************************/
static int cmp_by_func(const void *pa, const void *pb)
{
	const struct lp_hsite *a = *(const struct lp_hsite *const *)pa;
	const struct lp_hsite *b = *(const struct lp_hsite *const *)pb;

	return strcmp(a->e.s->func ? a->e.s->func : "",
		      b->e.s->func ? b->e.s->func : "");
}

static int cmp_group(const void *pa, const void *pb)
{
	const struct hgroup *a = pa, *b = pb;

	if (a->change != b->change)
		return a->change < b->change ? 1 : -1;
	if (a->incorrect != b->incorrect)
		return a->incorrect < b->incorrect ? 1 : -1;
	return (a->evals < b->evals) - (a->evals > b->evals);
}

/*
 * Sums @v, in the judged list's order (by file), by file or by file and
 * function: a file's sites are together already, its functions are put
 * together by sorting each file's run alone.  The caller frees.
 *
 * NEEDSWORK: with --src, two profile paths that the locator puts in one
 * tree file but the judge kept apart make two rows of that file.
 */
static struct hgroup *group(const struct lp_hsite *v, size_t n, int by_func,
			    size_t *ngroups)
{
	const struct lp_hsite **p = lp_xmalloc((n + 1) * sizeof(*p));
	struct hgroup *g = lp_xcalloc(n + 1, sizeof(*g));
	size_t i, run = 0, k = 0;

	for (i = 0; i < n; i++) {
		p[i] = &v[i];
		if (i + 1 < n && !strcmp(v[i].file, v[i + 1].file))
			continue;
		if (by_func && i > run)
			qsort(p + run, i + 1 - run, sizeof(*p), cmp_by_func);
		run = i + 1;
	}
	for (i = 0; i < n; i++) {
		const struct lp_judgement *j = &p[i]->e.s->j;
		struct hgroup *x;

		if (!k || strcmp(p[i]->file, p[i - 1]->file) ||
		    (by_func && cmp_by_func(&p[i], &p[i - 1])))
			g[k++] = (struct hgroup){ p[i]->file, by_func ?
				(p[i]->e.s->func ? p[i]->e.s->func : "") :
				NULL, 0, 0, 0, 0, 0 };
		x = &g[k - 1];
		x->sites++;
		x->change += lp_verdict_changes(j->verdict) && !p[i]->stale;
		x->correct = sat_add(x->correct, j->total.correct);
		x->incorrect = sat_add(x->incorrect, j->total.incorrect);
		x->evals = sat_add(x->evals, j->evals);
	}
	free(p);
	if (k > 1)
		qsort(g, k, sizeof(*g), cmp_group);
	*ngroups = k;
	return g;
}

static void put_group_row(FILE *f, const struct hgroup *g)
{
	fputs("<tr data-file=\"", f);
	lp_html_puts(f, g->file);
	fputs("\"", f);
	if (g->func) {
		fputs(" data-func=\"", f);
		lp_html_puts(f, g->func);
		fputs("\"><td><a href=\"#func=", f);
		lp_uri_put(f, g->func);
		fputs("&amp;file=", f);
		lp_uri_put(f, g->file);
		fputs("\">", f);
		lp_html_puts(f, g->func);
		fputs("</a></td><td>", f);
		lp_html_puts(f, g->file);
	} else {
		fputs("><td><a href=\"#file=", f);
		lp_uri_put(f, g->file);
		fputs("\">", f);
		lp_html_puts(f, g->file);
		fputs("</a>", f);
	}
	fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>",
		g->sites, g->change);
	lp_html_count(f, g->evals);
	lp_html_count(f, g->incorrect);
	lp_html_pct_cell(f, g->incorrect, g->evals);
	fputs("</tr>\n", f);
}

static void put_groups(FILE *f, const struct hgroup *g, size_t ng, int by_func,
		       size_t rows)
{
	const char *id = by_func ? "functions" : "files";
	size_t i, shown;
	struct hgroup total = { "(all)", by_func ? "(all)" : NULL,
				0, 0, 0, 0, 0 };

	fprintf(f, "<section class=\"view\" id=\"view-%s\">\n<h2>By %s</h2>\n"
		"<div class=\"box\"><table id=\"%s\" data-p=\"%s.\">\n"
		"<thead><tr>", id,
		by_func ? "function" : "file", id, by_func ? "fn" : "fl");
	if (by_func)
		fputs("<th data-key=\"function\">function</th>", f);
	fputs("<th data-key=\"file\">file</th><th data-key=\"sites\" "
	      "class=\"num\">sites</th><th data-key=\"change\" class=\"num\">"
	      "to change</th><th data-key=\"evaluations\" class=\"num\">"
	      "evaluations</th><th data-key=\"incorrect\" class=\"num\">"
	      "incorrect</th><th data-key=\"wrong\" class=\"num\">% wrong"
	      "</th></tr></thead>\n<tbody>\n", f);
	shown = ng < rows ? ng : rows;
	for (i = 0; i < ng; i++) {
		if (i < shown)
			put_group_row(f, &g[i]);
		total.sites += g[i].sites;
		total.change += g[i].change;
		total.correct = sat_add(total.correct, g[i].correct);
		total.incorrect = sat_add(total.incorrect, g[i].incorrect);
		total.evals = sat_add(total.evals, g[i].evals);
	}
	fputs("</tbody>\n<tfoot>", f);
	total.file = "";
	fprintf(f, "<tr><th colspan=\"%d\">total of %zu %s%s</th>"
		"<td class=\"n\">%zu</td><td class=\"n\">%zu</td>",
		by_func ? 2 : 1, ng, by_func ? "function" : "file",
		ng == 1 ? "" : "s", total.sites, total.change);
	lp_html_count(f, total.evals);
	lp_html_count(f, total.incorrect);
	lp_html_pct_cell(f, total.incorrect, total.evals);
	fputs("</tr>", f);
	fputs("</tfoot></table></div>\n", f);
	if (shown < ng)
		fprintf(f, "<p class=\"bounded\">The other %zu %s%s, with fewer sites to change "
			"and fewer wrong evaluations, are in the totals "
			"only.</p>\n", ng - shown, by_func ? "function" : "file",
			ng - shown == 1 ? "" : "s");
	fputs("</section>\n", f);
}

/*-************************************
 *  The script
 **************************************/

/*-************************************
 *  The page
 **************************************/
void lp_html_write(FILE *f, const struct lp_judged_list *sites,
		   const struct lp_place *places, struct lp_tree *tree,
		   const struct lp_html_opts *o)
{
	size_t n, shown, i, nfuncs, nfiles;
	struct lp_hsite *v = collect(sites, places, o, &n);
	struct hgroup *funcs = group(v, n, 1, &nfuncs);
	struct hgroup *files = group(v, n, 0, &nfiles);

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_worst);
	shown = n < o->rows ? n : o->rows;
	put_head(f, o);
	put_summary(f, v, n, tree, o);
	lp_html_chart(f, v, n, tree, o->pol);
	put_controls(f);
	fprintf(f, "<section class=\"view\" id=\"view-sites\">\n<h2>Sites"
		"</h2>\n<p id=\"intro\">The %s%zu site%s, those to change "
		"first, most evaluations wrong first. Click a heading to "
		"sort.</p>\n", shown < n ? "worst " : "", shown,
		lp_plural(shown));
	put_sites_head(f, tree != NULL);
	for (i = 0; i < shown; i++) {
		char *reason = lp_site_reason(&v[i].e, tree);

		put_site(f, i, &v[i], reason, tree, o);
		free(reason);
	}
	fputs("</tbody></table></div>\n", f);
	put_rest(f, v, shown, n);
	fputs("</section>\n", f);
	put_groups(f, funcs, nfuncs, 1, o->rows);
	put_groups(f, files, nfiles, 0, o->rows);
	lp_html_data(f, v, n, tree, o);
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", lp_html_script);
	free(funcs);
	free(files);
	free(v);
}
