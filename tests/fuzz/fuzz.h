/*
 * fuzz.h - what the libFuzzer harnesses share (common.c)
 *
 * A harness states properties of the code under test with FUZZ_CHECK():
 * a failed one prints where and what, then abort()s, which libFuzzer
 * reports as a crash and saves the input for.  A sanitizer report ends
 * the run the same way, so both count as failures in CI.
 */
#ifndef LP_FUZZ_H
#define LP_FUZZ_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

#define FUZZ_CHECK(cond)                                                  \
	do {                                                              \
		if (!(cond))                                              \
			fuzz_fail(__FILE__, __LINE__, #cond);             \
	} while (0)

/* Prints "FILE:LINE: property failed: WHAT" and aborts. */
__attribute__((noreturn)) void fuzz_fail(const char *file, int line,
					 const char *what);

/*
 * What every lp_profile_read_buf() must leave behind: a terminated
 * diagnostic; on failure one of the documented errors, a diagnostic
 * that says something, and @p as it was before (here: empty).
 */
void fuzz_check_read(const struct lp_profile *p, int err,
		     const struct lp_diag *diag);

/*
 * Writes @p (which lp_profile_write() sorts) into a malloc'd buffer; its
 * length goes to *@len.
 */
char *fuzz_write_profile(struct lp_profile *p, size_t *len);

/*
 * The writer's properties on a profile that was read: what it writes
 * reads back as the same meta and the same sites in the same order, and
 * writing that again gives the same bytes.
 */
void fuzz_check_roundtrip(struct lp_profile *p);

/* The sum of @n counts as the code under test adds them: saturating. */
uint64_t fuzz_sat_add(uint64_t a, uint64_t b);

#endif /* LP_FUZZ_H */
