/*
 * unseen.h - the hint forms of a source that likelyprof cc cannot count
 */
#ifndef LP_CC_UNSEEN_H
#define LP_CC_UNSEEN_H

#include <stddef.h>

struct lp_unseen {
	unsigned attributes;        /* [[likely]], [[unlikely]] */
	unsigned attribute_line;    /* the first one's line */
};

/*! lp_unseen_scan() :
 *  Counts the uses in the file @path that the instrumentation does not
 *  count, outside comments, strings and dead #if groups.  A file that
 *  cannot be read (or is not a regular file) counts none.
 */
void lp_unseen_scan(struct lp_unseen *u, const char *path);

/*! lp_unseen_describe() :
 *  Words @u's uses for a note into @out.
 *  @return : 0 when there are none (and @out is untouched), else 1.
 */
int lp_unseen_describe(const struct lp_unseen *u, char *out, size_t n);

#endif /* LP_CC_UNSEEN_H */
