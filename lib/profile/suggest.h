/*
 * suggest.h - unannotated branches that go one way almost always
 *
 * A profile of the all-branches mode (-DLIKELYPROF_ALL_BRANCHES, or a
 * kernel's branch_all table) counts every `if`.  An `if` that went one way
 * in 99.9% of a million evaluations is where an annotation would help;
 * check names them.  A line that already carries a hint is left alone: it
 * has an annotation, which check judges on its own.
 *
 * Nothing here prints or exits; calls return 0 or -LP_E*.
 */
#ifndef LP_SUGGEST_H
#define LP_SUGGEST_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define LP_SUGGEST_AT 99.9
#define LP_SUGGEST_MIN 1000000

struct lp_suggestion {
	const char *file;       /* as the first profile spells it */
	const char *func;
	const char *cond;
	long line;
	uint64_t taken;         /* times the condition was true */
	uint64_t not_taken;     /* ... and false */
	int likely;             /* 1: suggest likely(), 0: unlikely() */
};

struct lp_suggestions {
	struct lp_suggestion *v;
	size_t nr;
	size_t branches;        /* distinct if sites seen, after folding */
};

#define LP_SUGGESTIONS_INIT { NULL, 0, 0 }

/*! lp_suggest() :
 *  Folds the `if` records of @n profiles by (file, line, func, cond),
 *  summing them (the copies of a static inline, the machines of a fleet),
 *  and keeps those evaluated at least @min times that went one way at
 *  least @at percent of them, on a line with no hint, unless the compiler
 *  folded every evaluation to a constant.  @out is sorted by
 *  file and line; its strings belong to the profiles.
 *  @return : 0, -LP_ENOMEM or -LP_EINVAL (@at not in (50, 100]).
 */
int lp_suggest(struct lp_suggestions *out,
	       const struct lp_profile *const *profs,
	       size_t n, double at, uint64_t min);
void lp_suggestions_release(struct lp_suggestions *s);

#endif /* LP_SUGGEST_H */
