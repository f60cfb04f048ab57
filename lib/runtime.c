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
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "likelyprof.h"
#include "profile.h"

/* counts[] indices, in the order struct lp_counter keeps them */
enum { C_CORRECT, C_INCORRECT, C_CONSTANT, C_N };

struct lp_cell {
	unsigned long long total[C_N];  /* exited threads, unloaded modules */
	unsigned long long sum[C_N];    /* a dump's scratch */
};

/* A module's "lp_sites" section, or its copy once it is unloaded. */
struct lp_module {
	const struct lp_site *first, *last;
	struct lp_cell *cells;
	const void *base;               /* load address, from dladdr() */
	int unloaded;                   /* first/last then point at copies */
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
	struct lp_thread *threads;
	pthread_key_t thread_key;
	int have_key;
	char *arena;
	size_t arena_left;
	char file_pattern[PATH_MAX];    /* absolute, patterns unexpanded */
	char program[PATH_MAX];         /* /proc/self/exe */
	const char *program_name;       /* its base name, for %e */
	int dump_signal;
} rt;

/* Which thread holds the lock: a signal handler must not wait for itself. */
static __thread int in_lock __attribute__((tls_model("initial-exec")));
static __thread struct lp_thread *self
	__attribute__((tls_model("initial-exec")));

/* Output buffer of dumps; dumps are serialised by the lock. */
static char dump_buf[1 << 16];

static void write_error(const char *what, const char *path, int err);
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

static int try_lock(void)
{
	if (in_lock)
		return 0;
	if (__atomic_exchange_n(&rt.lock, 1, __ATOMIC_ACQUIRE))
		return 0;
	in_lock = 1;
	return 1;
}

static void lock(void)
{
	unsigned spins = 0;

	while (__atomic_exchange_n(&rt.lock, 1, __ATOMIC_ACQUIRE)) {
		/* cold paths only: yield rather than burn the other core */
		if (++spins > 64)
			sched_yield();
	}
	in_lock = 1;
}

static void unlock(void)
{
	/*
	 * A dump signal that found the lock taken left the work to us.  The
	 * loop catches one that arrives while we write.
	 */
	while (__atomic_load_n(&rt.pending_dump, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&rt.pending_dump, 0, __ATOMIC_RELEASE);
		dump_locked(NULL);
	}
	in_lock = 0;
	__atomic_store_n(&rt.lock, 0, __ATOMIC_RELEASE);
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
		__atomic_store_n(&rt.pending_dump, 1, __ATOMIC_RELEASE);
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

static void fork_prepare(void)
{
	lock();
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
	rt.pending_dump = 0;
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
 * A relative LIKELYPROF_FILE is taken relative to the folder the program
 * started in, not the one it ends in: daemons chdir("/").
 */
static void read_file_pattern(void)
{
	const char *env = getenv("LIKELYPROF_FILE");
	size_t n = 0;

	if (!env || !*env)
		env = "%e.%p.lprof";
	if (env[0] != '/') {
		if (!getcwd(rt.file_pattern, sizeof(rt.file_pattern) - 2))
			strcpy(rt.file_pattern, ".");
		n = strlen(rt.file_pattern);
		if (n && rt.file_pattern[n - 1] != '/')
			rt.file_pattern[n++] = '/';
	}
	if (strlen(env) >= sizeof(rt.file_pattern) - n)
		env = "%e.%p.lprof";
	strcpy(rt.file_pattern + n, env);
}

static void install_signal(void)
{
	const char *env = getenv("LIKELYPROF_SIGNAL");
	struct sigaction sa;

	if (!env || !*env)
		return;
	rt.dump_signal = parse_signal(env);
	if (!rt.dump_signal) {
		static const char msg[] = "likelyprof: LIKELYPROF_SIGNAL is "
			"not a signal name; no dump on signal\n";
		ssize_t r = write(2, msg, sizeof(msg) - 1);

		(void)r;
		return;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_dump_signal;
	sa.sa_flags = SA_RESTART;
	sigfillset(&sa.sa_mask);
	sigaction(rt.dump_signal, &sa, NULL);
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
	read_program();
	read_file_pattern();
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
	 * behind, in the folder of the build.
	 */
	err = rt.modules || rt.dyn_all ? dump_locked(NULL) : 0;
	unlock();
	(void)err;
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

static struct lp_module *module_find(const struct lp_site *site)
{
	struct lp_module *m;

	for (m = rt.modules; m; m = m->next)
		if (!m->unloaded && site >= m->first && site < m->last)
			return m;
	return NULL;
}

static struct lp_module *module_get(const struct lp_site *first,
				    const struct lp_site *last,
				    const void *anchor)
{
	struct lp_module *m, **tail;
	size_t n;

	for (tail = &rt.modules; (m = *tail); tail = &m->next)
		if (!m->unloaded && m->first == first)
			return m;
	if (!first || last <= first)
		return NULL;
	n = (size_t)(last - first);
	m = arena_alloc(sizeof(*m));
	if (!m)
		return NULL;
	m->cells = arena_alloc(n * sizeof(*m->cells));
	if (!m->cells)
		return NULL;
	m->first = first;
	m->last = last;
	m->base = module_base(anchor ? anchor : (const void *)first);
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
		struct lp_site *copy = arena_alloc(n * sizeof(*copy));

		if (copy) {
			for (i = 0; i < n; i++) {
				const struct lp_site *s = &m->first[i];

				copy[i] = *s;
				copy[i].file = arena_strdup(s->file);
				copy[i].func = arena_strdup(s->func);
				copy[i].cond = arena_strdup(s->cond);
				copy[i].unit = arena_strdup(s->unit);
			}
			m->first = copy;
			m->last = copy + n;
		} else {
			m->first = m->last = NULL;
		}
		m->unloaded = 1;
	}
	/* C++ records were copied when first used; only their base goes. */
	for (d = rt.dyn_all; d; d = d->all)
		if (d->base == base)
			d->base = NULL;
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
	size_t i;

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
	unlock();
	errno = saved;
}

static void enter_locked(struct lp_counter *ctr, const struct lp_site *site,
			 struct lp_cell *cell)
{
	struct lp_thread *t = thread_self();

	/*
	 * Without memory the counter stays unregistered and the site counts
	 * for this thread are not kept; the program itself is unaffected.
	 */
	if (!t || !cell || thread_add_slot(t, ctr, cell) < 0)
		return;
	ctr->site = site;
}

LP_API void lp__enter(struct lp_counter *ctr, const struct lp_site *site,
		      const struct lp_site *first, const struct lp_site *last)
{
	int saved = errno;
	struct lp_module *m;

	/*
	 * Another field's first count registered it already; or this thread
	 * holds the lock and got here through something the runtime called,
	 * which must not wait for itself.
	 */
	if (ctr->site || in_lock)
		return;
	lock();
	init_locked();
	m = module_find(site);
	if (!m)
		m = module_get(first, last, first);
	if (m && site >= m->first && site < m->last)
		enter_locked(ctr, site, &m->cells[site - m->first]);
	unlock();
	init_unlocked();
	thread_arm_exit(self);
	errno = saved;
}

static size_t dyn_hash(const struct lp_site *key)
{
	return (size_t)(((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull);
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
	for (d = rt.dyn_hash[h % rt.dyn_buckets]; d; d = d->next)
		if (d->key == key)
			return d;
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

	if (ctr->site || in_lock)
		return;
	lock();
	init_locked();
	d = dyn_get(site, proto);
	if (d)
		enter_locked(ctr, site, &d->cell);
	unlock();
	init_unlocked();
	thread_arm_exit(self);
	errno = saved;
}

/* --- dump -------------------------------------------------------------- */

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
	if (s->abi != LP_SITE_ABI)
		return;
	lp_sink_site(sink, c->sum[C_CORRECT], c->sum[C_INCORRECT],
		     c->sum[C_CONSTANT], s->expect, s->file, (long)s->line,
		     plain_func(s->func), s->unit, s->cond);
	(*count)++;
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
	for (m = rt.modules; m; m = m->next)
		for (i = 0; i < (size_t)(m->last - m->first); i++)
			sink_one(&fs.sink, &m->first[i], &m->cells[i], &count);
	for (d = rt.dyn_all; d; d = d->all)
		sink_one(&fs.sink, &d->site, &d->cell, &count);
	lp_sink_end(&fs.sink, count);
	return lp_sink_finish(&fs.sink);
}

/*
 * Writes the profile into @name opened with @flags; -LP_EIO (errno says
 * why) when it cannot be opened, written or closed.
 */
static int write_profile_to(const char *name, int flags)
{
	int fd = open(name, flags, 0666), err;

	if (fd < 0)
		return -LP_EIO;
	err = write_profile(fd);
	if (close(fd) < 0 && !err)
		err = -LP_EIO;
	return err;
}

/* Called locked.  @path NULL means the configured file. */
static int dump_locked(const char *path)
{
	static char final[PATH_MAX], tmp[PATH_MAX];
	struct stat st;
	size_t len;
	int err;

	if (!rt.init_done)
		init_locked();
	if (!path)
		path = rt.file_pattern;
	if (expand_path(final, sizeof(final), path)) {
		write_error("cannot name profile", path, errno);
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
	 * /dev/null, a FIFO, a terminal: written to as they are.  A rename
	 * would replace the device node with a regular file.
	 */
	if (stat(final, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		err = write_profile_to(final, O_WRONLY | O_CLOEXEC);
		if (err)
			write_error("cannot write profile", final, errno);
		return err;
	}
	err = write_profile_to(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC);
	if (!err && rename(tmp, final) < 0)
		err = -LP_EIO;
	if (err) {
		int e = errno;

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
	default: return "error";
	}
}

/* One line on stderr; the program's own output is never touched. */
static void write_error(const char *what, const char *path, int err)
{
	char line[PATH_MAX + 256];
	size_t len = 0;
	ssize_t r;

	put(line, sizeof(line), &len, "likelyprof: ", 12);
	put(line, sizeof(line), &len, what, strlen(what));
	put(line, sizeof(line), &len, " '", 2);
	if (put(line, sizeof(line), &len, path, strlen(path)) < 0)
		put(line, sizeof(line), &len, "...", 3);
	put(line, sizeof(line), &len, "': ", 3);
	put(line, sizeof(line), &len, errno_text(err),
	    strlen(errno_text(err)));
	if (!strcmp(errno_text(err), "error")) {
		put(line, sizeof(line), &len, " ", 1);
		put_ulong(line, sizeof(line), &len, (unsigned long)err);
	}
	put(line, sizeof(line), &len, "\n", 1);
	r = write(2, line, len);
	(void)r;
}

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
