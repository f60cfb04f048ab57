/*
 * life.c - how a process ends or changes: exec, daemon(), _exit, a closed
 * stderr, its own handler for the dump signal, a module loaded again and
 * again.  Usage: life MODE N [ARG]; every mode evaluates count()'s one
 * site N times first (i % 4 == 0 is the incorrect quarter).
 */
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

static volatile unsigned long hits;

static void count(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (unlikely(i % 4 == 0))
			hits++;
}

static void on_usr2(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;
	const char *arg = argc > 3 ? argv[3] : "";

	count(n);
	if (!strcmp(mode, "exec")) {
		/* the new image counts N again in a profile of its own */
		execl(argv[0], argv[0], "plain", argv[2], (char *)NULL);
		return 9;
	}
	if (!strcmp(mode, "execvp")) {
		char *args[] = { argv[0], "plain", argv[2], NULL };

		execvp(argv[0], args);
		return 9;
	}
	if (!strcmp(mode, "daemon")) {
		/* the parent _exit()s inside daemon(); the child counts N */
		if (daemon(1, 1))
			return 8;
		count(n);
		return 0;
	}
	if (!strcmp(mode, "_exit"))
		_exit(0);
	if (!strcmp(mode, "sleep")) {
		sleep(60);
		return 0;
	}
	if (!strcmp(mode, "stderr-reuse")) {
		/* fd 2 becomes the program's data file */
		close(2);
		if (open(arg, O_WRONLY | O_CREAT | O_TRUNC, 0644) != 2)
			return 7;
		if (write(2, "data\n", 5) != 5)
			return 7;
		return 0;
	}
	if (!strcmp(mode, "own-handler")) {
		struct sigaction sa = { .sa_handler = on_usr2 };

		sigaction(SIGUSR2, &sa, NULL);
		raise(SIGUSR2);
		return 0;
	}
	if (!strcmp(mode, "dlopen")) {
		/* ARG is a module with `unsigned long mod_work(unsigned long)` */
		unsigned long k, cycles = n, sum = 0;

		for (k = 0; k < cycles; k++) {
			void *h = dlopen(arg, RTLD_NOW);
			unsigned long (*fn)(unsigned long);

			if (!h)
				return 6;
			*(void **)&fn = dlsym(h, "mod_work");
			sum += fn ? fn(k) : 0;
			dlclose(h);
		}
		printf("mod %lu\n", sum);
		return 0;
	}
	printf("plain %lu\n", hits);
	return 0;
}
