/*
 * handler.c - a hint inside the program's own signal handler, with the
 * signal aimed at a thread that is registering its first evaluations (so
 * it lands inside the runtime's locked section, or between taking the lock
 * and marking the holder).  Prints how many times the handler ran: the
 * handler's site must say exactly that, and the program must not hang.
 * Usage: handler ROUNDS
 */
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>

#define likely(x) __builtin_expect(!!(x), 1)

static unsigned long handled;
static volatile int done;
static volatile unsigned long sink;

static void on_usr1(int sig)
{
	if (likely(sig == SIGUSR1))
		__atomic_fetch_add(&handled, 1, __ATOMIC_RELAXED);
}

/* 1000 sites: each expansion of likely() is a site of its own */
#define S1 sink += likely(sink != 1);
#define S10 S1 S1 S1 S1 S1 S1 S1 S1 S1 S1
#define S100 S10 S10 S10 S10 S10 S10 S10 S10 S10 S10
#define S1000 S100 S100 S100 S100 S100 S100 S100 S100 S100 S100

static void *worker(void *arg)
{
	(void)arg;
	/* a new thread: every site's first evaluation enters the runtime */
	S1000
	done = 1;
	return NULL;
}

int main(int argc, char **argv)
{
	unsigned long rounds = argc > 1 ? strtoul(argv[1], NULL, 10) : 20;
	struct sigaction sa = { .sa_handler = on_usr1 };
	unsigned long r;

	sigaction(SIGUSR1, &sa, NULL);
	for (r = 0; r < rounds; r++) {
		pthread_t t;

		done = 0;
		if (pthread_create(&t, NULL, worker, NULL))
			return 1;
		while (!done)
			pthread_kill(t, SIGUSR1);
		pthread_join(t, NULL);
	}
	printf("handled %lu\n", __atomic_load_n(&handled, __ATOMIC_RELAXED));
	return 0;
}
