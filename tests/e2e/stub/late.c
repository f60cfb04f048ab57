/*
 * late.c - a plain program that has made 40 pthread keys before it
 * dlopen()s an instrumented module, so the runtime's own key is past
 * glibc's first 32.  A thread on a stack of the program's own evaluates
 * the module's hints and ends; the program unmaps that stack.  The first
 * counts came from the stub, which cannot ask for the thread's exit to be
 * told there: the runtime must not keep slots that point into the gone
 * stack (the dump at exit would read unmapped memory), and must count
 * the thread's evaluations all the same.
 */
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <sys/mman.h>

#define STACK (1 << 20)

static int (*plug)(int);

static void *work(void *arg)
{
	int i, s = 0;

	(void)arg;
	for (i = 0; i < 1000; i++)
		s += plug(i);
	return (void *)(long)s;
}

int main(int argc, char **argv)
{
	pthread_key_t keys[40];
	pthread_attr_t attr;
	pthread_t t;
	void *stack, *handle, *r;
	int i, s = 0;

	for (i = 0; i < 40; i++)
		if (pthread_key_create(&keys[i], NULL))
			return 2;
	handle = argc > 1 ? dlopen(argv[1], RTLD_NOW) : NULL;
	if (!handle || !(plug = (int (*)(int))dlsym(handle, "plug"))) {
		fprintf(stderr, "late: %s\n", dlerror());
		return 2;
	}
	stack = mmap(NULL, STACK, PROT_READ | PROT_WRITE,
		     MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (stack == MAP_FAILED || pthread_attr_init(&attr) ||
	    pthread_attr_setstack(&attr, stack, STACK) ||
	    pthread_create(&t, &attr, work, NULL) || pthread_join(t, &r))
		return 2;
	munmap(stack, STACK);
	for (i = 0; i < 10; i++)
		s += plug(i);
	printf("%ld %d\n", (long)r, s);
	return 0;
}
