#include <stdio.h>
#include "ring.h"

unsigned checksum(const unsigned char *p, int n);

int main(void)
{
	struct ring r = { { 0 }, 0, 0 };
	unsigned char out[100];
	int i, n = 0;

	for (i = 0; i < 100; i++) {
		if (likely(ring_put(&r, (unsigned char)i) == 0))
			continue;
		while (n < 100 && ring_get(&r, &out[n]) == 0)
			n++;
		ring_put(&r, (unsigned char)i);
	}
	while (n < 100 && ring_get(&r, &out[n]) == 0)
		n++;
	printf("%d %u\n", n, checksum(out, n));
	return 0;
}
