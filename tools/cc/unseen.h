/*
 * unseen.h - the hint forms of a source that the header does not see,
 * and the copy of the source in which likelyprof cc counts them
 */
#ifndef LP_CC_UNSEEN_H
#define LP_CC_UNSEEN_H

#include <stddef.h>

#include "cc/attr.h"
#include "cc/edits.h"
#include "cc/hintmacro.h"

/*
 * What a unit's text is read for: the calls of the --hint-macro names,
 * and [[likely]]/[[unlikely]] where they are hints (C++: gcc and clang
 * ignore them in C, with a warning, so there they are only noted).
 */
struct lp_unseen_forms {
	const struct lp_hint_macros *macros;
	int attributes;
	const struct lp_attr_macros *attr_macros;   /* names that spell
				   an attribute, or NULL (attrmacro.c) */
	const char *file;       /* a header's name, as the compiler spells
				   it; NULL for the source or the unit */
	int keep_seen;          /* keep each attribute in attr.seen */
};

struct lp_unseen {
	struct lp_attr_plan attr;   /* [[likely]], [[unlikely]] */
	struct lp_hint_macro_plan macros;   /* calls of --hint-macro names */
	char *copy;             /* the source rewritten, or NULL; owned */
	size_t copy_len;
};

/*! lp_unseen_scan() :
 *  Reads the file @path for the hints that the header does not see,
 *  outside comments, strings and dead #if groups: the attribute hints
 *  (attr.c) and the calls of the hint macros (hintmacro.c), as @f says,
 *  and
 *  writes a copy of the file in which those that can be are counted
 *  (NULL when there are none).  A file that cannot be read (or is not
 *  a regular file) has none.  lp_unseen_release() frees the copy.
 */
void lp_unseen_scan(struct lp_unseen *u, const char *path,
		    const struct lp_unseen_forms *f);
void lp_unseen_release(struct lp_unseen *u);

/*! lp_unseen_plan() :
 *  The edits of the copy (edits.c) for the forms of the text lexed in
 *  @lx, into @e, and their counts into @u (no copy is written).
 */
void lp_unseen_plan(struct lp_unseen *u, const struct lp_lexed *lx,
		    const struct lp_unseen_forms *f, struct lp_copy_edits *e);

/*! lp_unseen_read() :
 *  All of the regular file @path (at most 64 MiB) into a new buffer, its
 *  length in *@len; NULL where it cannot be read.
 */
char *lp_unseen_read(const char *path, size_t *len);

/*! lp_unseen_left() :
 *  "N of M WHAT (first at line L: why)" into @out (@n bytes), where N,
 *  @all - @counted, is not 0.  @return : 1, or 0 with nothing left.
 */
int lp_unseen_left(char *out, size_t n, unsigned all, unsigned counted,
		   const char *what, unsigned line, const char *why);

/*! lp_unseen_describe() :
 *  Words for a note into @out what @u leaves uncounted, and why.
 *  @return : 0 when there are none (and @out is untouched), else 1.
 */
int lp_unseen_describe(const struct lp_unseen *u, char *out, size_t n);

/*! lp_unseen_describe_as() :
 *  The same, with @attr ("" for none) as the attributes' part where the
 *  source's own reading is not the one compiled (an expanded unit's).
 */
int lp_unseen_describe_as(const struct lp_unseen *u, const char *attr,
			  char *out, size_t n);

/*! lp_unseen_counted() :
 *  Words into @out what the copy counts ("3 [[likely]]/[[unlikely]]",
 *  "40 hint macro calls", or both joined by "and"), for a note that
 *  they are not counted after all.
 */
void lp_unseen_counted(const struct lp_unseen *u, char *out, size_t n);

#endif /* LP_CC_UNSEEN_H */
