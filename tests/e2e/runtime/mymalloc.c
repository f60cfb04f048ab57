/*
 * mymalloc.c - a program whose malloc is its own and carries hints, as
 * jemalloc's does: the runtime must never call malloc where such a hint
 * could come back into it (no recursion, no deadlock), and the
 * allocator's own hints must be counted like any others.  The allocator
 * forwards to glibc's, so everything in the process, glibc included,
 * goes through it.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

void *__libc_malloc(size_t n);
void *__libc_calloc(size_t a, size_t b);
void *__libc_realloc(void *p, size_t n);
void __libc_free(void *p);

static unsigned long mallocs;   /* calls of malloc(), atomically */

void *malloc(size_t n)
{
	__atomic_add_fetch(&mallocs, 1, __ATOMIC_RELAXED);
	if (unlikely(n == 0))
		n = 1;
	return __libc_malloc(n);
}

void free(void *p)
{
	if (likely(p != NULL))
		__libc_free(p);
}

void *calloc(size_t a, size_t b)
{
	return __libc_calloc(a, b);
}

void *realloc(void *p, size_t n)
{
	return __libc_realloc(p, n);
}

static void *worker(void *arg)
{
	int i;

	(void)arg;
	for (i = 0; i < 1000; i++) {
		/*
		 * volatile: a call the compiler cannot pair away with its
		 * free; per thread, or two threads would free one block
		 */
		void *volatile block = malloc(32);

		free(block);
	}
	return NULL;
}

int main(void)
{
	pthread_t t[4];
	pthread_key_t keys[40];
	unsigned long n;
	char line[64];
	int i, len;

	/*
	 * Push the runtime's key... the runtime made its key first; these
	 * make threads' specific data allocate in glibc, through our malloc.
	 */
	for (i = 0; i < 40; i++) {
		pthread_key_create(&keys[i], NULL);
		pthread_setspecific(keys[i], &keys[i]);
	}
	for (i = 0; i < 4; i++)
		pthread_create(&t[i], NULL, worker, NULL);
	for (i = 0; i < 4; i++)
		pthread_join(t[i], NULL);
	n = __atomic_load_n(&mallocs, __ATOMIC_RELAXED);
	/* not printf: it would allocate its buffer after the count */
	len = snprintf(line, sizeof(line), "mallocs %lu\n", n);
	return write(1, line, (size_t)len) == len ? 0 : 1;
}
