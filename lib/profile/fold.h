/*
 * fold.h - views that fold the rows of a profile
 *
 * A static inline in a header gets one site per translation unit that
 * uses it, and the same header can reach the compiler under two spellings
 * of its path (lib//common/x.h, lib//decompress/../common/x.h).  Reports,
 * check and fix look at folded rows: copies of one source line summed.
 */
#ifndef LP_FOLD_H
#define LP_FOLD_H

#include "profile.h"

enum lp_group {
	LP_GROUP_SITE = 0,      /* every record as it is */
	LP_GROUP_LINE = 1,      /* (canonical file, line, func, expect, cond) */
	LP_GROUP_FUNCTION = 2   /* (canonical file, func): all of a function */
};

/*! lp_path_canonical() :
 *  Lexical canonical form of @path: "//" and "/./" collapse, "dir/.."
 *  pairs cancel where dir is not "..", a leading "./" goes.  Never touches
 *  the file system.  "lib//decompress/../common/x.h" -> "lib/common/x.h".
 *  @return : a malloc'd string the caller frees, or NULL (out of memory).
 */
char *lp_path_canonical(const char *path);

/*! lp_path_base() :
 *  @return : the part of @path after its last '/', as the kernel prints.
 */
const char *lp_path_base(const char *path);

/*
 * One source file may reach the compiler under two spellings that no
 * lexical rule makes equal: lz4 compiles lib/lz4.c as "lz4.c" from lib/
 * and as "../lib/lz4.c" from programs/.  What a row is, apart from its
 * path, for lp_fold_spellings().
 */
struct lp_spelling_key {
	const char *file;       /* canonical */
	const char *func, *cond;        /* NULL is "" */
	long line, expect;
};

/*! lp_fold_spellings() :
 *  Rows equal in all but the path, whose paths all end in the shortest of
 *  them at a '/' (the longest path ends in each of the others), are one
 *  line's copies: sets @into[k] to the row that row k folds into (the one
 *  with the longest path), k itself when it stays.  Paths that merely
 *  share a base name ("a/x.c", "b/x.c") stay apart.
 *  @return : 0 or -LP_ENOMEM.
 */
int lp_fold_spellings(const struct lp_spelling_key *keys, size_t n,
		      size_t *into);

/*! lp_profile_fold() :
 *  Fills @out (initialised, empty) with the rows of @in folded per @group,
 *  counts summed (saturating).  Folded rows carry the canonical path; their
 *  unit is empty; in LP_GROUP_FUNCTION rows line is the smallest line of
 *  the function's rows, expect is LP_EXPECT_UNKNOWN when the rows disagree
 *  and cond is empty.  Rows whose paths are two spellings of one file
 *  (lp_fold_spellings()) are folded too, under the longer path.  Row
 *  order follows the first appearance in @in.
 *  @return : 0 or -LP_ENOMEM.
 */
int lp_profile_fold(struct lp_profile *out, const struct lp_profile *in,
		    enum lp_group group);

#endif /* LP_FOLD_H */
