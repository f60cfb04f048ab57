/*
 * chart.h - the page's chart of evaluations and percent wrong
 * (tools/report/chart.c)
 */
#ifndef LP_REPORT_CHART_H
#define LP_REPORT_CHART_H

#include "report/site.h"

/*! lp_html_chart() :
 *  Writes the chart of the @n sites @v (worst first) to @f, with the
 *  thresholds of @pol: one dot per site, the sites of one verdict that
 *  would cover each other drawn as one bigger dot that counts them.
 *  Sets each v[i].dot to the index of its dot (its id "dN").
 *  @tree : the tree of --src, or NULL, for the dots' titles.
 */
void lp_html_chart(FILE *f, struct lp_hsite *v, size_t n,
		   const struct lp_tree *tree, const struct lp_policy *pol);

#endif /* LP_REPORT_CHART_H */
