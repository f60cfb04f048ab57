/* main.c - two threads through the pool, then a plugin loaded twice. */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

struct pool {
	long hits, misses;
	const int *slots;
	int n;
};

int pool_get(struct pool *p, int v);

static const int slots[16] = { 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13,
			       14, 15, 16 };

static void *worker(void *arg)
{
	struct pool p = { 0, 0, slots, 16 };
	long i, n = (long)arg, s = 0;

	for (i = 0; i < n; i++)
		s += pool_get(&p, (int)(i % 23) - 3);
	return (void *)(s + p.hits + p.misses);
}

int main(int argc, char **argv)
{
	pthread_t t[2];
	void *r[2];
	long k, total = 0;

	for (k = 0; k < 2; k++)
		pthread_create(&t[k], NULL, worker, (void *)(20000 + 7 * k));
	for (k = 0; k < 2; k++) {
		pthread_join(t[k], &r[k]);
		total += (long)r[k];
	}
	for (k = 0; k < 2 && argc > 1; k++) {
		void *h = dlopen(argv[1], RTLD_NOW);
		int (*run)(int);

		if (!h) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		*(void **)&run = dlsym(h, "plugin_run");
		total += run(1000 + (int)k);
		dlclose(h);
	}
	printf("%ld\n", total);
	return 0;
}
