/*
 * test.h - a tiny TAP harness for the unit tests
 *
 * A test file defines test_<suite>__<case>(void) functions and lists them
 * in main() with LP_TEST(); each check that fails prints where and why and
 * marks the case "not ok".  The program exits 1 if any case failed.
 *
 *	static void test_esc__tab(void) { LP_CHECK_STR(esc("\t"), "\\t"); }
 *	int main(void) { LP_TEST(test_escape__tab); return lp_test_done(); }
 */
#ifndef LP_TEST_H
#define LP_TEST_H

#include <stdio.h>
#include <string.h>

static int lp_test_count, lp_test_failed_cases, lp_test_case_failed;

#define LP_TEST(fn)                                                       \
	do {                                                              \
		lp_test_case_failed = 0;                                  \
		fn();                                                     \
		lp_test_count++;                                          \
		if (lp_test_case_failed)                                  \
			lp_test_failed_cases++;                           \
		printf("%s %d - %s\n", lp_test_case_failed ? "not ok" : "ok", \
		       lp_test_count, #fn);                               \
	} while (0)

#define LP_FAIL_(...)                                                     \
	do {                                                              \
		printf("#   %s:%d: ", __FILE__, __LINE__);                \
		printf(__VA_ARGS__);                                      \
		printf("\n");                                             \
		lp_test_case_failed = 1;                                  \
	} while (0)

#define LP_CHECK(cond)                                                    \
	do {                                                              \
		if (!(cond))                                              \
			LP_FAIL_("check failed: %s", #cond);              \
	} while (0)

#define LP_CHECK_INT(got, want)                                           \
	do {                                                              \
		long long lp_g_ = (long long)(got), lp_w_ = (long long)(want); \
		if (lp_g_ != lp_w_)                                       \
			LP_FAIL_("%s is %lld, want %lld", #got, lp_g_, lp_w_); \
	} while (0)

#define LP_CHECK_U64(got, want)                                           \
	do {                                                              \
		unsigned long long lp_g_ = (got), lp_w_ = (want);          \
		if (lp_g_ != lp_w_)                                       \
			LP_FAIL_("%s is %llu, want %llu", #got, lp_g_, lp_w_); \
	} while (0)

#define LP_CHECK_STR(got, want)                                           \
	do {                                                              \
		const char *lp_g_ = (got), *lp_w_ = (want);               \
		if (!lp_g_ || !lp_w_ || strcmp(lp_g_, lp_w_))             \
			LP_FAIL_("%s is \"%s\", want \"%s\"", #got,       \
				 lp_g_ ? lp_g_ : "(null)",                \
				 lp_w_ ? lp_w_ : "(null)");               \
	} while (0)

static inline int lp_test_done(void)
{
	printf("1..%d\n", lp_test_count);
	if (lp_test_failed_cases)
		printf("# %d of %d failed\n", lp_test_failed_cases,
		       lp_test_count);
	return lp_test_failed_cases ? 1 : 0;
}

#endif /* LP_TEST_H */
