/*
 * unseen.h - the hint forms of a source that likelyprof cc cannot count
 */
#ifndef LP_CC_UNSEEN_H
#define LP_CC_UNSEEN_H

#include <stddef.h>

#include "cc/attr.h"

struct lp_unseen {
	struct lp_attr_plan attr;   /* [[likely]], [[unlikely]] */
};

/*! lp_unseen_scan() :
 *  Reads the file @path for the hints that the header does not see,
 *  outside comments, strings and dead #if groups: the attribute hints,
 *  and a copy of the file in which those that can be are counted
 *  (attr.c).  A file that cannot be read (or is not a regular file) has
 *  none.  lp_unseen_release() frees the copy.
 */
void lp_unseen_scan(struct lp_unseen *u, const char *path);
void lp_unseen_release(struct lp_unseen *u);

/*! lp_unseen_describe() :
 *  Words for a note into @out what @u leaves uncounted, and why.
 *  @return : 0 when there are none (and @out is untouched), else 1.
 */
int lp_unseen_describe(const struct lp_unseen *u, char *out, size_t n);

#endif /* LP_CC_UNSEEN_H */
