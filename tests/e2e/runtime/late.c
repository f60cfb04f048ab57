/*
 * late.c - hints that run after the runtime has summed a leaving thread.
 * Each thread has a key destructor of the program's, made after the
 * runtime's key, that sets its key again so that glibc calls it in every
 * round it makes: in the last round it runs after the runtime's
 * destructor, and nothing is told after it.  Each thread runs on a stack
 * of the program's own (its thread-local storage with it), which main()
 * unmaps once the thread is joined, so a slot left pointing at it faults
 * at the dump.  Prints what late()'s site must count: "late CORRECT
 * INCORRECT".
 * Usage: late THREADS EVALUATIONS
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>

#define likely(x) __builtin_expect(!!(x), 1)

#define STACK_SIZE (1 << 20)

static pthread_key_t key;
static unsigned long evaluations;
static unsigned long correct, incorrect;
static volatile unsigned long sink;

static void late(unsigned long n)
{
	unsigned long i, c = 0;

	for (i = 0; i < n; i++)
		if (likely(i % 4 != 0)) {
			sink++;
			c++;
		}
	__atomic_fetch_add(&correct, c, __ATOMIC_RELAXED);
	__atomic_fetch_add(&incorrect, n - c, __ATOMIC_RELAXED);
}

static void on_exit_round(void *arg)
{
	late(evaluations);
	/* asks glibc for another round, up to its limit */
	pthread_setspecific(key, arg);
}

static void *worker(void *arg)
{
	pthread_setspecific(key, arg);
	late(evaluations);
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long threads = argc > 1 ? strtoul(argv[1], NULL, 10) : 8, t;

	evaluations = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
	if (pthread_key_create(&key, on_exit_round))
		return 1;
	for (t = 0; t < threads; t++) {
		pthread_attr_t attr;
		pthread_t th;
		void *stack = mmap(NULL, STACK_SIZE, PROT_READ | PROT_WRITE,
				   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (stack == MAP_FAILED || pthread_attr_init(&attr) ||
		    pthread_attr_setstack(&attr, stack, STACK_SIZE) ||
		    pthread_create(&th, &attr, worker, &key) ||
		    pthread_join(th, NULL))
			return 1;
		pthread_attr_destroy(&attr);
		munmap(stack, STACK_SIZE);
	}
	printf("late %lu %lu\n", correct, incorrect);
	return 0;
}
