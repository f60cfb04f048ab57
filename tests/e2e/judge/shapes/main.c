/*
 * main.c - drives each shape of tests/e2e/judge-shapes.sh; prints a sum
 * so that nothing is optimised away
 */
#include <stdio.h>
#include <stdlib.h>

#include "shapes.h"

int main(int argc, char **argv)
{
	static int v[4000];
	long sum = 0;
	int i, round;

	(void)argv;
	for (i = 0; i < 4000; i++)
		v[i] = i % 97 == 0 ? -i : i * 3;
	for (round = 0; round < 5; round++) {
		sum += cold_paths(2000 * argc);
		sum += rare_continue(v, 4000);
		sum += rare_above(v, 4000);
		sum += and_never(v, 4000);
		sum += cold_function(round);
		sum += both_parts(v, 4000);
		for (i = 0; i < 4000; i++)
			sum += parse_pair(v, 4000, i);
		sum += cont_end(v, 4000) + bad_cont(v, 4000);
		sum += scan_to(v + round, 4000 - round);
		sum += with_goto(v, 4000 - round);
		for (i = 0; i < 4000; i++) {
			sum += or_ret(v[i] % 100 - 5, v[(i * 3) % 4000] % 100 - 2);
			sum += two_errs(v, 4000, i - 3);
			sum += both_ret(v[i]);
			void_end(v[i]);
		}
	}
	if (argc > 5)
		sum += never_run(argc);
	printf("%ld\n", sum);
	return 0;
}
