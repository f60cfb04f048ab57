#include "hints.h"

int PREFIX(adler)(int a)
{
	if (UNLIKELY(a > 10))
		return a - 1;
	return a;
}

int ATTR_NONNULL(1)
PREFIX(crc)(const int *p, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++)
		if (LIKELY(p[i] < 0))
			s++;
	return s;
}

int hot_path(int a) ATTR_HOT;
int hot_path(int a)
{
	if (LIKELY(a == 0))
		return 1;
	return 0;
}

#define MATCH_FN match_slow_avx2
#include "match_tpl.h"
#undef MATCH_FN
#define MATCH_FN match_slow_sse2
#include "match_tpl.h"
#undef MATCH_FN
