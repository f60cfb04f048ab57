/*
 * faults.c - the runtime under the things real programs do to it.
 * Usage: faults MODE N; each mode prints what the profile must then say.
 */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define unlikely(x) __builtin_expect(!!(x), 0)

/* the API; a plain build of this file must compile too */
#include <likelyprof.h>

static unsigned long hits;

/* one site; i % 4 == 0 is the "incorrect" quarter */
static void work(unsigned long n)
{
	unsigned long i;

	for (i = 0; i < n; i++)
		if (unlikely(i % 4 == 0))
			hits++;
}

static void *exit_from_thread(void *arg)
{
	work(*(unsigned long *)arg);
	fflush(stdout);
	exit(0);
}

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	unsigned long n = argc > 2 ? strtoul(argv[2], NULL, 10) : 1000;

	if (!strcmp(mode, "fork")) {
		pid_t pid;
		int status;

		work(n);
		pid = fork();
		if (pid == 0) {
			work(n / 2);
			exit(0);
		}
		waitpid(pid, &status, 0);
		work(n);
		printf("parent %d %lu\nchild %d %lu\n", (int)getpid(), 2 * n,
		       (int)pid, n / 2);
		return 0;
	}
	if (!strcmp(mode, "thread-exit")) {
		pthread_t t;

		pthread_create(&t, NULL, exit_from_thread, &n);
		for (;;)
			pause();
	}
	if (!strcmp(mode, "signal")) {
		/* a server dumps on the signal and later dies without exit() */
		work(n);
		kill(getpid(), SIGUSR2);
		work(n);
		fflush(stdout);
		kill(getpid(), SIGKILL);
	}
	if (!strcmp(mode, "api")) {
		int err;

		work(n);
		errno = 4242;
		err = likelyprof_dump(argv[3]);
		printf("dump %d errno %d\n", err, errno);
		likelyprof_reset();
		work(n / 2);
		return 0;
	}
	if (!strcmp(mode, "errno")) {
		/* the first evaluation registers the site: errno must survive */
		errno = 4242;
		work(1);
		printf("errno %d\n", errno);
		return 7;
	}
	work(n);
	printf("plain %lu\n", hits);
	return 3;
}
