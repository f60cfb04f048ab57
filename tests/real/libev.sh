# libev.sh - libev for tests/real/run.sh; sourced, not run.
#
# Autotools (`./configure CC=...`, `make`, libtool).  Its hints are
# libecb's, spelled with a space before the parenthesis through a chain
# of macros: `ecb_expect_true (x)` is `ecb_expect (!!(x), 1)`, which is
# `__builtin_expect ((expr),(value))` (and `ecb_likely (x)` is
# `ecb_expect_true (x)`); some sit in macros of ev.c, object-like ones
# (EV_ACQUIRE_CB, EV_RELEASE_CB) and containers (array_needsize()).
# ev.c includes the backends (ev_epoll.c, ev_poll.c, ev_select.c,
# ev_linuxaio.c, ev_iouring.c).  The tarball has no test of its own: the
# workload is a program of ours, compiled against the built libev.a with
# the build's compiler, that runs one loop per backend this machine has
# (select, poll, epoll, and linuxaio and io_uring when the kernel lets
# it), then the default loop: a ping pong of 20,000 messages through two
# non-blocking pipes with io watchers, 3,000 timers (a tenth stopped
# before they fire) and a repeating one, periodic, idle (each restarting
# a timer), prepare, check and async watchers, and on the default loop
# 300 signals one after another and a child watcher on a forked process.
# What it prints is what does not depend on time (sums, the order the
# timers fire in, counts of the events it waits for); the loop's
# iterations go to the log.

pkg=libev
annot_dirs="."

build() {
	./configure ${LP_REAL_CC:+"CC=$LP_REAL_CC"} &&
	make -j"$JOBS"
}

program() {
	cat << 'EOF'
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include "ev.h"

#define MESSAGES 20000
#define TIMERS 3000

static FILE *out, *logf;

/* the ping pong: ping writes on a, pong reads it and answers on b */
static int a[2], b[2];
static ev_io a_read, a_write, b_read;
static unsigned long sent, received, answered, sum;
static char pending_byte;
static int have_pending;

static void nonblock(int fd)
{
	fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK);
}

static void on_a_write(struct ev_loop *loop, ev_io *w, int revents)
{
	unsigned char c = (unsigned char)(sent * 7 + 3);

	(void)revents;
	if (write(a[1], &c, 1) == 1) {
		sent++;
		ev_io_stop(loop, w);	/* the answer restarts it */
	}
}

static void on_b_read(struct ev_loop *loop, ev_io *w, int revents)
{
	unsigned char c;

	(void)loop; (void)w; (void)revents;
	while (read(a[0], &c, 1) == 1) {
		received++;
		sum = sum * 31 + c;
		c ^= 0x5a;
		if (write(b[1], &c, 1) != 1)
			abort();
	}
}

static void on_a_read(struct ev_loop *loop, ev_io *w, int revents)
{
	unsigned char c;

	(void)revents;
	while (read(b[0], &c, 1) == 1) {
		answered++;
		sum = sum * 17 + c;
		if (sent < MESSAGES)
			ev_io_start(loop, &a_write);
	}
	if (answered == MESSAGES) {
		ev_io_stop(loop, w);
		ev_io_stop(loop, &b_read);
	}
}

/* timers: fired in the order of their timeouts */
static ev_timer timers[TIMERS], repeat, churn;
static unsigned long fired_hash, fired, repeats, churned;

static void on_timer(struct ev_loop *loop, ev_timer *w, int revents)
{
	long i = (long)(w - timers);

	(void)loop; (void)revents;
	fired++;
	fired_hash = fired_hash * 1000003 + (unsigned long)i;
}

static void on_repeat(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)revents;
	if (++repeats == 25)
		ev_timer_stop(loop, w);
}

static void on_churn(struct ev_loop *loop, ev_timer *w, int revents)
{
	(void)loop; (void)w; (void)revents;
	churned++;
}

/* periodic, idle, prepare, check, async, signal, child */
static ev_periodic periodic;
static ev_idle idle;
static ev_prepare prepare;
static ev_check check;
static ev_async async;
static ev_signal sig;
static ev_child child;
static unsigned long periodics, idles, prepares, checks, asyncs, signals;
static int child_status = -1;

static void on_periodic(struct ev_loop *loop, ev_periodic *w, int revents)
{
	(void)revents;
	if (++periodics == 5)
		ev_periodic_stop(loop, w);
}

static void on_idle(struct ev_loop *loop, ev_idle *w, int revents)
{
	(void)revents;
	/* the churn: a timer restarted over and over, never fired */
	ev_timer_stop(loop, &churn);
	ev_timer_set(&churn, 1000. + (double)(idles % 13), 0.);
	ev_timer_start(loop, &churn);
	if (++idles >= 20000)
		ev_idle_stop(loop, w);
}

static void on_prepare(struct ev_loop *loop, ev_prepare *w, int revents)
{
	(void)loop; (void)w; (void)revents;
	prepares++;
}

static void on_check(struct ev_loop *loop, ev_check *w, int revents)
{
	(void)w; (void)revents;
	checks++;
	/* each async send is seen once before the next */
	if (asyncs < 500 && !ev_async_pending(&async))
		ev_async_send(loop, &async);
}

static void on_async(struct ev_loop *loop, ev_async *w, int revents)
{
	(void)loop; (void)w; (void)revents;
	asyncs++;
}

static void on_signal(struct ev_loop *loop, ev_signal *w, int revents)
{
	(void)revents;
	/* one signal at a time: the next is raised once this one is seen */
	if (++signals < 300)
		kill(getpid(), SIGUSR1);
	else
		ev_signal_stop(loop, w);
}

static void on_child(struct ev_loop *loop, ev_child *w, int revents)
{
	(void)revents;
	child_status = WEXITSTATUS(w->rstatus);
	ev_child_stop(loop, w);
}

static const char *backend_name(unsigned int b)
{
	switch (b) {
	case EVBACKEND_SELECT: return "select";
	case EVBACKEND_POLL: return "poll";
	case EVBACKEND_EPOLL: return "epoll";
	case EVBACKEND_LINUXAIO: return "linuxaio";
	case EVBACKEND_IOURING: return "iouring";
	}
	return "?";
}

static void run(struct ev_loop *loop, unsigned int backend, int is_default)
{
	int i;
	pid_t pid = -1;

	sent = received = answered = sum = 0;
	fired_hash = fired = repeats = churned = 0;
	periodics = idles = prepares = checks = asyncs = signals = 0;
	child_status = -1;
	if (pipe(a) || pipe(b))
		abort();
	nonblock(a[0]); nonblock(a[1]); nonblock(b[0]); nonblock(b[1]);
	ev_io_init(&a_write, on_a_write, a[1], EV_WRITE);
	ev_io_init(&b_read, on_b_read, a[0], EV_READ);
	ev_io_init(&a_read, on_a_read, b[0], EV_READ);
	ev_io_start(loop, &a_write);
	ev_io_start(loop, &b_read);
	ev_io_start(loop, &a_read);
	for (i = 0; i < TIMERS; i++) {
		/* distinct timeouts in a scrambled start order */
		int k = (i * 1237) % TIMERS;

		ev_timer_init(&timers[k], on_timer, 0.0001 * (k + 1), 0.);
		ev_timer_start(loop, &timers[k]);
	}
	/* some stopped again before they fire */
	for (i = 0; i < TIMERS; i += 10)
		ev_timer_stop(loop, &timers[i]);
	ev_timer_init(&repeat, on_repeat, 0.001, 0.002);
	ev_timer_start(loop, &repeat);
	ev_timer_init(&churn, on_churn, 1000., 0.);
	ev_periodic_init(&periodic, on_periodic, 0., 0.003, 0);
	ev_periodic_start(loop, &periodic);
	ev_idle_init(&idle, on_idle);
	ev_idle_start(loop, &idle);
	ev_prepare_init(&prepare, on_prepare);
	ev_prepare_start(loop, &prepare);
	ev_check_init(&check, on_check);
	ev_check_start(loop, &check);
	ev_async_init(&async, on_async);
	ev_async_start(loop, &async);
	if (is_default) {
		ev_signal_init(&sig, on_signal, SIGUSR1);
		ev_signal_start(loop, &sig);
		kill(getpid(), SIGUSR1);
		fflush(NULL);
		pid = fork();
		if (pid == 0)
			_exit(7);
		ev_child_init(&child, on_child, pid, 0);
		ev_child_start(loop, &child);
	}
	/* until the pipes, timers, idle and signals are done; then the
	   watchers that would keep it running are stopped */
	while (answered < MESSAGES || fired < TIMERS - TIMERS / 10 ||
	       repeats < 25 || periodics < 5 || idles < 20000 ||
	       asyncs < 500 || (is_default && (signals < 300 ||
	       child_status < 0)))
		ev_run(loop, EVRUN_ONCE);
	ev_timer_stop(loop, &churn);
	ev_prepare_stop(loop, &prepare);
	ev_check_stop(loop, &check);
	ev_async_stop(loop, &async);
	ev_run(loop, 0);	/* returns at once: nothing is active */
	fprintf(out, "%s%s: %lu sent, %lu received, %lu answered, sum %lu;"
		" %lu timers, order %lu; %lu repeats, %lu periodics, "
		"%lu idles, %lu churned, %lu asyncs, %lu signals, child %d\n",
		backend_name(backend), is_default ? " (default)" : "",
		sent, received, answered, sum, fired, fired_hash, repeats,
		periodics, idles, churned, asyncs, signals, child_status);
	fprintf(logf, "%s: %u iterations, %lu prepares, %lu checks\n",
		backend_name(backend), ev_iteration(loop), prepares, checks);
	close(a[0]); close(a[1]); close(b[0]); close(b[1]);
}

int main(int argc, char **argv)
{
	static const unsigned int backends[] = {
		EVBACKEND_SELECT, EVBACKEND_POLL, EVBACKEND_EPOLL,
		EVBACKEND_LINUXAIO, EVBACKEND_IOURING
	};
	unsigned int i;
	struct ev_loop *loop;

	if (argc != 3 || !(out = fopen(argv[1], "w")) ||
	    !(logf = fopen(argv[2], "w")))
		return 2;
	fprintf(out, "libev %d.%d\n", ev_version_major(), ev_version_minor());
	for (i = 0; i < sizeof backends / sizeof backends[0]; i++) {
		loop = ev_loop_new(backends[i] | EVFLAG_NOENV);
		if (!loop) {
			fprintf(logf, "%s: not available\n",
				backend_name(backends[i]));
			continue;
		}
		run(loop, backends[i], 0);
		ev_loop_destroy(loop);
	}
	loop = ev_default_loop(EVBACKEND_EPOLL | EVFLAG_NOENV);
	if (!loop)
		return 1;
	run(loop, ev_backend(loop), 1);
	ev_loop_destroy(loop);
	return fclose(out) || fclose(logf);
}
EOF
}

workload() {
	out=$1
	log=$2
	program > "$log/evtest.c" || return 1
	# against the library just built, with its compiler (the instrumented
	# libev.a needs the runtime that `likelyprof cc` links)
	${LP_REAL_CC:-cc} -O2 -I. -o "$log/evtest" "$log/evtest.c" \
		.libs/libev.a -lm || return 1
	"$log/evtest" "$out/evtest" "$log/evtest.log"
}
