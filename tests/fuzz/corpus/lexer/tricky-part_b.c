/*
 * part_b.c - switch on an expected value, constant contexts inside a
 * function, a hint in a macro body, a non-constant expected value
 */
#include "tricky.h"

long part_b(long n)
{
	long i, s = 0;
	int want = 2;

	for (i = 0; i < n; i++) {
		/* the value is the expected one, not 0 or 1 */
		switch (__builtin_expect(i % 4, 3)) {
		case __builtin_expect(3, 3):
			s += 3;
			break;
		case 1:
			s += 1;
			break;
		default:
			break;
		}
		CHECK(i % 97 == 0);
		CHECK(i > n);
		s += clamp((int)i, 10, 400);
		/* an expected value only known at run time */
		if (__builtin_expect(i % 3, want) == 2)
			s++;
	}
	{
		/* where an integer constant is required the hint stays plain */
		enum { ANSWER = __builtin_expect(42, 42) };
		static long table[__builtin_expect(3, 3)] = {
			__builtin_expect(1, 1), 2, 3
		};
		static long init = __builtin_expect(5, 5);
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
		_Static_assert(__builtin_expect(1, 1), "constant");
#endif
#if defined(__cplusplus) && __cplusplus >= 201103L
		static_assert(__builtin_expect(1, 1), "constant");
#endif
		s += ANSWER + table[2] + init;
	}
	return s;
}
