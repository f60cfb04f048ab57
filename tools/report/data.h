/*
 * data.h - every site of the page as data for its script
 * (tools/report/data.c)
 */
#ifndef LP_REPORT_DATA_H
#define LP_REPORT_DATA_H

#include "report/html.h"
#include "report/site.h"

/*! lp_html_data() :
 *  Writes the @n sites @v (worst first, their dots set) to @f as the
 *  page's JSON data, in a <script type="application/json" id="lp-data">
 *  element: the tables of files, functions and spellings, one array per
 *  site, and with @tree each site's line and two lines each side.
 */
void lp_html_data(FILE *f, const struct lp_hsite *v, size_t n,
		  struct lp_tree *tree, const struct lp_html_opts *o);

#endif /* LP_REPORT_DATA_H */
