/*
 * html.h - the page of `report --format html` and `check --format html`
 *
 * One self-contained file (inline CSS, script and SVG, nothing fetched)
 * for a person deciding which annotations to change: per site its
 * spelling, check's verdict and reason, the counts, the source with
 * --src and a link to it; sorting, filters and the views by function and
 * by file in the page's script, their state in the URL's fragment, so
 * that a link shows what its sender saw; and a chart of evaluations
 * against percent wrong with the policy's thresholds.
 */
#ifndef LP_REPORT_HTML_H
#define LP_REPORT_HTML_H

#include <stdint.h>
#include <stdio.h>

#include "fix/locate.h"
#include "policy.h"

/* a page of rows a browser lays out at once, at any profile's size */
#define LP_HTML_ROWS 250

struct lp_html_opts {
	const char *title;              /* "likelyprof report", ... */
	const char *link;               /* "...{file}...{line}", or NULL */
	size_t rows;                    /* a page of the tables */
	uint64_t omit_below;            /* leave out sites evaluated less */
	const struct lp_policy *pol;    /* the thresholds judged with */
	const char *const *inputs;      /* the profiles' names */
	size_t ninputs;
	const char *workload;           /* lp_workload_text(), or NULL */
	const char *pages;              /* -o DIR/: the folder, which holds
					   the source views, or NULL */
};

/*! lp_html_write() :
 *  Writes the page of @sites to @f: all of them in its data, the worst
 *  @o->rows (those to change first, most evaluations wrong first) in
 *  its markup, the rest there as one line per verdict.  @places (NULL
 *  without --src) has sites->nr entries; @tree is the tree they were
 *  placed in, or NULL.
 */
void lp_html_write(FILE *f, const struct lp_judged_list *sites,
		   const struct lp_place *places, struct lp_tree *tree,
		   const struct lp_html_opts *o);

/*! lp_html_views() :
 *  Writes, in @o->pages, src/<path>.html for each file of @tree that
 *  @places (sites->nr entries) put a site of @sites in: every line of
 *  the file, each hinted one with its sites' counts, verdicts and
 *  reasons.  Writes nothing outside that folder.
 *  @return : 0, or -1 after saying what failed.
 */
int lp_html_views(const struct lp_judged_list *sites,
		  const struct lp_place *places, struct lp_tree *tree,
		  const struct lp_html_opts *o);

#endif /* LP_REPORT_HTML_H */
