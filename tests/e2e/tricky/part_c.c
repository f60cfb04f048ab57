/*
 * part_c.c - the header's static inline again (a second copy), and hints
 * in a function that is compiled but never called
 */
#include "tricky.h"

#if defined(__GNUC_STDC_INLINE__) && !defined(__cplusplus)
/*
 * A C99 inline definition with external linkage: C forbids a modifiable
 * static in it, which the instrumentation must not turn into an error.
 */
inline int ext_inline(int x)
{
	return likely(x > 2) ? 1 : 0;
}
extern inline int ext_inline(int x);
#else
static int ext_inline(int x)
{
	return likely(x > 2) ? 1 : 0;
}
#endif

long part_c(long n)
{
	long i, s = 0;

	for (i = 0; i < n; i++) {
		s += clamp((int)(i * 3), 0, 500);
		s += ext_inline((int)i);
		CHECK(s < 0);
	}
	return s;
}

int never_called(int x);
int never_called(int x)
{
	if (unlikely(x == 12345))
		return 1;
	return likely(x) ? 2 : 3;
}
