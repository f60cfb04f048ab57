/*
 * kernel-style.h - the Linux kernel's annotated branch profiler, as a
 * force-included header: the peer likelyprof is measured against
 *
 *	cc -include bench/kernel-style.h ... bench/kernel-style.c
 *
 * Written here from the description of CONFIG_PROFILE_ANNOTATED_BRANCHES,
 * not copied: every hint gets a static record {func, file, line, correct,
 * incorrect, constant} in one named section, and each evaluation bumps a
 * global counter of that record with a plain increment, not atomic (the
 * kernel's own comment on it asks for that to be made atomic).  Records
 * sit side by side, several to a cache line, as the kernel's do.
 *
 * Two differences, both in the peer's favour: the kernel calls an
 * out-of-line ftrace_likely_update() per evaluation, here the increment
 * is inline; and __builtin_expect itself is redefined (as likelyprof
 * does), so every spelling of a hint is counted.
 *
 * KS_ATOMIC makes each increment a relaxed atomic add: exact, but a
 * locked instruction on a shared line.  It is the other obvious scheme.
 *
 * bench/kernel-style.c walks the section at exit and prints the totals.
 */
#ifndef KERNEL_STYLE_H
#define KERNEL_STYLE_H

#pragma GCC system_header

struct ks_branch {
	const char *func;
	const char *file;
	unsigned line;
	unsigned long correct;
	unsigned long incorrect;
	unsigned long constant;
};

#ifdef KS_ATOMIC
#define KS_INC_(x) __atomic_fetch_add(&(x), 1, __ATOMIC_RELAXED)
#else
#define KS_INC_(x) ((x)++)
#endif

#define KS_CAT_(a, b) a##b
#define KS_CAT(a, b) KS_CAT_(a, b)

/*
 * __COUNTER__ names keep nested hints from shadowing each other.  "used"
 * because nothing in the unit reads a record: without it clang 14 splits
 * such a record into separate globals or drops its stores, and the walk
 * of the section finds garbage.
 */
#define KS_EXPECT_(e, c, n) __extension__ ({                              \
	static struct ks_branch KS_CAT(ks__b, n)                          \
		__attribute__((section("ks_branch"), aligned(8), used)) = \
		{ __func__, __FILE__, __LINE__, 0, 0, 0 };                \
	long KS_CAT(ks__v, n) = (long)(e);                                \
	if (__builtin_constant_p(KS_CAT(ks__v, n)))                       \
		KS_INC_(KS_CAT(ks__b, n).constant);                       \
	if (KS_CAT(ks__v, n) == (long)(c))                                \
		KS_INC_(KS_CAT(ks__b, n).correct);                        \
	else                                                              \
		KS_INC_(KS_CAT(ks__b, n).incorrect);                      \
	(__builtin_expect)(KS_CAT(ks__v, n), (c));                        \
})

#define __builtin_expect(e, c) KS_EXPECT_(e, c, __COUNTER__)

#endif /* KERNEL_STYLE_H */
