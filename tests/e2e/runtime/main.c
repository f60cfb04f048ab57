/*
 * main.c - a program of several files, a shared library and a dlopen()ed
 * module, run with many threads.  It counts what each site does by itself
 * and prints the tally as "site correct incorrect" lines, so the test can
 * compare it with the profile the runtime writes.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hints.h"

unsigned long lib_work(struct tally *t, unsigned long i);

static unsigned long iterations = 10000000;
static unsigned long (*plugin_work)(struct tally *, unsigned long);
static struct tally tallies[64];

static void *worker(void *arg)
{
	struct tally *t = arg;
	unsigned long i, sum = 0;

	for (i = 0; likely(i < iterations); i++) {
		t->correct[T_MAIN_LOOP]++;
		if (unlikely(i % 100 == 0)) {
			t->incorrect[T_MAIN_RARE]++;
			sum++;
		} else {
			t->correct[T_MAIN_RARE]++;
		}
		sum += (unsigned long)is_multiple(t, T_INLINE_MAIN, i, 11);
		sum += other_work(t, i);
		sum += lib_work(t, i);
		if (i < iterations / 4)
			sum += plugin_work(t, i);
	}
	t->incorrect[T_MAIN_LOOP]++;  /* the test that ended the loop */
	return (void *)sum;
}

int main(int argc, char **argv)
{
	int threads = argc > 1 ? atoi(argv[1]) : 8;
	const char *plugin = argc > 2 ? argv[2] : "./plugin.so";
	pthread_t tid[64];
	struct tally total;
	void *handle;
	int i, s;

	if (getenv("ITERATIONS"))
		iterations = strtoul(getenv("ITERATIONS"), NULL, 10);
	if (threads < 1 || threads > 64)
		return 2;
	handle = dlopen(plugin, RTLD_NOW);
	if (!handle) {
		fprintf(stderr, "dlopen: %s\n", dlerror());
		return 2;
	}
	*(void **)&plugin_work = dlsym(handle, "plugin_work");
	if (!plugin_work)
		return 2;
	for (i = 0; i < threads; i++)
		if (pthread_create(&tid[i], NULL, worker, &tallies[i]))
			return 2;
	for (i = 0; i < threads; i++)
		pthread_join(tid[i], NULL);
	/* the module's counts must outlive it */
	dlclose(handle);

	memset(&total, 0, sizeof(total));
	for (i = 0; i < threads; i++)
		for (s = 0; s < T_NSITES; s++) {
			total.correct[s] += tallies[i].correct[s];
			total.incorrect[s] += tallies[i].incorrect[s];
		}
	for (s = 0; s < T_NSITES; s++)
		printf("%d %llu %llu\n", s, total.correct[s],
		       total.incorrect[s]);
	return 0;
}
