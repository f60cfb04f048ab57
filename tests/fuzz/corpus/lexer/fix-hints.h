/*
 * hints.h - the project's own spellings of __builtin_expect
 */
#ifndef HINTS_H
#define HINTS_H

#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define tbl_likely(x)   LIKELY(x)
#define tbl_unlikely(x) UNLIKELY(x)

/* Every caller passes a valid table; the check is for debug builds. */
#define CHECK_TABLE(t) \
	do { \
		if (UNLIKELY(!(t))) \
			return -1; \
	} while (0)

/* Used in two places that disagree in the profile. */
#define GROW_IF(t, n) \
	((t)->used + (n) > (t)->cap && \
	 UNLIKELY(grow((t), (t)->used + (n)) < 0))

#endif
