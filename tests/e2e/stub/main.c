/* main.c - runs leaf.c's functions, so their sites count */
#include <stdio.h>

void *leaf_pop(unsigned long size);
int leaf_push(unsigned long size, void *p);

extern struct bin {
	void **top, **low;
	unsigned long bytes;
} leaf_bins[8];

static void *slots[8][256];	/* bin 7 keeps the 102 that leaf_pop refuses */

int main(void)
{
	unsigned long i, got = 0;
	int k;

	for (k = 0; k < 8; k++)
		leaf_bins[k].top = leaf_bins[k].low = slots[k];
	for (i = 0; i < 1000; i++) {
		leaf_push(i % 500, &slots[0][0]);
		got += leaf_pop(i % 500) != 0;
	}
	printf("%lu\n", got);
	return 0;
}
