/*
 * simd.h - sixteen bytes at a time, where the profile code scans text
 *
 * Shared by the writer (lib/runtime/format.c, async-signal-safe: intrinsics
 * only) and the reader (lib/profile/profile.c).  SSE2 is in every x86-64; other
 * machines take the byte loops these helpers stand in front of.
 */
#ifndef LP_SIMD_H
#define LP_SIMD_H

#ifdef __SSE2__
#include <emmintrin.h>

/*
 * Non-zero when one of the 16 bytes at @s (in @v) needs an escape in a
 * profile: a control byte, DEL or a backslash.  Bytes of 0x80 and up do
 * not.  lp_special16_v() has a bit per byte.
 */
static inline unsigned lp_special16_v(__m128i v)
{
	__m128i ctl = _mm_cmpeq_epi8(_mm_min_epu8(v, _mm_set1_epi8(0x1f)), v);
	__m128i del = _mm_cmpeq_epi8(v, _mm_set1_epi8(0x7f));
	__m128i bsl = _mm_cmpeq_epi8(v, _mm_set1_epi8('\\'));

	return (unsigned)_mm_movemask_epi8(
		_mm_or_si128(ctl, _mm_or_si128(del, bsl)));
}

static inline int lp_special16(const char *s)
{
	return (int)lp_special16_v(
		_mm_loadu_si128((const __m128i *)(const void *)s));
}
#endif

#endif /* LP_SIMD_H */
