/*
 * file_scope.c - __builtin_expect where no statement can stand.  C cannot
 * instrument these; the build must still succeed.
 */
#include "tricky.h"

static long at_file_scope = __builtin_expect(4, 4);
enum { FILE_ENUM = __builtin_expect(2, 2) };
static long file_array[__builtin_expect(2, 2)] = { 1, likely(1) };
#if !defined(__cplusplus) && defined(__STDC_VERSION__) && __STDC_VERSION__ >= 201112L
_Static_assert(__builtin_expect(1, 1), "file scope");
#endif

long part_file_scope(void)
{
	long s = at_file_scope + FILE_ENUM + file_array[1];

	if (likely(s > 0))
		s++;
	return s;
}
