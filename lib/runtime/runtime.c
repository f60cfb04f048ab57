/*
 * runtime.c - collects the counts of every instrumented module and thread
 * and writes one profile per process
 *
 * The hot path is in the header: each thread increments its own copy of a
 * site's counter (struct lp_counter in thread-local storage).  This file is
 * the cold side:
 *
 *  - lp__enter() runs once per thread and site and records where that
 *    thread's counter lives (a "slot");
 *  - a thread's exit adds its counters into the site's totals (a "cell"),
 *    so nothing is lost when its thread-local storage goes away;
 *  - a dump adds, per site, the totals and the counters of the threads
 *    still alive, and writes them.
 *
 * Everything is serialised by one spin lock that only cold paths take.
 * Memory comes from mmap, never malloc: the profiled program may be a
 * malloc implementation whose own hints call into us.  The dump is
 * async-signal-safe (LIKELYPROF_SIGNAL): no stdio, no malloc, and when a
 * signal arrives while the lock is held, the holder writes the profile as
 * it lets go.
 */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "runtime.h"
#include "likelyprof.h"
#include "stub.h"

struct lp_rt lp__rt;

__thread int lp__in_lock __attribute__((tls_model("initial-exec")));
__thread struct lp_thread *lp__self __attribute__((tls_model("initial-exec")));
__thread struct lp_deferred lp__deferred[LP_DEFERRED_MAX]
	__attribute__((tls_model("initial-exec")));
__thread unsigned lp__n_deferred __attribute__((tls_model("initial-exec")));

/* --- counters ---------------------------------------------------------- */

/* Takes a field's count and re-arms it, so the next increment reports. */
unsigned long long lp__counter_take(unsigned long long *field)
{
	return __atomic_exchange_n(field, LP_COUNTER_ARMED,
				   __ATOMIC_RELAXED) + 1;
}

void lp__counter_rearm(struct lp_counter *c)
{
	__atomic_store_n(&c->correct, LP_COUNTER_ARMED, __ATOMIC_RELAXED);
	__atomic_store_n(&c->incorrect, LP_COUNTER_ARMED, __ATOMIC_RELAXED);
	__atomic_store_n(&c->constant, LP_COUNTER_ARMED, __ATOMIC_RELAXED);
}

/* --- lock -------------------------------------------------------------- */

/*
 * lp__in_lock is set before the lock is taken and cleared after it is let go:
 * a signal that lands in either window, whose handler evaluates a hint,
 * must see "this thread is in the runtime" and not wait for itself.
 */
static void mark_in_lock(int v)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	lp__in_lock = v;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static int try_lock(void)
{
	if (lp__in_lock)
		return 0;
	mark_in_lock(1);
	if (__atomic_exchange_n(&lp__rt.lock, 1, __ATOMIC_ACQUIRE)) {
		mark_in_lock(0);
		return 0;
	}
	return 1;
}

__attribute__((noinline)) void lp__lock_wait(void)
{
	unsigned spins = 0;

	while (__atomic_exchange_n(&lp__rt.lock, 1, __ATOMIC_ACQUIRE)) {
		/* cold paths only: yield rather than burn the other core */
		if (++spins > 64)
			sched_yield();
	}
}


static void unlock_slow(void);

void lp__unlock(void)
{
	/* nothing left to the holder, as at most first counts: no frame */
	if (!__atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED) &&
	    !__atomic_load_n(&lp__rt.pending_dump, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&lp__rt.lock, 0, __ATOMIC_RELEASE);
		mark_in_lock(0);
		if (!__atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED))
			return;
		lp__lock();
	}
	unlock_slow();
}

static __attribute__((noinline)) void unlock_slow(void)
{
	unsigned drained = 0;

	for (;;) {
		/*
		 * A dump signal that found the lock taken left the work to
		 * us, and a hint of a handler that interrupted this thread
		 * left its registration.  The loop catches what arrives
		 * while we write.
		 */
		/* every first count passes here: a call only when needed */
		if (__atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED))
			drained += lp__drain_deferred();
		while (__atomic_load_n(&lp__rt.pending_dump,
				       __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&lp__rt.pending_dump, 0,
					 __ATOMIC_RELEASE);
			lp__dump_locked(NULL);
			drained += lp__drain_deferred();
		}
		__atomic_store_n(&lp__rt.lock, 0, __ATOMIC_RELEASE);
		mark_in_lock(0);
		/* a handler ran between the two stores: take it again */
		if (!__atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED))
			break;
		lp__lock();
	}
	if (drained)
		lp__thread_arm_exit(lp__self);
}

/* --- memory ------------------------------------------------------------ */


/* --- set-up ------------------------------------------------------------ */

static void mark_started(void);

static void set_exiting(void)
{
	__atomic_store_n(&lp__rt.exiting, 1, __ATOMIC_RELEASE);
}

static void on_dump_signal(int sig)
{
	int saved = errno;

	(void)sig;
	if (try_lock()) {
		lp__dump_locked(NULL);
		lp__unlock();
	} else {
		/*
		 * The holder dumps as it lets go; if it let go before it
		 * could see the flag, the lock is free now and we do.
		 */
		__atomic_store_n(&lp__rt.pending_dump, 1, __ATOMIC_RELEASE);
		if (try_lock())
			lp__unlock();
	}
	errno = saved;
}

/* "USR2", "SIGUSR2", "12", "RTMIN+3"; 0 if not a signal. */
static int parse_signal(const char *s)
{
	static const struct { const char *name; int sig; } names[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT },
		{ "USR1", SIGUSR1 }, { "USR2", SIGUSR2 }, { "ALRM", SIGALRM },
		{ "TERM", SIGTERM }, { "CONT", SIGCONT }, { "TSTP", SIGTSTP },
		{ "TTIN", SIGTTIN }, { "TTOU", SIGTTOU }, { "URG", SIGURG },
		{ "XCPU", SIGXCPU }, { "XFSZ", SIGXFSZ },
		{ "VTALRM", SIGVTALRM },
		{ "PROF", SIGPROF }, { "WINCH", SIGWINCH }, { "IO", SIGIO },
		{ "PWR", SIGPWR }, { "SYS", SIGSYS },
	};
	char *end;
	size_t i;
	long v;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	if (!strncmp(s, "RTMIN", 5)) {
		v = s[5] == '+' ? strtol(s + 6, &end, 10) : 0;
		if ((s[5] == '+' && *end) || (s[5] && s[5] != '+'))
			return 0;
		v += SIGRTMIN;
		return v <= SIGRTMAX ? (int)v : 0;
	}
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].sig;
	v = strtol(s, &end, 10);
	if (*s && !*end && v > 0 && v < NSIG && v != SIGKILL && v != SIGSTOP)
		return (int)v;
	return 0;
}

/*
 * The parent's counts are written before every fork, as gcov does: a
 * parent that leaves through _exit() (daemon(), the double fork of a
 * server) never reaches its exit dump.  A parent that goes on rewrites the
 * same file at exit with everything.  Costs one profile write per fork
 * (doc/DESIGN.md).
 */
static void fork_prepare(void)
{
	lp__lock();
	if (lp__rt.init_done && getpid() == lp__rt.pid)
		lp__dump_locked(NULL);
}

static void fork_parent(void)
{
	lp__unlock();
}

/*
 * The child starts from zero: its profile covers what it does, and the
 * parent's counts stay the parent's.  Only the forking thread exists in the
 * child; the records of the others are dropped without summing.
 */
static void fork_child(void)
{
	struct lp_module *m;
	struct lp_dynsite *d;
	struct lp_thread *t;
	size_t i;

	for (m = lp__rt.modules; m; m = m->next)
		memset(m->cells, 0, sizeof(*m->cells) *
		       (size_t)(m->last - m->first));
	for (d = lp__rt.dyn_all; d; d = d->all)
		memset(&d->cell, 0, sizeof(d->cell));
	for (t = lp__rt.threads; t; t = t->next) {
		if (t == lp__self)
			continue;
		t->live = 0;
		t->n = 0;
	}
	if (lp__self)
		for (i = 0; i < lp__self->n; i++)
			lp__counter_rearm(lp__self->slots[i].ctr);
	/* first evaluations the parent had not registered yet */
	for (i = 0; i < lp__n_deferred; i++) {
		lp__counter_rearm(lp__deferred[i].ctr);
		lp__deferred[i].ctr->site = NULL;
	}
	lp__n_deferred = 0;
	lp__rt.pending_dump = 0;
	/* a process of its own: its own file and its own mark */
	lp__rt.pid = getpid();
	lp__rt.have_own = 0;
	mark_started();
	lp__in_lock = 0;
	__atomic_store_n(&lp__rt.lock, 0, __ATOMIC_RELEASE);
}

static void read_program(void)
{
	ssize_t n = readlink("/proc/self/exe", lp__rt.program,
			     sizeof(lp__rt.program) - 1);
	const char *slash;

	if (n <= 0)
		n = 0;
	lp__rt.program[n] = '\0';
	slash = strrchr(lp__rt.program, '/');
	lp__rt.program_name = slash ? slash + 1 : lp__rt.program;
	if (!*lp__rt.program_name)
		lp__rt.program_name = "program";
}

/*
 * A set-user-ID or set-group-ID program (AT_SECURE) runs with rights its
 * user does not have: a path or a signal from that user's environment
 * would let them replace any file.  Such a program writes no profile of
 * its own accord; likelyprof_dump(PATH) with the program's own path still
 * works.
 */
static const char *env_get(const char *name)
{
	return lp__rt.secure ? NULL : secure_getenv(name);
}


/*
 * A relative LIKELYPROF_FILE is taken relative to the folder the program
 * started in, not the one it ends in: daemons chdir("/").
 */
static void read_file_pattern(void)
{
	static const char def[] = "%e.%p.lprof";
	const char *env = env_get("LIKELYPROF_FILE");
	size_t n = 0;

	if (lp__rt.secure)
		return;
	if (!env || !*env)
		env = def;
	if (env[0] != '/') {
		if (!getcwd(lp__rt.file_pattern,
			    sizeof(lp__rt.file_pattern) - 2))
			strcpy(lp__rt.file_pattern, ".");
		n = strlen(lp__rt.file_pattern);
		if (n && lp__rt.file_pattern[n - 1] != '/')
			lp__rt.file_pattern[n++] = '/';
	}
	if (strlen(env) >= sizeof(lp__rt.file_pattern) - n) {
		static const char msg[] = "likelyprof: LIKELYPROF_FILE is "
			"longer than PATH_MAX; writing '%e.%p.lprof' instead\n";

		lp__write_stderr(msg, sizeof(msg) - 1);
		env = def;
	}
	strcpy(lp__rt.file_pattern + n, env);
}

static void install_signal(void)
{
	const char *env = env_get("LIKELYPROF_SIGNAL");
	struct sigaction sa;

	if (!env || !*env)
		return;
	lp__rt.dump_signal = parse_signal(env);
	if (!lp__rt.dump_signal) {
		static const char msg[] = "likelyprof: LIKELYPROF_SIGNAL is "
			"not a signal name; no dump on signal\n";

		lp__write_stderr(msg, sizeof(msg) - 1);
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_dump_signal;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	sigaction(lp__rt.dump_signal, &sa, NULL);
}


/*
 * Under `likelyprof run`, each process that starts with the runtime leaves
 * a mark, so `run` can tell a process that wrote no profile (it left
 * through _exit, a signal or exec) from one that was not instrumented.
 */
static void mark_started(void)
{
	char name[PATH_MAX];
	size_t len = 0;
	int fd;

	if (!lp__rt.run_dir[0])
		return;
	if (lp__put(name, sizeof(name), &len, lp__rt.run_dir,
		    strlen(lp__rt.run_dir)) ||
	    lp__put(name, sizeof(name), &len, "/", 1) ||
	    lp__put_ulong(name, sizeof(name), &len,
			  (unsigned long)lp__rt.pid) ||
	    lp__put(name, sizeof(name), &len, ".start", 6))
		return;
	fd = lp__reserve_unique(name, sizeof(name));
	if (fd >= 0)
		close(fd);
}

static void read_run_dir(void)
{
	const char *env = env_get("LIKELYPROF_RUN");

	if (env && env[0] == '/' && strlen(env) < sizeof(lp__rt.run_dir))
		strcpy(lp__rt.run_dir, env);
}

/* fd 2 as the program found it: errors go there, or nowhere. */
static void read_stderr(void)
{
	struct stat st;

	lp__rt.have_stderr = fstat(2, &st) == 0;
	lp__rt.stderr_dev = st.st_dev;
	lp__rt.stderr_ino = st.st_ino;
}

/*
 * Called locked, from every entry point: constructors may run in any
 * order.  Nothing here may allocate: the profiled program can be the
 * malloc, and its own hints would come back into a lock we hold.
 */
void lp__init_locked(void)
{
	if (lp__rt.init_done)
		return;
	lp__rt.init_done = 1;
	lp__rt.secure = getauxval(AT_SECURE) != 0;
	lp__rt.pid = getpid();
	read_stderr();
	read_program();
	lp__build_note(NULL);
	read_file_pattern();
	read_run_dir();
	mark_started();
	/*
	 * A low key number keeps pthread_setspecific() from allocating its
	 * second-level table with calloc.
	 */
	lp__rt.have_key = !pthread_key_create(&lp__rt.thread_key,
					      lp__thread_exit);
	install_signal();
}

/*
 * What does allocate (glibc's pthread_atfork and atexit tables), called
 * with the lock released and once: a hint evaluated inside that malloc
 * finds the lock free and this step claimed.
 */
void lp__init_unlocked(void)
{
	static int claimed;

	if (__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	atexit(set_exiting);
	__atomic_store_n(&lp__rt.unlocked_done, 1, __ATOMIC_RELEASE);
}

__attribute__((constructor(101)))
static void runtime_load(void)
{
	int saved = errno;

	lp__lock();
	lp__init_locked();
	lp__unlock();
	lp__init_unlocked();
	errno = saved;
}

/*
 * A program that installs its own handler for LIKELYPROF_SIGNAL takes the
 * signal back: its handler wins, as it must, and the dumps it asked for
 * never happened.  Said once, as the program ends.
 */
static void signal_check(void)
{
	struct sigaction cur;

	static const char msg[] = "likelyprof: the program has its own "
		"handler for LIKELYPROF_SIGNAL; no profile was written on that "
		"signal\n";

	if (!lp__rt.dump_signal || sigaction(lp__rt.dump_signal, NULL, &cur))
		return;
	if ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != on_dump_signal)
		lp__write_stderr(msg, sizeof(msg) - 1);
}

/*
 * The profile is written when the runtime itself is finalised: for the
 * shared runtime that is after every module that depends on it, so hints
 * in their destructors are counted.
 */
__attribute__((destructor(101)))
static void runtime_unload(void)
{
	int saved = errno;
	int err;

	lp__lock();
	/*
	 * A process with no site (a build system's sanity check, a plain
	 * program linked with the runtime) would leave an empty profile
	 * behind, in the folder of the build.  Under `likelyprof run` it
	 * writes one, in run's folder: run can then say that no
	 * instrumented code ran, not that the process died.
	 */
	err = lp__rt.modules || lp__rt.dyn_all || lp__rt.run_dir[0] ?
		lp__dump_locked(NULL) : 0;
	lp__unlock();
	(void)err;
	signal_check();
	errno = saved;
}

