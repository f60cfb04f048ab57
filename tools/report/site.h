/*
 * site.h - what the parts of the page share (tools/report/site.c): a
 * site as the page shows it, the verdicts in the page's order, escaping
 * and links
 *
 * html.c writes the markup, chart.c the chart, data.c the data of every
 * site for the page's script; each speaks of a site in the same words.
 */
#ifndef LP_REPORT_SITE_H
#define LP_REPORT_SITE_H

#include <stdint.h>
#include <stdio.h>

#include "fix/locate.h"
#include "policy.h"
#include "report/html.h"
#include "verdict.h"

/* the source views' folder in the page's: <dir>/src/<path>.html */
#define LP_HTML_VIEWS_DIR "src"
#define LP_HTML_VIEWS LP_HTML_VIEWS_DIR "/"

/* One site as the page shows it. */
struct lp_hsite {
	struct lp_check_entry e;        /* e.path unused */
	const char *file;               /* as shown and linked */
	long line;
	size_t idx;                     /* in the judged list: file, line */
	size_t dot;                     /* its dot in the chart */
	int stale;                      /* the tree changed it since */
};

/* Verdicts in the order that matters to a reader: what to change first. */
extern const enum lp_verdict lp_html_verdicts[];
#define LP_HTML_NVERDICTS 9

/*! lp_html_verdict_rank() :
 *  @return : the place of @v in lp_html_verdicts[], the sort key of the
 *            verdict column.
 */
int lp_html_verdict_rank(enum lp_verdict v);

/*! lp_html_verdict_label() :
 *  @return : how the page names @v ("too few", "never run").
 */
const char *lp_html_verdict_label(enum lp_verdict v);

/*! lp_html_pct() :
 *  @return : percent of the @evals non-constant evaluations that went
 *            against the hint, 0 without any.
 */
double lp_html_pct(uint64_t incorrect, uint64_t evals);

/*! lp_html_utf8() :
 *  @return : the length of the valid UTF-8 sequence at @p, which ends
 *            before @end, or 0 when it is not one.
 */
size_t lp_html_utf8(const unsigned char *p, const unsigned char *end);

/*! lp_html_put() :
 *  Writes the first @n bytes of @s to @f as HTML text or attribute
 *  value: & < > " ' as references, control bytes as spaces (a tab
 *  kept), bytes that are not valid UTF-8 as U+FFFD.
 */
void lp_html_put(FILE *f, const char *s, size_t n);

/*! lp_html_puts() :
 *  lp_html_put() of the string @s; NULL writes nothing.
 */
void lp_html_puts(FILE *f, const char *s);

/*! lp_html_link() :
 *  Writes the link of @file at @line: the --link template @tmpl's, or
 *  a file:// URL of the file in @tree (NULL: the site is not placed) or
 *  of an absolute path, or the path as it is.
 */
void lp_html_link(FILE *f, const char *tmpl, const char *file, long line,
		  const struct lp_tree *tree);

/*! lp_html_site_link() :
 *  Writes the link of a site at @line of @file: to its source view when
 *  @o->pages has them and @tree placed it, else lp_html_link()'s.
 */
void lp_html_site_link(FILE *f, const struct lp_html_opts *o,
		       const char *file, long line, const struct lp_tree *tree);

/*! lp_html_count() :
 *  A table cell of the count @n.
 */
void lp_html_count(FILE *f, uint64_t n);

/*! lp_html_pct_cell() :
 *  A table cell of the percent of @evals that went wrong, in tenths
 *  rounded down as check's, its exact value as the sort key.
 */
void lp_html_pct_cell(FILE *f, uint64_t incorrect, uint64_t evals);

/*! lp_html_source() :
 *  @return : the source file of @h in @tree, loaded, with *@at its line
 *            (from 0), or NULL when it was not placed or cannot be read.
 */
const struct lp_srcfile *lp_html_source(struct lp_tree *tree,
					const struct lp_hsite *h, size_t *at);

/*! lp_html_line() :
 *  Bytes [*@b, *@e) of line @l (from 0) of @sf, without its newline, and
 *  200 at most.
 */
void lp_html_line(const struct lp_srcfile *sf, size_t l, size_t *b,
		  size_t *e);

#endif /* LP_REPORT_SITE_H */
