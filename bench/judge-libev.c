/*
 * judge-libev.c - a libev workload for bench/judge.sh: pipes read through
 * the backend named by argv[1] (select, poll, epoll), timers started and
 * stopped, an idle watcher driving 20000 rounds.  Every timer expires at
 * once, so the counts do not depend on how fast the program runs (it runs
 * under valgrind for judge, natively for the instrumented build).
 */
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "ev.h"

#define NP 16

static int fds[NP][2];
static ev_io iow[NP];
static ev_timer tw[64];
static ev_idle idle;
static long reads, fires, rounds;

static void io_cb(struct ev_loop *loop, ev_io *w, int revents)
{
	char buf[64];

	(void)loop;
	(void)revents;
	if (read(w->fd, buf, sizeof(buf)) > 0)
		reads++;
}

static void timer_cb(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)revents;
	fires++;
	if (fires % 3 == 0)
		ev_timer_stop(loop, w);
}

static void idle_cb(struct ev_loop *loop, ev_idle *w, int revents)
{
	int i;

	(void)revents;
	rounds++;
	for (i = 0; i < NP; i++)
		if ((rounds + i) % 5 == 0 && write(fds[i][1], "x", 1) < 0)
			abort();
	i = (int)(rounds % 64);
	if (!ev_is_active(&tw[i])) {
		ev_timer_set(&tw[i], 0., 0.);
		ev_timer_start(loop, &tw[i]);
	}
	if (rounds >= 20000) {
		ev_idle_stop(loop, w);
		ev_break(loop, EVBREAK_ALL);
	}
}

int main(int argc, char **argv)
{
	unsigned backend = argc > 1 ? (unsigned)atoi(argv[1]) :
				      EVBACKEND_SELECT;
	struct ev_loop *loop = ev_loop_new(backend);
	int i;

	if (!loop)
		return 2;
	for (i = 0; i < NP; i++) {
		if (pipe(fds[i]))
			return 2;
		ev_io_init(&iow[i], io_cb, fds[i][0], EV_READ);
		ev_io_start(loop, &iow[i]);
	}
	for (i = 0; i < 64; i++)
		ev_timer_init(&tw[i], timer_cb, 0., 0.);
	ev_idle_init(&idle, idle_cb);
	ev_idle_start(loop, &idle);
	ev_run(loop, 0);
	printf("%ld %ld %d\n", reads, rounds, fires > 0);
	ev_loop_destroy(loop);
	return 0;
}
