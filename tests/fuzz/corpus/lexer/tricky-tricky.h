/*
 * tricky.h - hints as real code spells them, shared by several files
 */
#ifndef TRICKY_H
#define TRICKY_H

#if defined(__STDC_VERSION__) && __STDC_VERSION__ >= 199901L || defined(__cplusplus)
#define INLINE inline
#else
#define INLINE __inline__
#endif

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#define LIKELY(x)   __builtin_expect((x) != 0, 1)
#define expect(x, c) __builtin_expect((x), (c))
/* an annotation inside a macro body, expanded at several places */
#define CHECK(c) do { if (unlikely(c)) errors++; } while (0)

extern int errors;

/* one copy per file that includes it */
static INLINE int clamp(int v, int lo, int hi)
{
	if (unlikely(v < lo))
		return lo;
	if (unlikely(v > hi))
		return hi;
	return v;
}

long part_a(long n);
long part_b(long n);
long part_c(long n);
long part_file_scope(void);

#endif
