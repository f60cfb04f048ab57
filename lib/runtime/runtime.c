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

#include "likelyprof.h"
#include "profile.h"
#include "stub.h"

/* counts[] indices, in the order struct lp_counter keeps them */
enum { C_CORRECT, C_INCORRECT, C_CONSTANT, C_N };

struct lp_cell {
	unsigned long long total[C_N];  /* exited threads, unloaded modules */
	unsigned long long sum[C_N];    /* a dump's scratch */
};

/* A run's count, added to a member's field (LP_SITE_ABI_ALIAS). */
struct lp_alias {
	size_t member, leader;          /* cells[] indices */
	unsigned field;
};

/* A module's "lp_sites" section, or its copy once it is unloaded. */
struct lp_module {
	const struct lp_site *first, *last;
	struct lp_cell *cells;
	struct lp_alias *aliases;
	size_t naliases;
	const void *base;               /* load address, from dladdr() */
	const char *path;               /* its file, from dladdr() */
	struct lp_site *copy;           /* the records, once it is unloaded */
	int unloaded;                   /* first/last then point at copy */
	struct lp_module *next;
};

/* A C++ site: the record is built on first use, so it lives here. */
struct lp_dynsite {
	const struct lp_site *key;      /* the module's static record */
	struct lp_site site;            /* copy, strings in the arena */
	struct lp_cell cell;
	const void *base;
	struct lp_dynsite *next;        /* hash chain */
	struct lp_dynsite *all;         /* list of every one, for dumps */
};

/*
 * The ELF build-id (NT_GNU_BUILD_ID) of the executable and of each
 * instrumented module, read at load, when reading it takes the loader's
 * lock safely, and written with every profile so that merge can tell
 * profiles of different builds apart.
 */
#define LP_BUILD_ID_MAX 64
struct lp_build {
	uintptr_t bias;                 /* dlpi_addr: one per loaded object */
	uintptr_t lo, hi;               /* its segments, while it is loaded */
	char hex[2 * LP_BUILD_ID_MAX + 1];
	const char *path;
	struct lp_build *next;
};

/* A C++ listing already walked: one walk per module, not per unit. */
struct lp_listed {
	const struct lp_site_listing *first;
	const void *base;
	struct lp_listed *next;
};

struct lp_slot {
	struct lp_counter *ctr;
	struct lp_cell *cell;
};

struct lp_thread {
	struct lp_slot *slots;
	size_t n, cap;
	int live;
	struct lp_thread *next;
};

static struct {
	int lock;                       /* 0 free, 1 held */
	int pending_dump;               /* a signal came while held */
	int init_done;
	int exiting;
	struct lp_module *modules;
	struct lp_dynsite *dyn_all;
	struct lp_dynsite **dyn_hash;
	size_t dyn_n, dyn_buckets;
	size_t dyn_orphans;             /* entries whose module went away */
	struct lp_build *builds;        /* in load order, the program first */
	struct lp_listed *listed;
	struct lp_thread *threads;
	pthread_key_t thread_key;
	int have_key;
	char *arena;
	size_t arena_left;
	char file_pattern[PATH_MAX];    /* absolute, patterns unexpanded */
	char program[PATH_MAX];         /* /proc/self/exe */
	const char *program_name;       /* its base name, for %e */
	int dump_signal;
	int secure;                     /* AT_SECURE: no path from the env */
	pid_t pid;                      /* whose profile this is */
	char own[PATH_MAX];             /* the name this process took */
	int have_own;
	char run_dir[PATH_MAX];         /* LIKELYPROF_RUN: `run`'s folder */
	int have_stderr;                /* fd 2 as found at start */
	dev_t stderr_dev;
	ino_t stderr_ino;
} rt;

/* Which thread holds the lock: a signal handler must not wait for itself. */
static __thread int in_lock __attribute__((tls_model("initial-exec")));
static __thread struct lp_thread *self
	__attribute__((tls_model("initial-exec")));
/*
 * Set when this thread's exit was told and its counters summed.  Hints
 * still run after that (a destructor of the program's that runs after
 * ours in glibc's last round, the allocator's free() in glibc's own
 * cleanup), and no destructor of ours follows them: a slot taken then
 * would point into storage that goes with the thread.
 */
static __thread int self_left __attribute__((tls_model("initial-exec")));

/*
 * A hint whose first evaluation in a thread came while that thread was in
 * the runtime (its own signal handler, or a hint of something the runtime
 * called) cannot take the lock; its counter is already counting, so it is
 * noted here and registered by the same thread before it lets the lock go.
 * Only the owning thread touches these, handlers included.
 */
#define LP_DEFERRED_MAX 8      /* static TLS is scarce when dlopen()ed */
struct lp_deferred {
	struct lp_counter *ctr;
	const struct lp_site *site;
	const struct lp_site *first, *last;     /* C: the module's section */
	struct lp_site proto;                   /* C++: the record to copy */
	int dynamic;
};
static __thread struct lp_deferred deferred[LP_DEFERRED_MAX]
	__attribute__((tls_model("initial-exec")));
static __thread unsigned n_deferred __attribute__((tls_model("initial-exec")));

/* Output buffer of dumps; dumps are serialised by the lock. */
static char dump_buf[1 << 16];

static void write_error(const char *what, const char *path, int err);
static int put(char *buf, size_t cap, size_t *len, const char *s, size_t n);
static int put_ulong(char *buf, size_t cap, size_t *len, unsigned long v);
static int dump_locked(const char *path);

/* --- counters ---------------------------------------------------------- */

/*
 * A counter field holds its count minus one (include/likelyprof.h), so an
 * armed field reads as zero.  Reading it from another thread is a relaxed
 * load: only the owner writes.
 */
static unsigned long long counter_read(unsigned long long *field)
{
	return __atomic_load_n(field, __ATOMIC_RELAXED) + 1;
}

/* Takes a field's count and re-arms it, so the next increment reports. */
static unsigned long long counter_take(unsigned long long *field)
{
	return __atomic_exchange_n(field, LP_COUNTER_ARMED,
				   __ATOMIC_RELAXED) + 1;
}

static void counter_rearm(struct lp_counter *c)
{
	__atomic_store_n(&c->correct, LP_COUNTER_ARMED, __ATOMIC_RELAXED);
	__atomic_store_n(&c->incorrect, LP_COUNTER_ARMED, __ATOMIC_RELAXED);
	__atomic_store_n(&c->constant, LP_COUNTER_ARMED, __ATOMIC_RELAXED);
}

/* --- lock -------------------------------------------------------------- */

/*
 * in_lock is set before the lock is taken and cleared after it is let go:
 * a signal that lands in either window, whose handler evaluates a hint,
 * must see "this thread is in the runtime" and not wait for itself.
 */
static void mark_in_lock(int v)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	in_lock = v;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
}

static int try_lock(void)
{
	if (in_lock)
		return 0;
	mark_in_lock(1);
	if (__atomic_exchange_n(&rt.lock, 1, __ATOMIC_ACQUIRE)) {
		mark_in_lock(0);
		return 0;
	}
	return 1;
}

static void lock(void)
{
	unsigned spins = 0;

	mark_in_lock(1);
	while (__atomic_exchange_n(&rt.lock, 1, __ATOMIC_ACQUIRE)) {
		/* cold paths only: yield rather than burn the other core */
		if (++spins > 64)
			sched_yield();
	}
}

static unsigned drain_deferred(void);
static void thread_arm_exit(struct lp_thread *t);

static void unlock(void)
{
	unsigned drained = 0;

	for (;;) {
		/*
		 * A dump signal that found the lock taken left the work to
		 * us, and a hint of a handler that interrupted this thread
		 * left its registration.  The loop catches what arrives
		 * while we write.
		 */
		drained += drain_deferred();
		while (__atomic_load_n(&rt.pending_dump, __ATOMIC_ACQUIRE)) {
			__atomic_store_n(&rt.pending_dump, 0, __ATOMIC_RELEASE);
			dump_locked(NULL);
			drained += drain_deferred();
		}
		__atomic_store_n(&rt.lock, 0, __ATOMIC_RELEASE);
		mark_in_lock(0);
		/* a handler ran between the two stores: take it again */
		if (!__atomic_load_n(&n_deferred, __ATOMIC_RELAXED))
			break;
		lock();
	}
	if (drained)
		thread_arm_exit(self);
}

/* --- memory ------------------------------------------------------------ */

/* Zeroed memory that lives as long as the process.  Called locked. */
static void *arena_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > rt.arena_left) {
		size_t chunk = n > (1 << 20) ? n : (1 << 20);
		void *m = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		rt.arena = m;
		rt.arena_left = chunk;
	}
	p = rt.arena;
	rt.arena += n;
	rt.arena_left -= n;
	return p;
}

static const char *arena_strdup(const char *s)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = arena_alloc(n);
	if (d)
		memcpy(d, s, n);
	return d ? d : "";
}

/* --- set-up ------------------------------------------------------------ */

static void thread_exit(void *arg);
static void listed_forget(const void *base);
static void build_note(const void *anchor);
static void mark_started(void);

static void set_exiting(void)
{
	__atomic_store_n(&rt.exiting, 1, __ATOMIC_RELEASE);
}

static void on_dump_signal(int sig)
{
	int saved = errno;

	(void)sig;
	if (try_lock()) {
		dump_locked(NULL);
		unlock();
	} else {
		/*
		 * The holder dumps as it lets go; if it let go before it
		 * could see the flag, the lock is free now and we do.
		 */
		__atomic_store_n(&rt.pending_dump, 1, __ATOMIC_RELEASE);
		if (try_lock())
			unlock();
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
	lock();
	if (rt.init_done && getpid() == rt.pid)
		dump_locked(NULL);
}

static void fork_parent(void)
{
	unlock();
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

	for (m = rt.modules; m; m = m->next)
		memset(m->cells, 0, sizeof(*m->cells) *
		       (size_t)(m->last - m->first));
	for (d = rt.dyn_all; d; d = d->all)
		memset(&d->cell, 0, sizeof(d->cell));
	for (t = rt.threads; t; t = t->next) {
		if (t == self)
			continue;
		t->live = 0;
		t->n = 0;
	}
	if (self)
		for (i = 0; i < self->n; i++)
			counter_rearm(self->slots[i].ctr);
	/* first evaluations the parent had not registered yet */
	for (i = 0; i < n_deferred; i++) {
		counter_rearm(deferred[i].ctr);
		deferred[i].ctr->site = NULL;
	}
	n_deferred = 0;
	rt.pending_dump = 0;
	/* a process of its own: its own file and its own mark */
	rt.pid = getpid();
	rt.have_own = 0;
	mark_started();
	in_lock = 0;
	__atomic_store_n(&rt.lock, 0, __ATOMIC_RELEASE);
}

static void read_program(void)
{
	ssize_t n = readlink("/proc/self/exe", rt.program,
			     sizeof(rt.program) - 1);
	const char *slash;

	if (n <= 0)
		n = 0;
	rt.program[n] = '\0';
	slash = strrchr(rt.program, '/');
	rt.program_name = slash ? slash + 1 : rt.program;
	if (!*rt.program_name)
		rt.program_name = "program";
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
	return rt.secure ? NULL : secure_getenv(name);
}

static void write_stderr(const char *msg, size_t len);

/*
 * A relative LIKELYPROF_FILE is taken relative to the folder the program
 * started in, not the one it ends in: daemons chdir("/").
 */
static void read_file_pattern(void)
{
	static const char def[] = "%e.%p.lprof";
	const char *env = env_get("LIKELYPROF_FILE");
	size_t n = 0;

	if (rt.secure)
		return;
	if (!env || !*env)
		env = def;
	if (env[0] != '/') {
		if (!getcwd(rt.file_pattern, sizeof(rt.file_pattern) - 2))
			strcpy(rt.file_pattern, ".");
		n = strlen(rt.file_pattern);
		if (n && rt.file_pattern[n - 1] != '/')
			rt.file_pattern[n++] = '/';
	}
	if (strlen(env) >= sizeof(rt.file_pattern) - n) {
		static const char msg[] = "likelyprof: LIKELYPROF_FILE is "
			"longer than PATH_MAX; writing '%e.%p.lprof' instead\n";

		write_stderr(msg, sizeof(msg) - 1);
		env = def;
	}
	strcpy(rt.file_pattern + n, env);
}

static void install_signal(void)
{
	const char *env = env_get("LIKELYPROF_SIGNAL");
	struct sigaction sa;

	if (!env || !*env)
		return;
	rt.dump_signal = parse_signal(env);
	if (!rt.dump_signal) {
		static const char msg[] = "likelyprof: LIKELYPROF_SIGNAL is "
			"not a signal name; no dump on signal\n";

		write_stderr(msg, sizeof(msg) - 1);
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_dump_signal;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	sigaction(rt.dump_signal, &sa, NULL);
}

static int reserve_unique(char *name, size_t cap);

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

	if (!rt.run_dir[0])
		return;
	if (put(name, sizeof(name), &len, rt.run_dir, strlen(rt.run_dir)) ||
	    put(name, sizeof(name), &len, "/", 1) ||
	    put_ulong(name, sizeof(name), &len, (unsigned long)rt.pid) ||
	    put(name, sizeof(name), &len, ".start", 6))
		return;
	fd = reserve_unique(name, sizeof(name));
	if (fd >= 0)
		close(fd);
}

static void read_run_dir(void)
{
	const char *env = env_get("LIKELYPROF_RUN");

	if (env && env[0] == '/' && strlen(env) < sizeof(rt.run_dir))
		strcpy(rt.run_dir, env);
}

/* fd 2 as the program found it: errors go there, or nowhere. */
static void read_stderr(void)
{
	struct stat st;

	rt.have_stderr = fstat(2, &st) == 0;
	rt.stderr_dev = st.st_dev;
	rt.stderr_ino = st.st_ino;
}

/*
 * Called locked, from every entry point: constructors may run in any
 * order.  Nothing here may allocate: the profiled program can be the
 * malloc, and its own hints would come back into a lock we hold.
 */
static void init_locked(void)
{
	if (rt.init_done)
		return;
	rt.init_done = 1;
	rt.secure = getauxval(AT_SECURE) != 0;
	rt.pid = getpid();
	read_stderr();
	read_program();
	build_note(NULL);
	read_file_pattern();
	read_run_dir();
	mark_started();
	/*
	 * A low key number keeps pthread_setspecific() from allocating its
	 * second-level table with calloc.
	 */
	rt.have_key = !pthread_key_create(&rt.thread_key, thread_exit);
	install_signal();
}

/*
 * What does allocate (glibc's pthread_atfork and atexit tables), called
 * with the lock released and once: a hint evaluated inside that malloc
 * finds the lock free and this step claimed.
 */
static void init_unlocked(void)
{
	static int claimed;

	if (__atomic_exchange_n(&claimed, 1, __ATOMIC_ACQ_REL))
		return;
	pthread_atfork(fork_prepare, fork_parent, fork_child);
	atexit(set_exiting);
}

__attribute__((constructor(101)))
static void runtime_load(void)
{
	int saved = errno;

	lock();
	init_locked();
	unlock();
	init_unlocked();
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

	if (!rt.dump_signal || sigaction(rt.dump_signal, NULL, &cur))
		return;
	if ((cur.sa_flags & SA_SIGINFO) || cur.sa_handler != on_dump_signal)
		write_stderr(msg, sizeof(msg) - 1);
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

	lock();
	/*
	 * A process with no site (a build system's sanity check, a plain
	 * program linked with the runtime) would leave an empty profile
	 * behind, in the folder of the build.  Under `likelyprof run` it
	 * writes one, in run's folder: run can then say that no
	 * instrumented code ran, not that the process died.
	 */
	err = rt.modules || rt.dyn_all || rt.run_dir[0] ? dump_locked(NULL)
							 : 0;
	unlock();
	(void)err;
	signal_check();
	errno = saved;
}

/* --- modules ----------------------------------------------------------- */

static const void *module_base(const void *anchor)
{
	Dl_info info;

	if (anchor && dladdr(anchor, &info) && info.dli_fbase)
		return info.dli_fbase;
	return anchor;
}

static const char *module_path(const void *anchor)
{
	Dl_info info;

	if (anchor && dladdr(anchor, &info) && info.dli_fname)
		return info.dli_fname;
	return "";
}

/* --- build identity --------------------------------------------------- */

struct build_find {
	const void *addr;               /* in the object; NULL: the program */
	char *hex;
	int found;
	uintptr_t bias, lo, hi;
	int is_program;
	char name[PATH_MAX];
};

static void hex_put(char *out, const unsigned char *p, size_t n)
{
	static const char digits[] = "0123456789abcdef";
	size_t i;

	for (i = 0; i < n; i++) {
		out[2 * i] = digits[p[i] >> 4];
		out[2 * i + 1] = digits[p[i] & 15];
	}
	out[2 * n] = '\0';
}

/* The GNU build-id among the notes at @p, as hex into @hex. */
static int notes_build_id(const unsigned char *p, size_t len, char *hex)
{
	while (len >= 12) {
		uint32_t namesz, descsz, type;
		size_t name_al, desc_al;

		memcpy(&namesz, p, 4);
		memcpy(&descsz, p + 4, 4);
		memcpy(&type, p + 8, 4);
		name_al = ((size_t)namesz + 3) & ~(size_t)3;
		desc_al = ((size_t)descsz + 3) & ~(size_t)3;
		if (name_al > len - 12 || desc_al > len - 12 - name_al)
			return 0;
		if (type == 3 && namesz == 4 && !memcmp(p + 12, "GNU", 4) &&
		    descsz && descsz <= LP_BUILD_ID_MAX) {
			hex_put(hex, p + 12 + name_al, descsz);
			return 1;
		}
		p += 12 + name_al + desc_al;
		len -= 12 + name_al + desc_al;
	}
	return 0;
}

/* The span of an object's loaded segments, into *@lo and *@hi. */
static void load_span(const struct dl_phdr_info *info, uintptr_t *lo,
		      uintptr_t *hi)
{
	int i;

	*lo = UINTPTR_MAX;
	*hi = 0;
	for (i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t start = info->dlpi_addr + ph->p_vaddr;

		if (ph->p_type != PT_LOAD)
			continue;
		if (start < *lo)
			*lo = start;
		if (start + ph->p_memsz > *hi)
			*hi = start + ph->p_memsz;
	}
}

/* dl_iterate_phdr() lists the program first. */
static int build_cb(struct dl_phdr_info *info, size_t size, void *data)
{
	struct build_find *f = data;
	int i;

	(void)size;
	load_span(info, &f->lo, &f->hi);
	if (f->addr && ((uintptr_t)f->addr < f->lo ||
			(uintptr_t)f->addr >= f->hi)) {
		f->is_program = 0;
		return 0;
	}
	f->bias = info->dlpi_addr;
	if (info->dlpi_name && strlen(info->dlpi_name) < sizeof(f->name))
		strcpy(f->name, info->dlpi_name);
	for (i = 0; i < info->dlpi_phnum && !f->found; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];

		if (ph->p_type == PT_NOTE)
			f->found = notes_build_id((const unsigned char *)
				(info->dlpi_addr + ph->p_vaddr),
				ph->p_memsz, f->hex);
	}
	return 1;
}

/*
 * Notes the build-id of the object holding @anchor (NULL: the program),
 * once per loaded object.  Every unit's constructor asks: an anchor in an
 * object noted before costs no walk of the loader's list.  The program
 * is listed first and has no name of its own there.
 */
static void build_note(const void *anchor)
{
	static struct build_find f;     /* big; called locked */
	char hex[2 * LP_BUILD_ID_MAX + 1];
	struct lp_build *b, **tail;

	for (b = rt.builds; anchor && b; b = b->next)
		if ((uintptr_t)anchor >= b->lo && (uintptr_t)anchor < b->hi)
			return;
	memset(&f, 0, sizeof(f));
	f.addr = anchor;
	f.hex = hex;
	f.is_program = 1;
	dl_iterate_phdr(build_cb, &f);
	/* linked with --build-id=none: nothing to say */
	if (!f.found)
		return;
	/* a module dlopen()ed again, at its old place or another */
	for (tail = &rt.builds; (b = *tail); tail = &b->next)
		if (b->bias == f.bias || (!f.is_program &&
					  !strcmp(b->hex, hex) &&
					  !strcmp(b->path, f.name)))
			return;
	b = arena_alloc(sizeof(*b));
	if (!b)
		return;
	memcpy(b->hex, hex, sizeof(hex));
	b->bias = f.bias;
	b->lo = f.lo;
	b->hi = f.hi;
	b->path = f.is_program || !f.name[0] ? rt.program :
		  arena_strdup(f.name);
	b->next = NULL;
	*tail = b;
}

/* dlclose(): its build stays in the profile, its addresses may be reused. */
static void build_unmapped(const void *anchor)
{
	struct lp_build *b;

	for (b = rt.builds; b; b = b->next)
		if ((uintptr_t)anchor >= b->lo && (uintptr_t)anchor < b->hi)
			b->lo = b->hi = 0;
}

static struct lp_module *module_find(const struct lp_site *site)
{
	struct lp_module *m;

	for (m = rt.modules; m; m = m->next)
		if (!m->unloaded && site >= m->first && site < m->last)
			return m;
	return NULL;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Are the @n records at @a those at @b (a module loaded again)? */
static int same_sites(const struct lp_site *a, const struct lp_site *b,
		      size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (a[i].line != b[i].line || a[i].expect != b[i].expect ||
		    a[i].abi != b[i].abi || !same_str(a[i].file, b[i].file) ||
		    !same_str(a[i].func, b[i].func) ||
		    !same_str(a[i].cond, b[i].cond) ||
		    !same_str(a[i].unit, b[i].unit))
			return 0;
	return 1;
}

/*
 * A module dlopen()ed again after a dlclose() takes back its earlier
 * record, cells and all, so a thousand cycles are one record per site
 * and no memory grows with them.
 */
static struct lp_module *module_revive(const struct lp_site *first,
				       const struct lp_site *last,
				       const char *path, const void *base)
{
	size_t n = (size_t)(last - first);
	struct lp_module *m;

	for (m = rt.modules; m; m = m->next) {
		if (!m->unloaded || !m->copy ||
		    (size_t)(m->last - m->first) != n ||
		    strcmp(m->path, path) || !same_sites(m->copy, first, n))
			continue;
		m->first = first;
		m->last = last;
		m->base = base;
		m->unloaded = 0;
		return m;
	}
	return NULL;
}

/*
 * The alias record at @i of @m, as cells[] indices: 0, or -1 when it
 * does not describe a run of this module's sites (a record from a
 * broken object counts nothing rather than the wrong site).
 */
static int alias_read(const struct lp_module *m, size_t i,
		      struct lp_alias *a)
{
	const struct lp_site *s = &m->first[i];
	size_t n = (size_t)(m->last - m->first), place = s->line >> 2;
	long step = (long)sizeof(*s);
	long member;

	if (s->expect % step || (s->line & 3) > 2 || place > i)
		return -1;
	member = (long)i + s->expect / step;
	if (member < 0 || (size_t)member >= n ||
	    m->first[member].abi != LP_SITE_ABI ||
	    m->first[i - place].abi != LP_SITE_ABI_ALIAS ||
	    m->first[i - place].line >> 2)
		return -1;
	a->member = (size_t)member;
	a->leader = i - place;
	a->field = s->line & 3;
	return 0;
}

/* Reads the module's alias records into m->aliases. */
static void module_aliases(struct lp_module *m)
{
	size_t i, k = 0, n = (size_t)(m->last - m->first);

	for (i = 0; i < n; i++)
		k += m->first[i].abi == LP_SITE_ABI_ALIAS;
	m->aliases = k ? arena_alloc(k * sizeof(*m->aliases)) : NULL;
	m->naliases = 0;
	for (i = 0; m->aliases && i < n; i++)
		if (m->first[i].abi == LP_SITE_ABI_ALIAS &&
		    alias_read(m, i, &m->aliases[m->naliases]) == 0)
			m->naliases++;
}

static struct lp_module *module_get(const struct lp_site *first,
				    const struct lp_site *last,
				    const void *anchor)
{
	struct lp_module *m, **tail;
	const char *path;
	const void *base;
	size_t n;

	for (tail = &rt.modules; (m = *tail); tail = &m->next)
		if (!m->unloaded && m->first == first)
			return m;
	if (!first || last <= first)
		return NULL;
	anchor = anchor ? anchor : (const void *)first;
	base = module_base(anchor);
	path = module_path(anchor);
	m = module_revive(first, last, path, base);
	if (m)
		return m;
	n = (size_t)(last - first);
	m = arena_alloc(sizeof(*m));
	if (!m)
		return NULL;
	m->cells = arena_alloc(n * sizeof(*m->cells));
	if (!m->cells)
		return NULL;
	m->first = first;
	m->last = last;
	m->base = base;
	m->path = arena_strdup(path);
	module_aliases(m);
	*tail = m;
	return m;
}

LP_API void lp__module_add(const struct lp_site *first,
			   const struct lp_site *last, const void *anchor)
{
	int saved = errno;

	lock();
	init_locked();
	module_get(first, last, anchor);
	build_note(anchor ? anchor : (const void *)first);
	unlock();
	init_unlocked();
	errno = saved;
}

/* Adds a thread's counter into its cell and forgets it. */
static void slot_harvest(struct lp_slot *s)
{
	struct lp_counter *c = s->ctr;

	s->cell->total[C_CORRECT] += counter_take(&c->correct);
	s->cell->total[C_INCORRECT] += counter_take(&c->incorrect);
	s->cell->total[C_CONSTANT] += counter_take(&c->constant);
}

static int cell_in_module(const struct lp_cell *c, const struct lp_module *m)
{
	return m && c >= m->cells && c < m->cells + (m->last - m->first);
}

/*
 * dlclose(): the module's thread-local counters and its strings are about
 * to go.  Sum the counters of every thread, copy the records, and drop
 * the slots that point into the module.  At process exit nothing goes
 * away before our own destructor writes the profile, so nothing is done.
 */
LP_API void lp__module_remove(const struct lp_site *first,
			      const struct lp_site *last, const void *anchor)
{
	int saved = errno;
	struct lp_module *m = NULL, *it;
	const void *base = module_base(anchor ? anchor : (const void *)first);
	struct lp_thread *t;
	struct lp_dynsite *d;

	(void)last;
	lock();
	if (__atomic_load_n(&rt.exiting, __ATOMIC_ACQUIRE))
		goto out;
	for (it = rt.modules; it; it = it->next)
		if (!it->unloaded && first && it->first == first)
			m = it;
	for (t = rt.threads; t; t = t->next) {
		size_t i, kept = 0;

		for (i = 0; i < t->n; i++) {
			struct lp_slot *s = &t->slots[i];
			int gone = cell_in_module(s->cell, m);

			for (d = rt.dyn_all; !gone && d; d = d->all)
				gone = s->cell == &d->cell && d->base == base;
			if (gone) {
				slot_harvest(s);
				/* registers anew if the module runs again */
				s->ctr->site = NULL;
				continue;
			}
			t->slots[kept++] = *s;
		}
		t->n = kept;
	}
	if (m) {
		size_t i, n = (size_t)(m->last - m->first);
		/* a module unloaded before has its copy, the same records */
		struct lp_site *copy = m->copy ? m->copy :
			arena_alloc(n * sizeof(*copy));

		if (copy && !m->copy) {
			for (i = 0; i < n; i++) {
				const struct lp_site *s = &m->first[i];

				copy[i] = *s;
				copy[i].file = arena_strdup(s->file);
				copy[i].func = arena_strdup(s->func);
				copy[i].cond = arena_strdup(s->cond);
				copy[i].unit = arena_strdup(s->unit);
			}
			m->copy = copy;
		}
		if (copy) {
			m->first = copy;
			m->last = copy + n;
		} else {
			m->first = m->last = NULL;
		}
		m->unloaded = 1;
	}
	/* C++ records were copied when first used; only their base goes. */
	for (d = rt.dyn_all; d; d = d->all)
		if (d->base == base) {
			d->base = NULL;
			rt.dyn_orphans++;
		}
	listed_forget(base);
	build_unmapped(anchor ? anchor : (const void *)first);
out:
	unlock();
	errno = saved;
}

/* --- threads ----------------------------------------------------------- */

static struct lp_thread *thread_self(void)
{
	struct lp_thread *t;

	if (self)
		return self;
	for (t = rt.threads; t; t = t->next)
		if (!t->live)
			break;
	if (!t) {
		t = arena_alloc(sizeof(*t));
		if (!t)
			return NULL;
		t->next = rt.threads;
		rt.threads = t;
	}
	t->live = 1;
	t->n = 0;
	self = t;
	/* pthread_setspecific() is the caller's, once the lock is free */
	return t;
}

/*
 * After a thread's first registration: ask for its exit to be told.  Out
 * of the lock, since a key past the first 32 makes glibc allocate.
 */
static void thread_arm_exit(struct lp_thread *t)
{
	/*
	 * glibc keeps the first 32 keys in the thread's own block; past them
	 * it may calloc, which a first count from the stub must not do.
	 */
	if (LP_IN_STUB() && rt.thread_key >= 32)
		return;
	if (t && rt.have_key && !pthread_getspecific(rt.thread_key))
		pthread_setspecific(rt.thread_key, t);
}

static int thread_add_slot(struct lp_thread *t, struct lp_counter *ctr,
			   struct lp_cell *cell)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct lp_slot *s = arena_alloc(cap * sizeof(*s));

		if (!s)
			return -1;
		if (t->n)
			memcpy(s, t->slots, t->n * sizeof(*s));
		t->slots = s;
		t->cap = cap;
	}
	t->slots[t->n].ctr = ctr;
	t->slots[t->n].cell = cell;
	t->n++;
	return 0;
}

/* pthread key destructor: the thread is leaving, its counters with it. */
static void thread_exit(void *arg)
{
	int saved = errno;
	struct lp_thread *t = arg;
	sigset_t all;
	size_t i;

	/*
	 * A handler that ran after this, on a thread whose counters are
	 * summed, would count into storage that is about to go.  The
	 * thread is leaving: what is sent to it now is dropped as if it had
	 * already gone, and a signal for the process goes to another thread.
	 */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, NULL);
	lock();
	for (i = 0; i < t->n; i++) {
		slot_harvest(&t->slots[i]);
		/* a later destructor's hint registers the thread anew */
		t->slots[i].ctr->site = NULL;
	}
	t->n = 0;
	t->live = 0;
	if (self == t)
		self = NULL;
	self_left = 1;
	unlock();
	errno = saved;
}

/*
 * Whether this thread's exit will be told, or can be asked for now: from
 * the stub, glibc would calloc for a key past its first 32 (see
 * thread_arm_exit), so a thread not yet armed cannot be.  The main
 * thread's storage lasts until the dump at exit, told or not.
 */
static int thread_exit_known(void)
{
	return !LP_IN_STUB() || !rt.have_key || rt.thread_key < 32 ||
	       pthread_getspecific(rt.thread_key) != NULL ||
	       syscall(SYS_gettid) == getpid();
}

static void enter_locked(struct lp_counter *ctr, const struct lp_site *site,
			 struct lp_cell *cell)
{
	struct lp_thread *t;

	if (!cell)
		return;
	/*
	 * A slot whose thread leaves untold would point into freed storage
	 * at the next dump.  Such a thread counts each evaluation into the
	 * cell here, and its counter stays armed so the next one comes back:
	 * a lock per evaluation, for a thread's last moments or until its
	 * exit can be asked for, and no count lost.
	 */
	if (self_left || !thread_exit_known()) {
		struct lp_slot now = { ctr, cell };

		slot_harvest(&now);
		return;
	}
	t = thread_self();
	/*
	 * Without memory the counter stays unregistered and the site counts
	 * for this thread are not kept; the program itself is unaffected.
	 */
	if (!t || thread_add_slot(t, ctr, cell) < 0)
		return;
	ctr->site = site;
}

/*
 * Notes a first evaluation that came while this thread was in the runtime.
 * The counter is marked registered at once, so its other fields do not
 * come back here.  When the table is full, the one evaluation is taken
 * back instead (the field re-armed), so the next one tries again.
 */
static void defer(struct lp_counter *ctr, const struct lp_site *site,
		  const struct lp_site *first, const struct lp_site *last,
		  const struct lp_site *proto)
{
	unsigned n = __atomic_fetch_add(&n_deferred, 1, __ATOMIC_RELAXED);
	struct lp_deferred *e = &deferred[n];

	if (n >= LP_DEFERRED_MAX) {
		__atomic_fetch_sub(&n_deferred, 1, __ATOMIC_RELAXED);
		if (!ctr->correct)
			ctr->correct = LP_COUNTER_ARMED;
		if (!ctr->incorrect)
			ctr->incorrect = LP_COUNTER_ARMED;
		if (!ctr->constant)
			ctr->constant = LP_COUNTER_ARMED;
		return;
	}
	e->ctr = ctr;
	e->site = site;
	e->first = first;
	e->last = last;
	e->dynamic = proto != NULL;
	if (proto)
		e->proto = *proto;
	ctr->site = site;
}

static struct lp_dynsite *dyn_get(const struct lp_site *key,
				  const struct lp_site *proto);

/* Registers a first evaluation noted by defer().  Called locked. */
static void register_deferred(struct lp_deferred *e)
{
	struct lp_module *m;
	struct lp_dynsite *d;

	e->ctr->site = NULL;
	if (e->dynamic) {
		d = dyn_get(e->site, &e->proto);
		if (d)
			enter_locked(e->ctr, e->site, &d->cell);
		return;
	}
	m = module_find(e->site);
	if (!m)
		m = module_get(e->first, e->last, e->first);
	if (m && e->site >= m->first && e->site < m->last)
		enter_locked(e->ctr, e->site, &m->cells[e->site - m->first]);
}

/*
 * Called locked by the thread that noted them.  A handler may add one
 * while we take another: the compare-exchange sees it.
 */
static unsigned drain_deferred(void)
{
	unsigned n, done = 0;

	while ((n = __atomic_load_n(&n_deferred, __ATOMIC_RELAXED))) {
		struct lp_deferred e = deferred[n - 1];

		if (!__atomic_compare_exchange_n(&n_deferred, &n, n - 1, 0,
						 __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		init_locked();
		register_deferred(&e);
		done++;
	}
	return done;
}

/*
 * The end of a first count, the lock let go.  From the stub the
 * runtime's constructor registers the handlers instead: that allocates.
 */
static void enter_done(int saved)
{
	if (!LP_IN_STUB())
		init_unlocked();
	thread_arm_exit(self);
	errno = saved;
}

LP_API void lp__enter(struct lp_counter *ctr, const struct lp_site *site,
		      const struct lp_site *first, const struct lp_site *last)
{
	int saved = errno;
	struct lp_module *m;

	/* another field's first count registered it already */
	if (ctr->site)
		return;
	/*
	 * This thread is in the runtime: a signal handler of the program, or
	 * something the runtime called.  It must not wait for itself.
	 */
	if (in_lock) {
		defer(ctr, site, first, last, NULL);
		errno = saved;
		return;
	}
	lock();
	init_locked();
	m = module_find(site);
	if (!m)
		m = module_get(first, last, first);
	if (m && site >= m->first && site < m->last)
		enter_locked(ctr, site, &m->cells[site - m->first]);
	unlock();
	enter_done(saved);
}

static size_t dyn_hash(const struct lp_site *key)
{
	return (size_t)(((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull);
}

static struct lp_dynsite *dyn_find(const struct lp_site *key)
{
	struct lp_dynsite *d;

	if (!rt.dyn_buckets)
		return NULL;
	for (d = rt.dyn_hash[dyn_hash(key) % rt.dyn_buckets]; d; d = d->next)
		if (d->key == key)
			return d;
	return NULL;
}

static struct lp_dynsite *dyn_get(const struct lp_site *key,
				  const struct lp_site *proto)
{
	size_t h = dyn_hash(key);
	struct lp_dynsite *d;

	if (rt.dyn_n >= rt.dyn_buckets) {
		size_t nb = rt.dyn_buckets ? rt.dyn_buckets * 4 : 256, i;
		struct lp_dynsite **tab = arena_alloc(nb * sizeof(*tab));

		if (!tab)
			return NULL;
		for (d = rt.dyn_all; d; d = d->all) {
			i = dyn_hash(d->key) % nb;
			d->next = tab[i];
			tab[i] = d;
		}
		rt.dyn_hash = tab;
		rt.dyn_buckets = nb;
	}
	d = dyn_find(key);
	if (d) {
		if (!d->base) {
			/* its module is back where it was */
			d->base = module_base(key);
			rt.dyn_orphans--;
		}
		return d;
	}
	d = arena_alloc(sizeof(*d));
	if (!d)
		return NULL;
	d->key = key;
	d->site = *proto;
	d->site.file = arena_strdup(proto->file);
	d->site.func = arena_strdup(proto->func);
	d->site.cond = arena_strdup(proto->cond);
	d->site.unit = arena_strdup(proto->unit);
	d->base = module_base(key);
	d->next = rt.dyn_hash[h % rt.dyn_buckets];
	rt.dyn_hash[h % rt.dyn_buckets] = d;
	d->all = rt.dyn_all;
	rt.dyn_all = d;
	rt.dyn_n++;
	return d;
}

LP_API void lp__enter_dynamic(struct lp_counter *ctr, struct lp_site *site,
			      const struct lp_site *proto)
{
	int saved = errno;
	struct lp_dynsite *d;

	if (ctr->site)
		return;
	if (in_lock) {
		defer(ctr, site, NULL, NULL, proto);
		errno = saved;
		return;
	}
	lock();
	init_locked();
	d = dyn_get(site, proto);
	if (d)
		enter_locked(ctr, site, &d->cell);
	unlock();
	enter_done(saved);
}

/*
 * A module loaded again elsewhere lists its sites under new keys: an
 * orphan with the same record takes the new key, counts and all, so a
 * thousand dlopen() cycles stay one row per site.
 */
static struct lp_dynsite *dyn_revive(const struct lp_site_listing *r)
{
	struct lp_dynsite *d, **pp;

	for (d = rt.dyn_all; d; d = d->all)
		if (!d->base && same_sites(&d->site, &r->site, 1))
			break;
	if (!d)
		return NULL;
	pp = &rt.dyn_hash[dyn_hash(d->key) % rt.dyn_buckets];
	while (*pp != d)
		pp = &(*pp)->next;
	*pp = d->next;
	d->key = r->key;
	d->next = rt.dyn_hash[dyn_hash(r->key) % rt.dyn_buckets];
	rt.dyn_hash[dyn_hash(r->key) % rt.dyn_buckets] = d;
	d->base = module_base(r->key);
	rt.dyn_orphans--;
	return d;
}

static int listed_before(const struct lp_site_listing *first)
{
	struct lp_listed *l;

	for (l = rt.listed; l; l = l->next)
		if (l->first == first)
			return 1;
	l = arena_alloc(sizeof(*l));
	if (l) {
		l->first = first;
		l->base = module_base(first);
		l->next = rt.listed;
		rt.listed = l;
	}
	return 0;
}

/* dlclose(): the module may come back, at the same place or not. */
static void listed_forget(const void *base)
{
	struct lp_listed **pp = &rt.listed;

	while (*pp)
		if ((*pp)->base == base)
			*pp = (*pp)->next;
		else
			pp = &(*pp)->next;
}

LP_API void lp__module_list(const struct lp_site_listing *first,
			    const struct lp_site_listing *last,
			    const void *anchor)
{
	int saved = errno;
	const struct lp_site_listing *r;

	lock();
	init_locked();
	build_note(anchor ? anchor : (const void *)first);
	if (first && last > first && !listed_before(first))
		for (r = first; r < last; r++) {
			if (r->site.abi != LP_SITE_ABI)
				continue;
			/* a known key (its module back in place), or new */
			if (!rt.dyn_orphans || dyn_find(r->key) ||
			    !dyn_revive(r))
				dyn_get(r->key, &r->site);
		}
	unlock();
	init_unlocked();
	errno = saved;
}

/* --- dump -------------------------------------------------------------- */

#define LP_WRITE_WAIT_MS 2000

struct fd_sink {
	struct lp_sink sink;
	int fd;
};

static int fd_flush(struct lp_sink *sink)
{
	struct fd_sink *fs = (struct fd_sink *)sink;
	size_t done = 0;

	while (done < sink->len) {
		ssize_t n = write(fs->fd, sink->buf + done, sink->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		/*
		 * A FIFO or device opened O_NONBLOCK that takes nothing for
		 * LP_WRITE_WAIT_MS: give up rather than hang the exit.
		 */
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = fs->fd, .events = POLLOUT };
			int r = poll(&pfd, 1, LP_WRITE_WAIT_MS);

			if (r > 0 || (r < 0 && errno == EINTR))
				continue;
			errno = EAGAIN;
			return -LP_EIO;
		}
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -LP_EIO;
		}
		done += (size_t)n;
	}
	sink->len = 0;
	return 0;
}

/* Appends @s to buf at *len, never past cap - 1; returns 0 or -1. */
static int put(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	if (*len + n >= cap)
		return -1;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
	return 0;
}

/* @sep, then @v in two digits: the fields of a date. */
static void put2(char *buf, size_t *len, char sep, unsigned v)
{
	buf[(*len)++] = sep;
	buf[(*len)++] = (char)('0' + v / 10 % 10);
	buf[(*len)++] = (char)('0' + v % 10);
}

static int put_ulong(char *buf, size_t cap, size_t *len, unsigned long v)
{
	char digits[24];
	size_t i = sizeof(digits);

	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	return put(buf, cap, len, digits + i, sizeof(digits) - i);
}

/* Expands %p, %h, %e and %%; other % sequences stay as they are. */
static int expand_path(char *out, size_t cap, const char *pattern)
{
	size_t len = 0;
	struct utsname uts;
	int have_uts = 0;
	const char *host;

	out[0] = '\0';
	for (; *pattern; pattern++) {
		int r;

		if (*pattern != '%' || !pattern[1]) {
			r = put(out, cap, &len, pattern, 1);
		} else {
			switch (*++pattern) {
			case 'p':
				r = put_ulong(out, cap, &len,
					      (unsigned long)getpid());
				break;
			case 'h':
				if (!have_uts)
					have_uts = uname(&uts) == 0;
				host = have_uts ? uts.nodename : "host";
				r = put(out, cap, &len, host, strlen(host));
				break;
			case 'e':
				r = put(out, cap, &len, rt.program_name,
					strlen(rt.program_name));
				break;
			case '%':
				r = put(out, cap, &len, "%", 1);
				break;
			default:
				r = put(out, cap, &len, pattern - 1, 2);
			}
		}
		if (r < 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
	}
	return 0;
}

static void sum_counts(void)
{
	struct lp_module *m;
	struct lp_dynsite *d;
	struct lp_thread *t;
	size_t i;

	for (m = rt.modules; m; m = m->next)
		for (i = 0; i < (size_t)(m->last - m->first); i++)
			memcpy(m->cells[i].sum, m->cells[i].total,
			       sizeof(m->cells[i].sum));
	for (d = rt.dyn_all; d; d = d->all)
		memcpy(d->cell.sum, d->cell.total, sizeof(d->cell.sum));
	for (t = rt.threads; t; t = t->next) {
		if (!t->live)
			continue;
		for (i = 0; i < t->n; i++) {
			struct lp_counter *c = t->slots[i].ctr;
			unsigned long long *sum = t->slots[i].cell->sum;

			sum[C_CORRECT] += counter_read(&c->correct);
			sum[C_INCORRECT] += counter_read(&c->incorrect);
			sum[C_CONSTANT] += counter_read(&c->constant);
		}
	}
	/* a run's leader is never a member, so the order does not matter */
	for (m = rt.modules; m; m = m->next)
		for (i = 0; i < m->naliases; i++) {
			const struct lp_alias *a = &m->aliases[i];

			m->cells[a->member].sum[a->field] +=
				m->cells[a->leader].sum[C_CORRECT];
		}
}

/*
 * A C++ site is shared by every instantiation of its template, but g++
 * names the function after the one that ran first ("pos<int>" in one run,
 * "pos<double>" in the next), and clang never adds the arguments: the
 * name is written without a trailing template argument list, so runs
 * merge into one row.  "operator<=>" and "operator>" keep their names.
 */
static const char *plain_func(const char *func)
{
	static char buf[512];
	size_t n = strlen(func), depth = 0, i;

	if (!n || func[n - 1] != '>')
		return func;
	for (i = n; i-- > 0;) {
		depth += func[i] == '>';
		depth -= func[i] == '<';
		if (!depth)
			break;
	}
	if (depth || i == 0 || i >= sizeof(buf))
		return func;
	while (i && func[i - 1] == ' ')
		i--;
	if (i >= 8 && !memcmp(func + i - 8, "operator", 8))
		return func;
	memcpy(buf, func, i);
	buf[i] = '\0';
	return buf;
}

static void sink_one(struct lp_sink *sink, const struct lp_site *s,
		     const struct lp_cell *c, unsigned long long *count)
{
	unsigned long long correct = c->sum[C_CORRECT];

	/*
	 * A folded evaluation of a hint counts once, as constant; the kernel
	 * counts it as correct too, and so does the profile.  An "if" of
	 * all-branches mode counts a folded one by its value as well.
	 */
	if (s->abi != LP_SITE_ABI && s->abi != LP_SITE_ABI_BOTH_)
		return;
	if (s->abi == LP_SITE_ABI && s->expect != LP_EXPECT_IF)
		correct += c->sum[C_CONSTANT];
	lp_sink_site(sink, correct, c->sum[C_INCORRECT],
		     c->sum[C_CONSTANT], s->expect, s->file, (long)s->line,
		     plain_func(s->func), s->unit, s->cond);
	(*count)++;
}

/* Days since 1970-01-01 to a civil date (proleptic Gregorian). */
static void civil_from_days(long z, long *y, unsigned *m, unsigned *d)
{
	long era, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	yoe = z - era * 146097;
	yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
	doy = z - era * 146097 - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/*
 * Where and when: host, time (UTC, ISO 8601), and the build of the
 * program and of every instrumented module, "HEX PATH".  gmtime_r()
 * may take a lock, and a dump can come from a signal handler, so the
 * date is computed here.
 */
static void sink_identity(struct lp_sink *sink)
{
	struct utsname uts;
	struct timespec ts;
	struct lp_build *b;
	char buf[2 * LP_BUILD_ID_MAX + PATH_MAX + 2];
	long y, secs;
	unsigned mo, d;
	size_t len = 0;

	if (uname(&uts) == 0)
		lp_sink_meta(sink, "host", uts.nodename);
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_sec >= 0) {
		secs = (long)(ts.tv_sec % 86400);
		civil_from_days((long)(ts.tv_sec / 86400), &y, &mo, &d);
		put_ulong(buf, sizeof(buf), &len, (unsigned long)y);
		put2(buf, &len, '-', mo);
		put2(buf, &len, '-', d);
		put2(buf, &len, 'T', (unsigned)(secs / 3600));
		put2(buf, &len, ':', (unsigned)(secs / 60 % 60));
		put2(buf, &len, ':', (unsigned)(secs % 60));
		buf[len++] = 'Z';
		buf[len] = '\0';
		lp_sink_meta(sink, "time", buf);
	}
	for (b = rt.builds; b; b = b->next) {
		len = 0;
		if (put(buf, sizeof(buf), &len, b->hex, strlen(b->hex)) ||
		    put(buf, sizeof(buf), &len, " ", 1) ||
		    put(buf, sizeof(buf), &len, b->path, strlen(b->path)))
			continue;
		buf[len] = '\0';
		lp_sink_meta(sink, "build", buf);
	}
}

static int write_profile(int fd)
{
	struct fd_sink fs;
	struct lp_module *m;
	struct lp_dynsite *d;
	unsigned long long count = 0;
	char pid[24];
	size_t len = 0;
	size_t i;

	memset(&fs, 0, sizeof(fs));
	fs.sink.buf = dump_buf;
	fs.sink.cap = sizeof(dump_buf);
	fs.sink.flush = fd_flush;
	fs.sink.unexpand = 1;
	fs.fd = fd;
	put_ulong(pid, sizeof(pid), &len, (unsigned long)getpid());

	lp_sink_header(&fs.sink);
	lp_sink_meta(&fs.sink, "program", rt.program);
	lp_sink_meta(&fs.sink, "pid", pid);
	lp_sink_meta(&fs.sink, "runtime", LP_VERSION_STRING);
	sink_identity(&fs.sink);
	for (m = rt.modules; m; m = m->next)
		for (i = 0; i < (size_t)(m->last - m->first); i++)
			sink_one(&fs.sink, &m->first[i], &m->cells[i], &count);
	for (d = rt.dyn_all; d; d = d->all)
		sink_one(&fs.sink, &d->site, &d->cell, &count);
	lp_sink_end(&fs.sink, count);
	return lp_sink_finish(&fs.sink);
}

/* Writes the profile into @fd and closes it; -LP_EIO (errno says why). */
static int write_profile_fd(int fd)
{
	int err = write_profile(fd), e = errno;

	if (close(fd) < 0 && !err) {
		err = -LP_EIO;
		e = errno;
	}
	errno = e;
	return err;
}

/*
 * Opens the FIFO or character device that lstat() found at @name, as
 * @was, without blocking and without following a link: a FIFO whose
 * reader is about to open it (`cat fifo &` racing the program) gets
 * LP_WRITE_WAIT_MS, one that nobody reads fails with ENXIO after that.
 * What was opened must be what was checked: whoever can write the folder
 * could swap the name for a link, or for another file, between the two,
 * and the profile would be written into that.
 * @return : the descriptor, or -1 with errno set (ESTALE: swapped).
 */
static int open_device(const char *name, const struct stat *was)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int waited = 0, fd;
	struct stat now;

	while ((fd = open(name, O_WRONLY | O_NONBLOCK | O_NOFOLLOW |
			  O_NOCTTY | O_CLOEXEC)) < 0 &&
	       errno == ENXIO && waited < LP_WRITE_WAIT_MS) {
		nanosleep(&tick, NULL);
		waited += 10;
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &now) < 0 || now.st_dev != was->st_dev ||
	    now.st_ino != was->st_ino ||
	    (now.st_mode & S_IFMT) != (was->st_mode & S_IFMT)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * The variant to try after @n: the next, for the first thousand; then a
 * number drawn from the clock and the pid, so that a folder of many
 * thousand variants of one name costs a few tries, not one per variant.
 */
static unsigned long next_variant(unsigned long n)
{
	struct timespec ts;
	unsigned long x;

	if (n < 1000)
		return n + 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 20) ^ n;
	x *= 2654435761UL;
	return 1000 + (x >> 7) % 1000000000UL;
}

/*
 * Makes @name (a profile, or a mark) a new file of this process: when it
 * exists, "-2", "-3", ... go before its extension until one is free.
 * @return : the open descriptor, or -1 with errno set.
 */
static int reserve_unique(char *name, size_t cap)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_NONBLOCK | O_CLOEXEC;
	size_t len = strlen(name), ext, i;
	char *slash = strrchr(name, '/'), *dot = strrchr(name, '.');
	char tail[PATH_MAX];
	unsigned long n;
	int fd = open(name, flags, 0666);

	if (fd >= 0 || errno != EEXIST)
		return fd;
	ext = dot && dot > slash + 1 ? (size_t)(dot - name) : len;
	if (len - ext >= sizeof(tail))
		return -1;
	memcpy(tail, name + ext, len - ext + 1);
	for (n = 2;; n = next_variant(n)) {
		i = ext;
		if (put(name, cap, &i, "-", 1) ||
		    put_ulong(name, cap, &i, n) ||
		    put(name, cap, &i, tail, strlen(tail))) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(name, flags, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
}

/*
 * The name of this process's profile.  A pattern with %p gives each
 * process a file of its own: a name that exists already belongs to an
 * earlier process with the same pid (pid reuse, or the image before an
 * exec), so this one takes the next free variant and keeps it for its
 * later dumps.  A fixed name is replaced, as asked.
 */
static int claim_name(char *final, size_t cap, const char *pattern)
{
	int fd;

	if (!strstr(pattern, "%p"))
		return 0;
	if (rt.have_own) {
		memcpy(final, rt.own, strlen(rt.own) + 1);
		return 0;
	}
	fd = reserve_unique(final, cap);
	if (fd < 0)
		return -1;
	close(fd);
	memcpy(rt.own, final, strlen(final) + 1);
	rt.have_own = 1;
	return 0;
}

/*
 * A file name (the last part of @final) longer than LP_NAME_KEEP cannot
 * take its variant and temporary suffixes within NAME_MAX: a program
 * named with 245 characters would write no profile at all.  Its middle
 * goes, its start and its end (the pid and the extension) stay, and the
 * new name is said once.
 */
#define LP_NAME_KEEP 200
#define LP_NAME_TAIL 40
static void shorten_name(char *final)
{
	static int said;
	char *base = strrchr(final, '/');
	size_t n;

	base = base ? base + 1 : final;
	n = strlen(base);
	if (n <= LP_NAME_KEEP)
		return;
	base[LP_NAME_KEEP - LP_NAME_TAIL - 1] = '~';
	memmove(base + LP_NAME_KEEP - LP_NAME_TAIL, base + n - LP_NAME_TAIL,
		LP_NAME_TAIL + 1);
	if (!said++)
		write_error("profile name too long for the file system; "
			    "writing", final, 0);
}

/*
 * A name that is no regular file.  /dev/null, a FIFO, a terminal: written
 * to as they are (a rename would put a regular file in the node's place).
 * A symbolic link is never followed: whoever can write its folder could
 * point it at any file the program may write.  Under a %p pattern
 * (@variant) such a name is only taken, and the next free variant is
 * written instead.  Block devices and sockets are refused.
 * @return : 0 written, 1 go on with a new file, or -LP_EIO (said).
 */
static int dump_special(const char *final, const struct stat *st, int variant)
{
	int fd, err;

	if (S_ISLNK(st->st_mode) && variant)
		return 1;
	if (S_ISLNK(st->st_mode)) {
		write_error("not writing profile through the symbolic link",
			    final, ELOOP);
		return -LP_EIO;
	}
	if (!S_ISFIFO(st->st_mode) && !S_ISCHR(st->st_mode)) {
		write_error("not writing profile into", final, ENOTSUP);
		return -LP_EIO;
	}
	sum_counts();
	fd = open_device(final, st);
	err = fd < 0 ? -LP_EIO : write_profile_fd(fd);
	if (err)
		write_error("cannot write profile", final, errno);
	return err;
}

/* Called locked.  @path NULL means the configured file. */
static int dump_locked(const char *path)
{
	static char final[PATH_MAX], tmp[PATH_MAX];
	struct stat st;
	size_t len;
	int err, fd, own = !path;

	if (!rt.init_done)
		init_locked();
	if (!path) {
		/* set-user-ID, or the pattern was unusable */
		if (!rt.file_pattern[0])
			return 0;
		path = rt.file_pattern;
	}
	if (expand_path(final, sizeof(final), path)) {
		write_error("cannot name profile", path, errno);
		return -LP_EIO;
	}
	shorten_name(final);
	/*
	 * What the name is decides how it is written: lstat(), as a link is
	 * never followed (doc/DESIGN.md, "Writing the profile").
	 */
	if (lstat(final, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		err = dump_special(final, &st, own && strstr(path, "%p"));
		if (err <= 0)
			return err;
	}
	if (own && claim_name(final, sizeof(final), path)) {
		write_error("cannot write profile", final, errno);
		return -LP_EIO;
	}
	len = strlen(final);
	if (len + 32 >= sizeof(tmp)) {
		write_error("cannot write profile", final, ENAMETOOLONG);
		return -LP_EIO;
	}
	memcpy(tmp, final, len);
	memcpy(tmp + len, ".tmp.", 6);
	len += 5;
	put_ulong(tmp, sizeof(tmp), &len, (unsigned long)getpid());

	sum_counts();
	/*
	 * A new file only: no symbolic link is followed and nothing that
	 * exists is opened.  A stale temporary of a killed process with this
	 * pid is removed first.
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_NONBLOCK | O_CLOEXEC, 0666);
	err = fd < 0 ? -LP_EIO : write_profile_fd(fd);
	if (!err && rename(tmp, final) < 0)
		err = -LP_EIO;
	if (err) {
		int e = errno;

		if (fd >= 0)
			unlink(tmp);
		write_error("cannot write profile", final, e);
		errno = e;
	}
	return err;
}

/* Short, async-signal-safe names for what usually goes wrong. */
static const char *errno_text(int err)
{
	switch (err) {
	case ENOSPC: return "No space left on device";
	case EDQUOT: return "Disk quota exceeded";
	case EACCES: return "Permission denied";
	case EPERM: return "Operation not permitted";
	case EROFS: return "Read-only file system";
	case ENOENT: return "No such file or directory";
	case ENOTDIR: return "Not a directory";
	case EISDIR: return "Is a directory";
	case ENAMETOOLONG: return "File name too long";
	case EMFILE: return "Too many open files";
	case EIO: return "Input/output error";
	case EFBIG: return "File too large";
	case ENXIO: return "No such device or address";
	case EAGAIN: return "Resource temporarily unavailable";
	case ELOOP: return "not followed";
	case ENOTSUP: return "not a file, FIFO or character device";
	case ESTALE: return "replaced while it was opened";
	default: return "error";
	}
}

/*
 * One line on stderr; the program's own output is never touched.  @err 0
 * is a note: the line ends with the path.
 */
static void write_error(const char *what, const char *path, int err)
{
	char line[PATH_MAX + 256];
	size_t len = 0;

	put(line, sizeof(line), &len, "likelyprof: ", 12);
	put(line, sizeof(line), &len, what, strlen(what));
	put(line, sizeof(line), &len, " '", 2);
	if (put(line, sizeof(line), &len, path, strlen(path)) < 0)
		put(line, sizeof(line), &len, "...", 3);
	if (!err) {     /* a note, with no error to name */
		put(line, sizeof(line), &len, "'\n", 2);
		write_stderr(line, len);
		return;
	}
	put(line, sizeof(line), &len, "': ", 3);
	put(line, sizeof(line), &len, errno_text(err),
	    strlen(errno_text(err)));
	if (!strcmp(errno_text(err), "error")) {
		put(line, sizeof(line), &len, " ", 1);
		put_ulong(line, sizeof(line), &len, (unsigned long)err);
	}
	put(line, sizeof(line), &len, "\n", 1);
	write_stderr(line, len);
}

/*
 * Only to the stderr the program started with: a program that closed fd 2
 * may have reused it for its own data, which a message would corrupt.
 */
static void write_stderr(const char *msg, size_t len)
{
	struct stat st;
	ssize_t r;

	if (!rt.have_stderr || fstat(2, &st) || st.st_dev != rt.stderr_dev ||
	    st.st_ino != rt.stderr_ino)
		return;
	r = write(2, msg, len);
	(void)r;
}

/* --- exec ------------------------------------------------------------- */

/*
 * The exec functions write the profile first, as gcov's do: the new image
 * starts from nothing, and the old one's exit dump never comes.  The real
 * function is the next definition (libc's), found by dlsym(RTLD_NEXT).  A
 * vfork() child shares the parent's memory and counts; it writes nothing
 * (its pid is not the one the runtime knows), so the parent's counts are
 * not written twice.  A failed exec leaves the process running, and its
 * next dump replaces the same file.
 */
static void dump_before_exec(void)
{
	int saved = errno;

	if (in_lock)
		return;
	lock();
	if (rt.init_done && getpid() == rt.pid)
		dump_locked(NULL);
	unlock();
	errno = saved;
}

static void *real_fn(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn)
		errno = ENOSYS;
	return fn;
}

#define LP_REAL(type, name) ((type)real_fn(name))

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[],
			   int);

LP_API int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn fn = LP_REAL(execve_fn, "execve");

	dump_before_exec();
	return fn ? fn(path, argv, envp) : -1;
}

LP_API int execv(const char *path, char *const argv[])
{
	execv_fn fn = LP_REAL(execv_fn, "execv");

	dump_before_exec();
	return fn ? fn(path, argv) : -1;
}

LP_API int execvp(const char *file, char *const argv[])
{
	execv_fn fn = LP_REAL(execv_fn, "execvp");

	dump_before_exec();
	return fn ? fn(file, argv) : -1;
}

LP_API int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execve_fn fn = LP_REAL(execve_fn, "execvpe");

	dump_before_exec();
	return fn ? fn(file, argv, envp) : -1;
}

LP_API int fexecve(int fd, char *const argv[], char *const envp[])
{
	fexecve_fn fn = LP_REAL(fexecve_fn, "fexecve");

	dump_before_exec();
	return fn ? fn(fd, argv, envp) : -1;
}

LP_API int execveat(int dirfd, const char *path, char *const argv[],
		    char *const envp[], int flags)
{
	execveat_fn fn = LP_REAL(execveat_fn, "execveat");

	dump_before_exec();
	return fn ? fn(dirfd, path, argv, envp, flags) : -1;
}

/*
 * execl, execlp, execle: the list becomes an array on the stack (no
 * malloc), then the array form above does the rest.
 */
static size_t list_len(va_list ap)
{
	size_t n = 1;

	while (va_arg(ap, char *))
		n++;
	return n;
}

/* Fills @argv (@n + 1 entries), reading the list up to its NULL. */
static void list_fill(char **argv, size_t n, const char *arg, va_list *ap)
{
	size_t i;

	argv[0] = (char *)arg;
	for (i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
}

#define LP_EXECL(call, arg)                                                  \
	va_list ap;                                                          \
	size_t n;                                                            \
	va_start(ap, arg);                                                   \
	n = list_len(ap);                                                    \
	va_end(ap);                                                          \
	{                                                                    \
		char *argv[n + 1];                                           \
		char *const *envp_ = NULL;                                   \
		va_start(ap, arg);                                           \
		list_fill(argv, n, arg, &ap);                                \
		if (LP_EXECL_WANTS_ENV)                                      \
			envp_ = va_arg(ap, char *const *);                   \
		va_end(ap);                                                  \
		(void)envp_;                                                 \
		return call;                                                 \
	}

#define LP_EXECL_WANTS_ENV 0
LP_API int execl(const char *path, const char *arg, ...)
{
	LP_EXECL(execv(path, argv), arg)
}

LP_API int execlp(const char *file, const char *arg, ...)
{
	LP_EXECL(execvp(file, argv), arg)
}
#undef LP_EXECL_WANTS_ENV
#define LP_EXECL_WANTS_ENV 1
LP_API int execle(const char *path, const char *arg, ...)
{
	LP_EXECL(execve(path, argv, envp_), arg)
}
#undef LP_EXECL_WANTS_ENV

/* --- public API -------------------------------------------------------- */

LP_API int likelyprof_dump(const char *path)
{
	int saved = errno, err;

	if (in_lock)
		return -LP_EBUSY;
	lock();
	err = dump_locked(path);
	unlock();
	if (!err)
		errno = saved;
	return err;
}

LP_API int likelyprof_reset(void)
{
	struct lp_module *m;
	struct lp_dynsite *d;
	struct lp_thread *t;
	size_t i;

	if (in_lock)
		return -LP_EBUSY;
	lock();
	for (m = rt.modules; m; m = m->next)
		memset(m->cells, 0, sizeof(*m->cells) *
		       (size_t)(m->last - m->first));
	for (d = rt.dyn_all; d; d = d->all)
		memset(&d->cell, 0, sizeof(d->cell));
	for (t = rt.threads; t; t = t->next)
		for (i = 0; t->live && i < t->n; i++)
			counter_rearm(t->slots[i].ctr);
	unlock();
	return 0;
}
