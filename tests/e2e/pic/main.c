/*
 * main.c - calls the library's hot() ROUNDS times on 100 values, seven of
 * them 7 and none negative, then dlopen()s each module named on the
 * command line and calls its plugin_run() once.
 */
#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>

int hot(const int *a, int n);

int main(int argc, char **argv)
{
	int a[100], i, r, rounds = atoi(getenv("ROUNDS") ? getenv("ROUNDS")
							 : "1000");
	long sum = 0;

	for (i = 0; i < 100; i++)
		a[i] = i % 14;
	for (r = 0; r < rounds; r++)
		sum += hot(a, 100);
	for (i = 1; i < argc; i++) {
		void *h = dlopen(argv[i], RTLD_NOW);
		int (*run)(void);

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		run = (int (*)(void))dlsym(h, "plugin_run");
		sum += run ? run() : 0;
	}
	printf("%ld\n", sum);
	return 0;
}
