/*
 * main.c - runs every tricky use and prints what it computed; the plain
 * and the instrumented builds must print the same.  _GNU_SOURCE comes
 * after the force-included header, which therefore must not pull in a
 * system header.
 */
#define _GNU_SOURCE 1
#include <stdio.h>
#include <string.h>

#include "tricky.h"

int errors;

#ifdef __cplusplus
extern "C"
#endif
long asm_identity(long v);

int main(int argc, char **argv)
{
	long sum = 0;
	FILE *f;
	char buf[64];
	int c;

	(void)argv;
	sum += part_a(1000 + argc);
	sum += part_b(500);
	sum += part_c(300);
	sum += part_file_scope();
	sum += asm_identity(7);
	/* glibc's extern inline getc_unlocked carries its own hint */
	strcpy(buf, "likely(unlikely)");
	f = fmemopen(buf, strlen(buf), "r");
	if (f) {
		while ((c = getc_unlocked(f)) != EOF)
			sum += c;
		fclose(f);
	}
	printf("sum %ld errors %d\n", sum, errors);
	return 0;
}
