/*
 * cases.h - C++20 [[likely]]/[[unlikely]] on case and default labels,
 * counted at their switch's dispatch (tools/cc/cases.c)
 */
#ifndef LP_CC_CASES_H
#define LP_CC_CASES_H

#include <stddef.h>

struct lp_lexed;
struct lp_attr_mark;
struct lp_attr_site;
struct lp_copy_edits;

/*! lp_case_plan() :
 *  Decides each of the @n marks of @m still undecided that stands on a
 *  case or default label of a switch of @lx: counted (why "", on_label)
 *  or left with its reason.  For the counted ones, adds to @e (unless
 *  NULL) the edits of the copy that test the switch's value against
 *  their labels at its head, and appends to *@sites, *@nsites (unless
 *  @sites is NULL) the sites as fix edits them, in source order of the
 *  switches.
 */
void lp_case_plan(const struct lp_lexed *lx, struct lp_attr_mark *m,
		  size_t n, struct lp_copy_edits *e,
		  struct lp_attr_site **sites, size_t *nsites);

#endif /* LP_CC_CASES_H */
