/*
 * attr.h - C++20 [[likely]]/[[unlikely]] rewritten into counted hints
 * (tools/cc/attr.c)
 */
#ifndef LP_CC_ATTR_H
#define LP_CC_ATTR_H

#include <stddef.h>

struct lp_lexed;

struct lp_attr_plan {
	unsigned attributes;    /* every [[likely]]/[[unlikely]] seen */
	unsigned counted;       /* of them, rewritten into a hint */
	unsigned skipped_line;  /* the first one left as it is, or 0 */
	const char *skipped_why;    /* and why (a static string) */
	char *copy;             /* the source rewritten, or NULL; owned */
	size_t copy_len;
};

#define LP_ATTR_PLAN_INIT { 0, 0, 0, NULL, NULL, 0 }

/*! lp_attr_plan() :
 *  Finds the attribute hints of the source lexed in @lx and, where one
 *  controls a condition that can be wrapped (if, its else, while, for),
 *  writes a copy of the source with the attribute turned into
 *  __builtin_expect(!!(c), v) on that condition, line for line, after a
 *  #line naming @path: compiled with likelyprof.h, the copy counts each
 *  such hint on the source's own line.  @p->copy stays NULL when no
 *  hint could be rewritten.
 */
void lp_attr_plan(struct lp_attr_plan *p, const struct lp_lexed *lx,
		  const char *path);
void lp_attr_plan_release(struct lp_attr_plan *p);

/*! lp_attr_counted_lines() :
 *  The lines where the compiler puts the site of each attribute hint of
 *  @lx that lp_attr_plan() counts: for the n-th, from (*@lines)[2n] (the
 *  condition's opening, gcc's line) to (*@lines)[2n + 1] (its end,
 *  clang's), for fix to know a site it has no call to edit for.  The
 *  caller frees *@lines.  @return : how many.
 */
size_t lp_attr_counted_lines(const struct lp_lexed *lx, unsigned **lines);

#endif /* LP_CC_ATTR_H */
