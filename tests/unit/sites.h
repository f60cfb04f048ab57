/*
 * sites.h - building profiles site by site in the unit tests
 */
#ifndef LP_TEST_SITES_H
#define LP_TEST_SITES_H

#include <string.h>

#include "profile.h"
#include "test.h"

/* Appends one site (its strings copied) to @p; a failure fails the case. */
static inline void add_site(struct lp_profile *p, const char *file,
			    long line, const char *func, long expect,
			    const char *unit, const char *cond, uint64_t c,
			    uint64_t i, uint64_t k)
{
	struct lp_prof_site s;

	memset(&s, 0, sizeof(s));
	s.file = (char *)file;
	s.func = (char *)func;
	s.unit = (char *)unit;
	s.cond = (char *)cond;
	s.line = line;
	s.expect = expect;
	s.correct = c;
	s.incorrect = i;
	s.constant = k;
	LP_CHECK_INT(lp_profile_add(p, &s), 0);
}

#endif /* LP_TEST_SITES_H */
