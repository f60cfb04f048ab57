#include "hints.h"

int main(void)
{
	int v[4] = { 1, 2, 3, 4 }, i, s = 0;

	for (i = 0; i < 20000; i++) {
		s += PREFIX(adler)(i + 11);
		s += PREFIX(crc)(v, 4);
		s += hot_path(i + 1);
		s += match_slow_avx2(2 * i + 1);
		s += match_slow_sse2(2 * i + 1);
	}
	return s == 42;
}
