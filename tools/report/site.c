/*
 * site.c - what the parts of the page share: the verdicts in the page's
 * order, escaping and links (site.h)
 */
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "marks.h"
#include "report/site.h"

const enum lp_verdict lp_html_verdicts[LP_HTML_NVERDICTS] = {
	LP_VERDICT_FLIP, LP_VERDICT_REMOVE, LP_VERDICT_RESTATE,
	LP_VERDICT_SETTING,
	LP_VERDICT_UNSURE, LP_VERDICT_FEW, LP_VERDICT_FINE,
	LP_VERDICT_CONSTANT, LP_VERDICT_NEVER,
};

int lp_html_verdict_rank(enum lp_verdict v)
{
	int i;

	for (i = 0; i < LP_HTML_NVERDICTS; i++)
		if (lp_html_verdicts[i] == v)
			return i;
	return LP_HTML_NVERDICTS;
}

const char *lp_html_verdict_label(enum lp_verdict v)
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

double lp_html_pct(uint64_t incorrect, uint64_t evals)
{
	return evals ? 100.0 * (double)incorrect / (double)evals : 0.0;
}

size_t lp_html_utf8(const unsigned char *p, const unsigned char *end)
{
	unsigned char seq[5] = { 0 };
	size_t k = (size_t)(end - p) < 4 ? (size_t)(end - p) : 4;

	/* a sequence cut by @end is not valid */
	memcpy(seq, p, k);
	return lp_utf8_len(seq);
}

void lp_html_put(FILE *f, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s;
	const unsigned char *end = p + n;

	while (p < end && *p) {
		size_t k;

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
			} else if ((k = lp_html_utf8(p, end))) {
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

void lp_html_puts(FILE *f, const char *s)
{
	if (s)
		lp_html_put(f, s, strlen(s));
}

/*
 * By default the link is the file itself, resolving from wherever the
 * page is: a file:// URL when the tree (--src) placed it or its path is
 * absolute, with the line as the fragment; a relative path from the
 * profile is all that is known otherwise.
 */
void lp_html_link(FILE *f, const char *tmpl, const char *file, long line,
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

void lp_html_site_link(FILE *f, const struct lp_html_opts *o,
		       const char *file, long line, const struct lp_tree *tree)
{
	if (o->pages && tree) {
		fputs(LP_HTML_VIEWS, f);
		lp_uri_put(f, file);
		fprintf(f, ".html#L%ld", line);
		return;
	}
	lp_html_link(f, o->link, file, line, tree);
}

void lp_html_count(FILE *f, uint64_t n)
{
	fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)n);
}

/*
 * Percent wrong in tenths rounded down, as check's percent is: 99.99%
 * must not read 100.0.  Sorted by the exact value.
 */
void lp_html_pct_cell(FILE *f, uint64_t incorrect, uint64_t evals)
{
	unsigned long long t;

	if (!evals) {
		fputs("<td class=\"n\" data-s=\"-1\">&ndash;</td>", f);
		return;
	}
	t = (unsigned long long)((unsigned __int128)incorrect * 1000 / evals);
	fprintf(f, "<td class=\"n\" data-s=\"%.4f\">%llu.%llu</td>",
		lp_html_pct(incorrect, evals), t / 10, t % 10);
}

const struct lp_srcfile *lp_html_source(struct lp_tree *tree,
					const struct lp_hsite *h, size_t *at)
{
	const struct lp_place *pl = h->e.pl;
	struct lp_srcfile *sf = pl && pl->placed ? pl->call_file : NULL;
	char *err = NULL;

	if (sf && !sf->loaded && lp_srcfile_load(tree, sf, &err)) {
		free(err);
		return NULL;
	}
	*at = pl && pl->line ? pl->line - 1 : 0;
	return sf && *at < sf->lx.nlines ? sf : NULL;
}

void lp_html_line(const struct lp_srcfile *sf, size_t l, size_t *b,
		  size_t *e)
{
	lp_src_line(sf, l, b, e);
	/* a minified line must not make the page huge */
	if (*e - *b > 200)
		*e = *b + 200;
}
