/*
 * page.h - the style sheet and the script of the page (tools/report/page.c)
 */
#ifndef LP_REPORT_PAGE_H
#define LP_REPORT_PAGE_H

extern const char lp_html_style[];
extern const char lp_html_script[];

#endif /* LP_REPORT_PAGE_H */
