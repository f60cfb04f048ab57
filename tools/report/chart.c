/*
 * chart.c - the page's chart: evaluations across on a log scale, percent
 * wrong up, one dot per site, the thresholds as lines (chart.h)
 *
 * A profile of 100k sites has thousands at the same place (never run,
 * right every time): a dot each would cover each other and make the
 * page slow to draw, so the sites of one verdict that fall in one cell
 * of CH_CELL pixels are one dot, sized by their count, whose title says
 * how many and names the first of them; the page's script lists them all
 * on a click.
 */
#include <stdlib.h>
#include <string.h>

#include "report/chart.h"
#include "usage.h"

#define CH_W 900
#define CH_H 300
#define CH_L 48         /* room for the percent labels */
#define CH_B 34         /* and for the evaluations' */
#define CH_T 10
#define CH_R 12
#define CH_ZERO 24      /* room left of 1 for the never-run sites */
#define CH_CELL 3       /* pixels: dots closer than this are one */
#define CH_NAMED 5      /* sites a shared dot's title names */

struct chart {
	int decades;    /* the x axis spans 10^0 .. 10^decades */
};

/* The sites of one dot, as a list through next[] in worst order. */
struct dot {
	size_t first, last, count;
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

static double site_x(const struct chart *c, const struct lp_hsite *h)
{
	return ch_x(c, h->e.s->j.evals);
}

static double site_y(const struct lp_hsite *h)
{
	const struct lp_judgement *j = &h->e.s->j;

	return ch_y(lp_html_pct(j->total.incorrect, j->evals));
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
 * Puts the sites in dots, worst first, so that a dot's list starts with
 * its worst site and dots are numbered by their worst site.
 */
static struct dot *bin(struct lp_hsite *v, size_t n, const struct chart *c,
		       size_t *next, size_t *ndots)
{
	size_t cols = CH_W / CH_CELL + 1, rows = CH_H / CH_CELL + 1;
	size_t *cell = lp_xmalloc(LP_HTML_NVERDICTS * cols * rows *
				  sizeof(*cell));
	struct dot *d = lp_xcalloc(n + 1, sizeof(*d));
	size_t i, k = 0;

	memset(cell, 0xff, LP_HTML_NVERDICTS * cols * rows * sizeof(*cell));
	for (i = 0; i < n; i++) {
		size_t bx = (size_t)(site_x(c, &v[i]) / CH_CELL);
		size_t by = (size_t)(site_y(&v[i]) / CH_CELL);
		size_t at = ((size_t)lp_html_verdict_rank(v[i].e.s->j.verdict) *
			     cols + (bx < cols ? bx : cols - 1)) * rows +
			(by < rows ? by : rows - 1);

		next[i] = (size_t)-1;
		if (cell[at] == (size_t)-1) {
			cell[at] = k;
			d[k++] = (struct dot){ i, i, 0 };
		} else {
			next[d[cell[at]].last] = i;
			d[cell[at]].last = i;
		}
		d[cell[at]].count++;
		v[i].dot = cell[at];
	}
	free(cell);
	*ndots = k;
	return d;
}

/* A lone site's title is its warning; a shared dot's counts and names. */
static void put_title(FILE *f, const struct lp_hsite *v, const struct dot *d,
		      const size_t *next, const struct lp_tree *tree)
{
	size_t i = d->first, k;

	if (d->count == 1) {
		char *msg = lp_site_message(&v[i].e, tree);

		lp_html_puts(f, v[i].file);
		fprintf(f, ":%ld: ", v[i].line);
		lp_html_puts(f, msg);
		free(msg);
		return;
	}
	fprintf(f, "%zu sites, %s:", d->count,
		lp_html_verdict_label(v[i].e.s->j.verdict));
	for (k = 0; k < CH_NAMED && i != (size_t)-1; k++, i = next[i]) {
		fputc('\n', f);
		lp_html_puts(f, v[i].file);
		fprintf(f, ":%ld ", v[i].line);
		lp_html_puts(f, v[i].e.s->func);
		fputs("()", f);
	}
	if (d->count > CH_NAMED)
		fprintf(f, "\nand %zu more", d->count - CH_NAMED);
	fputs("\n(click to list them)", f);
}

/* 3 pixels for a site, 4 for one to change, and more for a crowd. */
static double radius(const struct lp_hsite *h, size_t count)
{
	double r = lp_verdict_changes(h->e.s->j.verdict) ? 4 : 3;

	if (count > 1)
		r += 1 + 1.5 * log10_u64(count);
	return r < 10 ? r : 10;
}

/* The dots are drawn the best first, so that the wrong ones lie on top. */
void lp_html_chart(FILE *f, struct lp_hsite *v, size_t n,
		   const struct lp_tree *tree, const struct lp_policy *pol)
{
	struct chart c = { 1 };
	uint64_t most = pol->min_hits, p = 10;
	size_t *next = lp_xmalloc((n + 1) * sizeof(*next));
	struct dot *d;
	size_t i, ndots;

	for (i = 0; i < n; i++)
		if (v[i].e.s->j.evals > most)
			most = v[i].e.s->j.evals;
	/* as many decades as the busiest site needs, 10^19 at most */
	while (p < most && c.decades < 19) {
		p *= 10;
		c.decades++;
	}
	d = bin(v, n, &c, next, &ndots);
	fprintf(f, "<h2>Evaluations and percent wrong</h2>\n<svg id=\"chart\" "
		"xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
		"viewBox=\"0 0 %d %d\" role=\"img\" aria-label=\"one dot per "
		"site, or per sites at one place\">\n", CH_W, CH_H, CH_W, CH_H);
	put_axes(f, &c, pol);
	for (i = ndots; i-- > 0;) {
		const struct lp_hsite *h = &v[d[i].first];

		fprintf(f, "<circle id=\"d%zu\" class=\"%s\" data-n=\"%zu\" "
			"cx=\"%.1f\" cy=\"%.1f\" r=\"%.1f\"><title>", i,
			lp_verdict_name(h->e.s->j.verdict), d[i].count,
			site_x(&c, h), site_y(h), radius(h, d[i].count));
		put_title(f, v, &d[i], next, tree);
		fputs("</title></circle>\n", f);
	}
	fputs("</svg>\n", f);
	free(d);
	free(next);
}
