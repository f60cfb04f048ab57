/* crlf.c - a file with DOS line endings */
#include "../include/hints.h"

int crlf_sign(int x)
{
	if (UNLIKELY(x < 0))
		return -1;
	return x > 0;
}
