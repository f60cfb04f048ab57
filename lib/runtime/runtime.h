/*
 * runtime.h - what the files of the runtime share, and nothing else sees
 *
 * One runtime, in five files: runtime.c (counters, the lock, memory, the
 * process's start and its handlers), modules.c (the instrumented modules
 * and their build-ids), threads.c (each thread's counters and their
 * registration), dump.c (naming and writing a profile), exec.c (the exec
 * family and the public calls).  Their shared state is one struct and a
 * few thread-locals, all hidden: a program that links the runtime
 * statically sees none of these names, which all start with lp__.
 */
#ifndef LP_RUNTIME_H
#define LP_RUNTIME_H

#include <limits.h>
#include <pthread.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/types.h>

#include "format.h"
#include "likelyprof.h"

#pragma GCC visibility push(hidden)

/*
 * counts[] indices, in the order struct lp_counter keeps them, and
 * struct lp_cell (format.h) too
 */
enum { C_CORRECT, C_INCORRECT, C_CONSTANT, C_N };

/* A module's "lp_sites" section, or its copy once it is unloaded. */
struct lp_module {
	const struct lp_site *first, *last;
	struct lp_cell *cells;
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
	const char *plain_func;         /* its name as written (threads.c) */
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

struct lp_rt {
	int lock;                       /* 0 free, 1 held */
	int pending_dump;               /* a signal came while held */
	int init_done;
	int unlocked_done;              /* lp__init_unlocked() has run */
	int exiting;
	struct lp_module *modules;
	struct lp_dynsite *dyn_all;
	struct lp_dynsite **dyn_hash;
	size_t dyn_n, dyn_buckets;
	size_t dyn_orphans;             /* entries whose module went away */
	int runs_in_totals;             /* a run's count left its slots */
	struct lp_build *builds;        /* in load order, the program first */
	uintptr_t program_lo, program_hi;       /* the program's segments */
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
};
extern struct lp_rt lp__rt;

/* Which thread holds the lock: a signal handler must not wait for itself. */
extern __thread int lp__in_lock __attribute__((tls_model("initial-exec")));
/* This thread's counters, registered with the runtime */
extern __thread struct lp_thread *lp__self
	__attribute__((tls_model("initial-exec")));

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
extern __thread struct lp_deferred lp__deferred[LP_DEFERRED_MAX]
	__attribute__((tls_model("initial-exec")));
extern __thread unsigned lp__n_deferred
	__attribute__((tls_model("initial-exec")));

unsigned long long lp__counter_take(unsigned long long *field);
void lp__counter_rearm(struct lp_counter *c);
void lp__lock_wait(void);
void lp__unlock(void);
void lp__init_locked(void);
void lp__init_unlocked(void);
int lp__put(char *buf, size_t cap, size_t *len, const char *s, size_t n);
int lp__put_ulong(char *buf, size_t cap, size_t *len, unsigned long v);
int lp__reserve_unique(char *name, size_t cap);
int lp__dump_locked(const char *path);
void lp__write_stderr(const char *msg, size_t len);
void lp__write_error(const char *what, const char *path, int err);
const void *lp__module_base(const void *anchor);
void lp__build_note(const void *anchor);
struct lp_module *lp__module_find(const struct lp_site *site);
int lp__same_sites(const struct lp_site *a, const struct lp_site *b, size_t n);
struct lp_module *lp__module_get(const struct lp_site *first,
				 const struct lp_site *last,
				 const void *anchor);
void lp__slot_harvest(struct lp_slot *s);
void lp__thread_arm_exit(struct lp_thread *t);
void lp__thread_exit(void *arg);
unsigned lp__drain_deferred(void);
void lp__listed_forget(const void *base);

/*
 * A counter field holds its count minus one (include/likelyprof.h), so an
 * armed field reads as zero.  Reading it from another thread is a relaxed
 * load: only the owner writes.  Inline: a dump reads three per slot.
 */
static inline unsigned long long lp__counter_read(unsigned long long *field)
{
	return __atomic_load_n(field, __ATOMIC_RELAXED) + 1;
}

/*
 * The runtime's one lock, which only cold paths take.  This thread is
 * marked "in the runtime" first (runtime.c, lp__unlock()).  Inline: a
 * first count takes it, and a call would give lp__enter() a frame.
 */
static inline void lp__lock(void)
{
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	lp__in_lock = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_exchange_n(&lp__rt.lock, 1, __ATOMIC_ACQUIRE))
		lp__lock_wait();
}

/* Zeroed memory that lives as long as the process.  Called locked. */
static inline void *lp__arena_alloc(size_t n)
{
	void *p;

	n = (n + 15) & ~(size_t)15;
	if (n > lp__rt.arena_left) {
		size_t chunk = n > (1 << 20) ? n : (1 << 20);
		void *m = mmap(NULL, chunk, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (m == MAP_FAILED)
			return NULL;
		lp__rt.arena = m;
		lp__rt.arena_left = chunk;
	}
	p = lp__rt.arena;
	lp__rt.arena += n;
	lp__rt.arena_left -= n;
	return p;
}

/*
 * Grows @p, of @n bytes, to @to bytes where it was the arena's last block
 * and the room is there.  @return : 1 grown, 0 not (allocate anew).
 */
static inline int lp__arena_extend(void *p, size_t n, size_t to)
{
	n = (n + 15) & ~(size_t)15;
	to = (to + 15) & ~(size_t)15;
	if ((char *)p + n != lp__rt.arena || to - n > lp__rt.arena_left)
		return 0;
	lp__rt.arena += to - n;
	lp__rt.arena_left -= to - n;
	return 1;
}

static inline const char *lp__arena_strdup(const char *s)
{
	size_t n;
	char *d;

	if (!s)
		return NULL;
	n = strlen(s) + 1;
	d = lp__arena_alloc(n);
	if (d)
		memcpy(d, s, n);
	return d ? d : "";
}

#pragma GCC visibility pop

#endif /* LP_RUNTIME_H */
