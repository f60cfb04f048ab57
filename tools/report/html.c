/*
 * html.c - the page of `report --format html` and `check --format html`
 *
 * Everything the page shows is in its markup, so that it reads without
 * the script (and in a test's dumped DOM): the script only hides, sorts
 * and switches views, reading what it needs from data- attributes.  The
 * page is bounded: the worst rows in full, the rest counted, so that a
 * profile of a million sites gives a page a browser opens.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/quote.h"
#include "json.h"
#include "report/html.h"
#include "report/page.h"
#include "usage.h"
#include "verdict.h"

/* One site as the page shows it. */
struct hsite {
	struct lp_check_entry e;        /* e.path unused */
	const char *file;               /* as shown and linked */
	long line;
	size_t idx;                     /* in the judged list: file, line */
	int stale;                      /* the tree changed it since */
};

/* The sites of one function or one file, summed. */
struct hgroup {
	const char *file;
	const char *func;               /* NULL for a file */
	size_t sites, change;
	uint64_t correct, incorrect, evals;
};

/* Verdicts in the order that matters to a reader: what to change first. */
static const enum lp_verdict verdict_order[] = {
	LP_VERDICT_FLIP, LP_VERDICT_REMOVE, LP_VERDICT_SETTING,
	LP_VERDICT_UNSURE, LP_VERDICT_FEW, LP_VERDICT_FINE,
	LP_VERDICT_CONSTANT, LP_VERDICT_NEVER,
};

/* Verdicts only some profiles have: listed where a site has one. */
static int verdict_optional(enum lp_verdict v)
{
	return v == LP_VERDICT_UNSURE || v == LP_VERDICT_SETTING;
}
#define NVERDICTS (sizeof(verdict_order) / sizeof(verdict_order[0]))

static const char *verdict_label(enum lp_verdict v)
{
	switch (v) {
	case LP_VERDICT_FEW:
		return "too few";
	case LP_VERDICT_NEVER:
		return "never run";
	case LP_VERDICT_SETTING:
		return "follows a setting";
	default:
		return lp_verdict_name(v);
	}
}

static int verdict_rank(enum lp_verdict v)
{
	size_t i;

	for (i = 0; i < NVERDICTS; i++)
		if (verdict_order[i] == v)
			return (int)i;
	return (int)NVERDICTS;
}

static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/* Percent of the non-constant evaluations that went against the hint. */
static double pct_wrong(uint64_t incorrect, uint64_t evals)
{
	return evals ? 100.0 * (double)incorrect / (double)evals : 0.0;
}

/*-************************************
 *  Escaping
 **************************************/
void lp_html_put(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + n;

	while (p < end && *p) {
		unsigned char seq[5] = { 0 };
		size_t k = (size_t)(end - p) < 4 ? (size_t)(end - p) : 4;

		switch (*p) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		case '\'': fputs("&#39;", f); break;
		case '\t': fputc('\t', f); break;
		default:
			if (*p < 0x20 || *p == 0x7f) {
				fputc(' ', f);
			} else if (*p < 0x80) {
				fputc(*p, f);
			} else if (memcpy(seq, p, k), (k = lp_utf8_len(seq))) {
				/* a sequence cut by @n is not valid */
				fwrite(p, 1, k, f);
				p += k;
				continue;
			} else {
				fputs("\xef\xbf\xbd", f);
			}
		}
		p++;
	}
}

static void put(FILE *f, const char *s)
{
	if (s)
		lp_html_put(f, s, strlen(s));
}

/* A URL from the --link template: {file} percent-encoded, {line}. */
/*
 * The link of a site: the --link template's, or by default the file
 * itself, resolving from wherever the page is: a file:// URL when the
 * tree (--src) placed it or its path is absolute, with the line as the
 * fragment; a relative path from the profile is all that is known
 * otherwise.
 */
static void put_link(FILE *f, const char *tmpl, const char *file, long line,
		     const struct lp_tree *tree)
{
	const char *p;

	if ((!tmpl || !*tmpl) && (tree || file[0] == '/')) {
		fputs("file://", f);
		if (tree && file[0] != '/') {
			lp_uri_put(f, lp_tree_root(tree));
			fputc('/', f);
		}
		lp_uri_put(f, file);
		fprintf(f, "#L%ld", line);
		return;
	}
	if (!tmpl || !*tmpl) {
		lp_uri_put(f, file);
		return;
	}
	for (p = tmpl; *p; p++) {
		if (!strncmp(p, "{file}", 6)) {
			lp_uri_put(f, file);
			p += 5;
		} else if (!strncmp(p, "{line}", 6)) {
			fprintf(f, "%ld", line);
			p += 5;
		} else {
			lp_html_put(f, p, 1);
		}
	}
}

/*-************************************
 *  The sites, worst first
 **************************************/
static int cmp_worst(const void *pa, const void *pb)
{
	const struct hsite *a = pa, *b = pb;
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

static struct hsite *collect(const struct lp_judged_list *sites,
			     const struct lp_place *places,
			     const struct lp_html_opts *o, size_t *nr)
{
	struct hsite *v = lp_xcalloc(sites->nr + 1, sizeof(*v));
	size_t i, n = 0;

	for (i = 0; i < sites->nr; i++) {
		const struct lp_judged *s = &sites->v[i];
		const struct lp_place *pl = places ? &places[i] : NULL;
		struct hsite *h = &v[n];

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
	put(f, o->title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>",
		lp_html_style);
	put(f, o->title);
	fputs("</h1>\n", f);
}

/* The profiles, the thresholds and check's summary, with filter links. */
static void put_summary(FILE *f, const struct hsite *v, size_t n,
			const struct lp_tree *tree,
			const struct lp_html_opts *o)
{
	const struct lp_policy *pol = o->pol;
	size_t count[NVERDICTS] = { 0 }, i;

	fputs("<p>Profiles: ", f);
	for (i = 0; i < o->ninputs; i++) {
		fputs(i ? ", <code>" : "<code>", f);
		put(f, o->inputs[i]);
		fputs("</code>", f);
	}
	if (o->workload) {
		fputs(", of ", f);
		put(f, o->workload);
	}
	fprintf(f, ". Verdicts as <code>likelyprof check</code> gives "
		"them: remove at %g%% wrong, flip at %g%%%s in every "
		"profile, nothing said below %llu evaluations.</p>\n",
		pol->remove_at, pol->flip_at, pol->no_flip ? " (off)" : "",
		(unsigned long long)pol->min_hits);
	for (i = 0; i < n; i++)
		count[verdict_rank(v[i].e.s->j.verdict)]++;
	fprintf(f, "<p id=\"summary\"><a href=\"#verdict=change\">%zu of "
		"%zu site%s to change</a>", count[0] + count[1], n,
		lp_plural(n));
	for (i = 0; i < NVERDICTS; i++)
		/* only a profile from a binary has unsure sites */
		if (count[i] || !verdict_optional(verdict_order[i]))
			fprintf(f, "%s<a href=\"#verdict=%s\">%zu %s</a>",
				i ? ", " : ": ",
				lp_verdict_name(verdict_order[i]), count[i],
				verdict_label(verdict_order[i]));
	fputs("</p>\n", f);
	if (!count[0] && !count[1])
		return;
	fputs("<p>To change them: <code>likelyprof fix --src ", f);
	put(f, tree ? lp_tree_root(tree) : "DIR");
	for (i = 0; i < o->ninputs; i++) {
		fputc(' ', f);
		put(f, o->inputs[i]);
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
	for (i = 0; i < NVERDICTS; i++)
		fprintf(f, "<option value=\"%s\">%s</option>",
			lp_verdict_name(verdict_order[i]),
			verdict_label(verdict_order[i]));
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
 *  The chart
 **************************************/
#define CH_W 900
#define CH_H 300
#define CH_L 48         /* room for the percent labels */
#define CH_B 34         /* and for the evaluations' */
#define CH_T 10
#define CH_R 12
#define CH_ZERO 24      /* room left of 1 for the never-run sites */

struct chart {
	int decades;    /* the x axis spans 10^0 .. 10^decades */
};

/*
 * log10 without libm, which the command does not link: the digits give
 * the whole part, squaring the rest in [1, 10) gives a bit a turn.
 */
static double log10_u64(uint64_t n)
{
	double x = (double)n, lg = 0, bit = 0.5;
	int i;

	while (x >= 10) {
		x /= 10;
		lg += 1;
	}
	for (i = 0; i < 16; i++, bit /= 2) {
		x *= x;
		if (x >= 10) {
			x /= 10;
			lg += bit;
		}
	}
	return lg;
}

static double ch_x(const struct chart *c, uint64_t evals)
{
	double span = CH_W - CH_L - CH_R - CH_ZERO;

	if (!evals)
		return CH_L + 4;
	return CH_L + CH_ZERO + span * log10_u64(evals) / c->decades;
}

static double ch_y(double pct)
{
	return CH_T + (100.0 - pct) * (CH_H - CH_T - CH_B) / 100.0;
}

static void put_axes(FILE *f, const struct chart *c,
		     const struct lp_policy *pol)
{
	uint64_t p = 1;
	int d, y;

	for (y = 0; y <= 100; y += 25)
		fprintf(f, "<line class=\"grid\" x1=\"%d\" x2=\"%d\" "
			"y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
			"text-anchor=\"end\">%d%%</text>\n", CH_L, CH_W - CH_R,
			ch_y(y), ch_y(y), CH_L - 4, ch_y(y) + 4, y);
	for (d = 0; d <= c->decades; d++, p *= 10)
		fprintf(f, "<line class=\"grid\" x1=\"%.1f\" x2=\"%.1f\" "
			"y1=\"%d\" y2=\"%d\"/><text x=\"%.1f\" y=\"%d\" "
			"text-anchor=\"middle\">1e%d</text>\n",
			ch_x(c, p), ch_x(c, p), CH_T, CH_H - CH_B,
			ch_x(c, p), CH_H - CH_B + 14, d);
	fprintf(f, "<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">0"
		"</text>\n<text x=\"%d\" y=\"%d\" text-anchor=\"middle\">"
		"evaluations (log scale)</text>\n<line class=\"axis\" "
		"x1=\"%d\" x2=\"%d\" y1=\"%d\" y2=\"%d\"/>\n", CH_L + 4,
		CH_H - CH_B + 14, (CH_W + CH_L) / 2, CH_H - 4, CH_L,
		CH_W - CH_R, CH_H - CH_B, CH_H - CH_B);
	fprintf(f, "<g class=\"thr\"><line id=\"thr-remove\" stroke=\"#e8710a\" "
		"x1=\"%d\" x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%d\" "
		"y=\"%.1f\" text-anchor=\"end\">remove at %g%%</text>\n",
		CH_L, CH_W - CH_R, ch_y(pol->remove_at), ch_y(pol->remove_at),
		CH_W - CH_R, ch_y(pol->remove_at) - 3, pol->remove_at);
	fprintf(f, "<line id=\"thr-flip\" stroke=\"#b3261e\" x1=\"%d\" "
		"x2=\"%d\" y1=\"%.1f\" y2=\"%.1f\"/><text x=\"%d\" y=\"%.1f\" "
		"text-anchor=\"end\">flip at %g%%</text>\n", CH_L, CH_W - CH_R,
		ch_y(pol->flip_at), ch_y(pol->flip_at), CH_W - CH_R,
		ch_y(pol->flip_at) + 12, pol->flip_at);
	fprintf(f, "<line id=\"thr-min\" stroke=\"#888\" x1=\"%.1f\" "
		"x2=\"%.1f\" y1=\"%d\" y2=\"%d\"/><text x=\"%.1f\" y=\"%d\">"
		"%llu evaluations</text></g>\n", ch_x(c, pol->min_hits),
		ch_x(c, pol->min_hits), CH_T, CH_H - CH_B,
		ch_x(c, pol->min_hits) + 3, CH_H - CH_B - 4,
		(unsigned long long)pol->min_hits);
}

/*
 * One dot per site shown in full, drawn the best first so that the
 * wrong ones lie on top; a dot's title is the site's warning.
 */
static void put_chart(FILE *f, const struct hsite *v, size_t n,
		      char *const *msgs, const struct lp_html_opts *o)
{
	struct chart c = { 1 };
	uint64_t most = o->pol->min_hits, p = 10;
	size_t i;

	for (i = 0; i < n; i++)
		if (v[i].e.s->j.evals > most)
			most = v[i].e.s->j.evals;
	/* as many decades as the busiest site needs, 10^19 at most */
	while (p < most && c.decades < 19) {
		p *= 10;
		c.decades++;
	}
	fprintf(f, "<h2>Evaluations and percent wrong</h2>\n<svg id=\"chart\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"one dot per "
		"site\">\n", CH_W, CH_H, CH_W, CH_H);
	put_axes(f, &c, o->pol);
	for (i = n; i-- > 0;) {
		const struct lp_judgement *j = &v[i].e.s->j;

		fprintf(f, "<circle id=\"d%zu\" class=\"%s\" cx=\"%.1f\" "
			"cy=\"%.1f\" r=\"%d\"><title>", i,
			lp_verdict_name(j->verdict), ch_x(&c, j->evals),
			ch_y(pct_wrong(j->total.incorrect, j->evals)),
			lp_verdict_changes(j->verdict) ? 4 : 3);
		put(f, v[i].file);
		fprintf(f, ":%ld: ", v[i].line);
		put(f, msgs[i]);
		fputs("</title></circle>\n", f);
	}
	fputs("</svg>\n", f);
}

/*-************************************
 *  The table of sites
 **************************************/
/* Bytes [*b, *e) of line @l (from 0) of @sf, without its newline. */
static void line_span(const struct lp_srcfile *sf, size_t l, size_t *b,
		      size_t *e)
{
	*b = sf->lx.line_start[l];
	*e = l + 1 < sf->lx.nlines ? sf->lx.line_start[l + 1] : sf->len;
	while (*e > *b && (sf->buf[*e - 1] == '\n' || sf->buf[*e - 1] == '\r'))
		(*e)--;
	/* a minified line must not make the page huge */
	if (*e - *b > 200)
		*e = *b + 200;
}

/* The site's line, and in a fold it and two lines each side. */
static void put_source(FILE *f, struct lp_tree *tree, const struct hsite *h)
{
	const struct lp_place *pl = h->e.pl;
	struct lp_srcfile *sf = pl && pl->placed ? pl->call_file : NULL;
	char *err = NULL;
	size_t l, first, last, at, b, e;

	if (sf && !sf->loaded && lp_srcfile_load(tree, sf, &err)) {
		free(err);
		sf = NULL;
	}
	at = pl && pl->line ? pl->line - 1 : 0;
	if (!sf || at >= sf->lx.nlines) {
		fputs("<td></td>", f);
		return;
	}
	first = at >= 2 ? at - 2 : 0;
	last = at + 2 < sf->lx.nlines ? at + 2 : sf->lx.nlines - 1;
	line_span(sf, at, &b, &e);
	fputs("<td><details><summary><code>", f);
	lp_html_put(f, sf->buf + b, e - b);
	fputs("</code></summary><pre>", f);
	for (l = first; l <= last; l++) {
		line_span(sf, l, &b, &e);
		fprintf(f, "%s%5zu  ", l == at ? "<mark>" : "", l + 1);
		lp_html_put(f, sf->buf + b, e - b);
		fputs(l == at ? "</mark>\n" : "\n", f);
	}
	fputs("</pre></details></td>", f);
}

static void put_count(FILE *f, uint64_t n)
{
	fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)n);
}

/*
 * Percent wrong in tenths rounded down, as check's percent is: 99.99%
 * must not read 100.0.  Sorted by the exact value.
 */
static void put_pct(FILE *f, uint64_t incorrect, uint64_t evals)
{
	unsigned long long t;

	if (!evals) {
		fputs("<td class=\"n\" data-s=\"-1\">&ndash;</td>", f);
		return;
	}
	t = (unsigned long long)((unsigned __int128)incorrect * 1000 / evals);
	fprintf(f, "<td class=\"n\" data-s=\"%.4f\">%llu.%llu</td>",
		pct_wrong(incorrect, evals), t / 10, t % 10);
}

static void put_site(FILE *f, size_t i, const struct hsite *h,
		     const char *msg, struct lp_tree *tree,
		     const struct lp_html_opts *o)
{
	const struct lp_judged *s = h->e.s;
	const struct lp_judgement *j = &s->j;
	const char *name = h->e.pl && h->e.pl->placed ?
		h->e.pl->hint->name : NULL;
	char *spell = lp_spelling(s, name, NULL, 0);
	const char *vn = lp_verdict_name(j->verdict);
	double pct = pct_wrong(j->total.incorrect, j->evals);
	const char *cond;
	char *written;
	size_t clen;

	fprintf(f, "<tr id=\"s%zu\" data-v=\"%s\" data-n=\"%llu\" "
		"data-file=\"", i, vn, (unsigned long long)j->evals);
	put(f, h->file);
	fputs("\" data-func=\"", f);
	put(f, s->func);
	fputs("\"><td><code>", f);
	put(f, spell);
	fprintf(f, "</code></td><td data-s=\"%d\"><span class=\"v %s\">%s"
		"</span><div class=\"why\">", verdict_rank(j->verdict), vn,
		verdict_label(j->verdict));
	put(f, msg);
	if (h->stale)
		fputs("; the tree changed it since the profile", f);
	fputs("</div></td>", f);
	put_count(f, j->total.correct);
	put_count(f, j->total.incorrect);
	put_pct(f, j->total.incorrect, j->evals);
	fprintf(f, "<td><span class=\"bar\"><i class=\"%s\" style=\"width:"
		"%.1f%%\"></i></span></td><td>", vn, pct);
	put(f, s->func);
	fputs("</td><td data-s=\"", f);
	put(f, h->file);
	fprintf(f, ":%010ld\"><a href=\"", h->line);
	put_link(f, o->link, h->file, h->line,
		 h->e.pl && h->e.pl->placed ? tree : NULL);
	fputs("\">", f);
	put(f, h->file);
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
		put(f, written);
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
	fputs("<table id=\"sites\" data-p=\"\">\n<thead><tr>"
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
static void put_rest(FILE *f, const struct hsite *v, size_t from, size_t n)
{
	size_t count[NVERDICTS] = { 0 }, i;
	uint64_t evals[NVERDICTS] = { 0 }, wrong[NVERDICTS] = { 0 };

	if (from >= n)
		return;
	for (i = from; i < n; i++) {
		const struct lp_judgement *j = &v[i].e.s->j;
		int r = verdict_rank(j->verdict);

		count[r]++;
		evals[r] = sat_add(evals[r], j->evals);
		wrong[r] = sat_add(wrong[r], j->total.incorrect);
	}
	fprintf(f, "<h2>The other %zu site%s</h2>\n<table id=\"rest\">\n"
		"<thead><tr><th>verdict</th><th>sites</th><th>evaluations"
		"</th><th>incorrect</th></tr></thead>\n<tbody>\n", n - from,
		lp_plural(n - from));
	for (i = 0; i < NVERDICTS; i++) {
		if (!count[i])
			continue;
		fprintf(f, "<tr data-v=\"%s\"><td>%s</td>",
			lp_verdict_name(verdict_order[i]),
			verdict_label(verdict_order[i]));
		fprintf(f, "<td class=\"n\">%zu</td>", count[i]);
		put_count(f, evals[i]);
		put_count(f, wrong[i]);
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/*-************************************
 *  Views by function and by file
 **************************************/
static int cmp_by_func(const void *pa, const void *pb)
{
	const struct hsite *a = *(const struct hsite *const *)pa;
	const struct hsite *b = *(const struct hsite *const *)pb;

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
static struct hgroup *group(const struct hsite *v, size_t n, int by_func,
			    size_t *ngroups)
{
	const struct hsite **p = lp_xmalloc((n + 1) * sizeof(*p));
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
	put(f, g->file);
	fputs("\"", f);
	if (g->func) {
		fputs(" data-func=\"", f);
		put(f, g->func);
		fputs("\"><td><a href=\"#func=", f);
		lp_uri_put(f, g->func);
		fputs("&amp;file=", f);
		lp_uri_put(f, g->file);
		fputs("\">", f);
		put(f, g->func);
		fputs("</a></td><td>", f);
		put(f, g->file);
	} else {
		fputs("><td><a href=\"#file=", f);
		lp_uri_put(f, g->file);
		fputs("\">", f);
		put(f, g->file);
		fputs("</a>", f);
	}
	fprintf(f, "</td><td class=\"n\">%zu</td><td class=\"n\">%zu</td>",
		g->sites, g->change);
	put_count(f, g->evals);
	put_count(f, g->incorrect);
	put_pct(f, g->incorrect, g->evals);
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
		"<table id=\"%s\" data-p=\"%s.\">\n<thead><tr>", id,
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
	put_count(f, total.evals);
	put_count(f, total.incorrect);
	put_pct(f, total.incorrect, total.evals);
	fputs("</tr>", f);
	fputs("</tfoot></table>\n", f);
	if (shown < ng)
		fprintf(f, "<p>The other %zu %s%s, with fewer sites to change "
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
	struct hsite *v = collect(sites, places, o, &n);
	struct hgroup *funcs = group(v, n, 1, &nfuncs);
	struct hgroup *files = group(v, n, 0, &nfiles);
	char **msgs;

	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_worst);

	shown = n < o->rows ? n : o->rows;
	msgs = lp_xcalloc(shown + 1, sizeof(*msgs));
	for (i = 0; i < shown; i++)
		msgs[i] = lp_site_message(&v[i].e, tree);
	put_head(f, o);
	put_summary(f, v, n, tree, o);
	put_chart(f, v, shown, msgs, o);
	put_controls(f);
	fprintf(f, "<section class=\"view\" id=\"view-sites\">\n<h2>Sites"
		"</h2>\n<p>The %s%zu site%s, those to change first, most "
		"evaluations wrong first. Click a heading to sort.</p>\n",
		shown < n ? "worst " : "", shown, lp_plural(shown));
	put_sites_head(f, tree != NULL);
	for (i = 0; i < shown; i++)
		put_site(f, i, &v[i], msgs[i], tree, o);
	fputs("</tbody></table>\n", f);
	put_rest(f, v, shown, n);
	fputs("</section>\n", f);
	put_groups(f, funcs, nfuncs, 1, o->rows);
	put_groups(f, files, nfiles, 0, o->rows);
	fprintf(f, "<script>\n%s</script>\n</body>\n</html>\n", lp_html_script);
	for (i = 0; i < shown; i++)
		free(msgs[i]);
	free(msgs);
	free(funcs);
	free(files);
	free(v);
}
