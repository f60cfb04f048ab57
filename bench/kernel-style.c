/*
 * kernel-style.c - the dump side of bench/kernel-style.h: at exit, add
 * up every record of the "ks_branch" section and print the totals on
 * stderr, where bench/overhead.sh compares them with the number of
 * evaluations the program made
 *
 *	kernel-style: sites N correct C incorrect I constant K
 */
#include <stdio.h>

#include "kernel-style.h"

extern struct ks_branch __start_ks_branch[] __attribute__((weak));
extern struct ks_branch __stop_ks_branch[] __attribute__((weak));

__attribute__((destructor)) static void ks_report(void)
{
	unsigned long correct = 0, incorrect = 0, constant = 0;
	struct ks_branch *b;
	unsigned long n = 0;

	for (b = __start_ks_branch; b && b < __stop_ks_branch; b++, n++) {
		correct += b->correct;
		incorrect += b->incorrect;
		constant += b->constant;
	}
	fprintf(stderr, "kernel-style: sites %lu correct %lu incorrect %lu "
		"constant %lu\n", n, correct, incorrect, constant);
}
