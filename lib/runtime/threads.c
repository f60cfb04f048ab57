/*
 * threads.c - each thread's counters: the first count of a site in a
 * thread (lp__enter), what the thread holds, and what it leaves at exit
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
/*
 * Set when this thread's exit was told and its counters summed.  Hints
 * still run after that (a destructor of the program's that runs after
 * ours in glibc's last round, the allocator's free() in glibc's own
 * cleanup), and no destructor of ours follows them: a slot taken then
 * would point into storage that goes with the thread.
 */
static __thread int self_left __attribute__((tls_model("initial-exec")));
/*
 * Set once this thread's exit will be told (its key holds its counters):
 * every first count asks, and pthread_getspecific() is a call.
 */
static __thread int self_armed __attribute__((tls_model("initial-exec")));

/* --- threads ----------------------------------------------------------- */

static struct lp_thread *thread_self(void)
{
	struct lp_thread *t;

	if (lp__self)
		return lp__self;
	for (t = lp__rt.threads; t; t = t->next)
		if (!t->live)
			break;
	if (!t) {
		t = lp__arena_alloc(sizeof(*t));
		if (!t)
			return NULL;
		t->next = lp__rt.threads;
		lp__rt.threads = t;
	}
	t->live = 1;
	t->n = 0;
	lp__self = t;
	/* pthread_setspecific() is the caller's, once the lock is free */
	return t;
}

/*
 * After a thread's first registration: ask for its exit to be told.  Out
 * of the lock, since a key past the first 32 makes glibc allocate.
 */
void lp__thread_arm_exit(struct lp_thread *t)
{
	/*
	 * glibc keeps the first 32 keys in the thread's own block; past them
	 * it may calloc, which a first count from the stub must not do.
	 */
	if (self_armed || (LP_IN_STUB() && lp__rt.thread_key >= 32))
		return;
	if (!t || !lp__rt.have_key)
		return;
	if (pthread_getspecific(lp__rt.thread_key) ||
	    !pthread_setspecific(lp__rt.thread_key, t))
		self_armed = 1;
}

static int thread_add_slot(struct lp_thread *t, struct lp_counter *ctr,
			   struct lp_cell *cell)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;

		/* the arena's last block grows in place: no copy */
		if (!t->cap || !lp__arena_extend(t->slots,
						 t->cap * sizeof(*t->slots),
						 cap * sizeof(*t->slots))) {
			struct lp_slot *s = lp__arena_alloc(cap * sizeof(*s));

			if (!s)
				return -1;
			if (t->n)
				memcpy(s, t->slots, t->n * sizeof(*s));
			t->slots = s;
		}
		t->cap = cap;
	}
	t->slots[t->n].ctr = ctr;
	t->slots[t->n].cell = cell;
	t->n++;
	return 0;
}

/* pthread key destructor: the thread is leaving, its counters with it. */
void lp__thread_exit(void *arg)
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
	lp__lock();
	for (i = 0; i < t->n; i++) {
		lp__slot_harvest(&t->slots[i]);
		/* a later destructor's hint registers the thread anew */
		t->slots[i].ctr->site = NULL;
	}
	t->n = 0;
	t->live = 0;
	if (lp__self == t)
		lp__self = NULL;
	self_left = 1;
	self_armed = 0;
	lp__unlock();
	errno = saved;
}

/*
 * Whether this thread's exit will be told, or can be asked for now: from
 * the stub, glibc would calloc for a key past its first 32 (see
 * lp__thread_arm_exit), so a thread not yet armed cannot be.  The main
 * thread's storage lasts until the dump at exit, told or not.
 */
static int thread_exit_known(void)
{
	return self_armed || !LP_IN_STUB() || !lp__rt.have_key ||
	       lp__rt.thread_key < 32 ||
	       pthread_getspecific(lp__rt.thread_key) != NULL ||
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

		lp__slot_harvest(&now);
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
static __attribute__((noinline)) void defer(struct lp_counter *ctr,
		  const struct lp_site *site,
		  const struct lp_site *first, const struct lp_site *last,
		  const struct lp_site *proto)
{
	unsigned n = __atomic_fetch_add(&lp__n_deferred, 1, __ATOMIC_RELAXED);
	struct lp_deferred *e = &lp__deferred[n];

	if (n >= LP_DEFERRED_MAX) {
		__atomic_fetch_sub(&lp__n_deferred, 1, __ATOMIC_RELAXED);
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
	m = lp__module_find(e->site);
	if (!m)
		m = lp__module_get(e->first, e->last, e->first);
	if (m && e->site >= m->first && e->site < m->last)
		enter_locked(e->ctr, e->site, &m->cells[e->site - m->first]);
}

/*
 * Called locked by the thread that noted them.  A handler may add one
 * while we take another: the compare-exchange sees it.
 */
unsigned lp__drain_deferred(void)
{
	unsigned n, done = 0;

	while ((n = __atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED))) {
		struct lp_deferred e = lp__deferred[n - 1];

		if (!__atomic_compare_exchange_n(&lp__n_deferred, &n, n - 1, 0,
						 __ATOMIC_RELAXED,
						 __ATOMIC_RELAXED))
			continue;
		lp__init_locked();
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
		lp__init_unlocked();
	/* asked once per thread, and a first count is no place for a call */
	if (!self_armed)
		lp__thread_arm_exit(lp__self);
	errno = saved;
}

/* first counts come in runs from one module: the last one's first */
static struct lp_module *hot;   /* under the lock */

/*
 * What lp__stub_fast() runs must leave the vector and x87 registers
 * alone, as the stub has not saved them yet: general registers only,
 * for it and for what is inlined into it (a function built for other
 * registers is not inlined there, so each has the attribute).
 */
#ifdef LP_HAVE_STUB_
#define LP_GENERAL_REGS_ __attribute__((target("general-regs-only")))
#else
#define LP_GENERAL_REGS_
#endif

/*
 * The first count as most are: the runtime started, this thread's exit
 * will be told (so it did not leave either), its slots have room, and
 * the site is in the module of the first count before.  A short process
 * pays this once per site it runs, so it is kept to the append alone:
 * nothing here sets errno, nothing allocates.  Called locked.
 * @return : 1 registered, 0 not tried (the general way then).
 */
static inline LP_GENERAL_REGS_ int enter_fast(struct lp_counter *ctr,
					      const struct lp_site *site)
{
	struct lp_thread *t = lp__self;
	struct lp_module *m = hot;
	struct lp_slot *s;

	if (!self_armed || !t || t->n == t->cap || !m || m->unloaded ||
	    site < m->first || site >= m->last || !lp__rt.unlocked_done)
		return 0;
	s = &t->slots[t->n++];
	s->ctr = ctr;
	s->cell = &m->cells[site - m->first];
	ctr->site = site;
	return 1;
}

static void enter_slow(struct lp_counter *ctr, const struct lp_site *site,
		       const struct lp_site *first,
		       const struct lp_site *last);

LP_API void lp__enter(struct lp_counter *ctr, const struct lp_site *site,
		      const struct lp_site *first, const struct lp_site *last)
{
	/* another field's first count registered it already */
	if (ctr->site)
		return;
	/*
	 * This thread is in the runtime: a signal handler of the program, or
	 * something the runtime called.  It must not wait for itself.
	 */
	if (lp__in_lock) {
		defer(ctr, site, first, last, NULL);
		return;
	}
	lp__lock();
	if (enter_fast(ctr, site))
		lp__unlock();
	else
		enter_slow(ctr, site, first, last);
}

/* lp__enter() for the rest, locked; apart, so that the above has no frame */
static __attribute__((noinline)) void enter_slow(struct lp_counter *ctr,
						 const struct lp_site *site,
						 const struct lp_site *first,
						 const struct lp_site *last)
{
	int saved = errno;
	struct lp_module *m;

	lp__init_locked();
	m = hot;
	if (!m || m->unloaded || site < m->first || site >= m->last)
		m = lp__module_find(site);
	if (!m)
		m = lp__module_get(first, last, first);
	if (m && site >= m->first && site < m->last) {
		enter_locked(ctr, site, &m->cells[site - m->first]);
		hot = m;
	}
	lp__unlock();
	enter_done(saved);
}

#ifdef LP_HAVE_STUB_
__thread unsigned lp__stub_depth __attribute__((tls_model("initial-exec")));

/*
 * What lp__stub_fast() left to the general way: 1, the lock is held and
 * lp__unlock() has work (a dump or a deferred registration waits); 2,
 * the lock was let go and a handler deferred a registration in between,
 * so it is taken again first.  Taken by whichever first count of this
 * thread comes next through lp__stub_call(), a handler's included.
 */
static __thread int stub_owes __attribute__((tls_model("initial-exec")));

/*
 * A first count from the stub (stub-x86_64.c), before it saves the
 * vector state: the one of enter_fast(), with the lock taken and let go
 * inline, or nothing.  No call, no waiting for the lock, nothing but
 * general registers.  @return : 1 done, 0 the general way (the stub
 * then saves everything and calls lp__stub_call()).
 */
__attribute__((used, visibility("hidden"))) LP_GENERAL_REGS_
int lp__stub_fast(struct lp_counter *ctr, const struct lp_site *site);
__attribute__((used, visibility("hidden"))) LP_GENERAL_REGS_
int lp__stub_fast(struct lp_counter *ctr, const struct lp_site *site)
{
	int done;

	if (ctr->site)
		return 1;
	if (lp__in_lock)
		return 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	lp__in_lock = 1;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_exchange_n(&lp__rt.lock, 1, __ATOMIC_ACQUIRE)) {
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		lp__in_lock = 0;
		__atomic_signal_fence(__ATOMIC_SEQ_CST);
		return 0;
	}
	done = enter_fast(ctr, site);
	/* lp__unlock()'s first steps; the rest is the general way's */
	if (__atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED) ||
	    __atomic_load_n(&lp__rt.pending_dump, __ATOMIC_ACQUIRE)) {
		__atomic_store_n(&stub_owes, 1, __ATOMIC_RELAXED);
		return 0;
	}
	__atomic_store_n(&lp__rt.lock, 0, __ATOMIC_RELEASE);
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	lp__in_lock = 0;
	__atomic_signal_fence(__ATOMIC_SEQ_CST);
	if (__atomic_load_n(&lp__n_deferred, __ATOMIC_RELAXED)) {
		__atomic_store_n(&stub_owes, 2, __ATOMIC_RELAXED);
		return 0;
	}
	return done;
}

typedef void (*lp_enter_fn)(struct lp_counter *, const struct lp_site *);

/*
 * The general way from the stub, every register saved: what
 * lp__stub_fast() left, then the module's lp__enter_cold.
 */
__attribute__((used, visibility("hidden")))
void lp__stub_call(struct lp_counter *ctr, const struct lp_site *site,
		   lp_enter_fn enter);
__attribute__((used, visibility("hidden")))
void lp__stub_call(struct lp_counter *ctr, const struct lp_site *site,
		   lp_enter_fn enter)
{
	int owes;

	lp__stub_depth++;
	owes = __atomic_exchange_n(&stub_owes, 0, __ATOMIC_RELAXED);
	if (owes == 2)
		lp__lock();
	if (owes)
		lp__unlock();
	enter(ctr, site);
	lp__stub_depth--;
}
#endif

static size_t dyn_hash(const struct lp_site *key)
{
	return (size_t)(((uintptr_t)key >> 4) * 0x9e3779b97f4a7c15ull);
}

static struct lp_dynsite *dyn_find(const struct lp_site *key)
{
	struct lp_dynsite *d;

	if (!lp__rt.dyn_buckets)
		return NULL;
	for (d = lp__rt.dyn_hash[dyn_hash(key) % lp__rt.dyn_buckets]; d;
	     d = d->next)
		if (d->key == key)
			return d;
	return NULL;
}

/*
 * A C++ site is shared by every instantiation of its template, but g++
 * names the function after the one that ran first ("pos<int>" in one run,
 * "pos<double>" in the next), and clang never adds the arguments: the
 * name is written without a trailing template argument list, so runs
 * merge into one row.  "operator<=>" and "operator>" keep their names.
 * Made once, when the site is, rather than at every dump.  (C's __func__
 * never ends in '>': a C site's name is written as it is.)
 */
static const char *plain_func(const char *func)
{
	size_t n = func ? strlen(func) : 0, depth = 0, i;
	char *cut;

	if (!n || func[n - 1] != '>')
		return func;
	for (i = n; i-- > 0;) {
		depth += func[i] == '>';
		depth -= func[i] == '<';
		if (!depth)
			break;
	}
	if (depth || i == 0)
		return func;
	while (i && func[i - 1] == ' ')
		i--;
	if (i >= 8 && !memcmp(func + i - 8, "operator", 8))
		return func;
	cut = lp__arena_alloc(i + 1);
	if (!cut)
		return func;
	memcpy(cut, func, i);
	cut[i] = '\0';
	return cut;
}

static struct lp_dynsite *dyn_get(const struct lp_site *key,
				  const struct lp_site *proto)
{
	size_t h = dyn_hash(key);
	struct lp_dynsite *d;

	if (lp__rt.dyn_n >= lp__rt.dyn_buckets) {
		size_t nb = lp__rt.dyn_buckets ? lp__rt.dyn_buckets * 4 : 256;
		size_t i;
		struct lp_dynsite **tab = lp__arena_alloc(nb * sizeof(*tab));

		if (!tab)
			return NULL;
		for (d = lp__rt.dyn_all; d; d = d->all) {
			i = dyn_hash(d->key) % nb;
			d->next = tab[i];
			tab[i] = d;
		}
		lp__rt.dyn_hash = tab;
		lp__rt.dyn_buckets = nb;
	}
	d = dyn_find(key);
	if (d) {
		if (!d->base) {
			/* its module is back where it was */
			d->base = lp__module_base(key);
			lp__rt.dyn_orphans--;
		}
		return d;
	}
	d = lp__arena_alloc(sizeof(*d));
	if (!d)
		return NULL;
	d->key = key;
	d->site = *proto;
	d->site.file = lp__arena_strdup(proto->file);
	d->site.func = lp__arena_strdup(proto->func);
	d->site.cond = lp__arena_strdup(proto->cond);
	d->site.unit = lp__arena_strdup(proto->unit);
	d->plain_func = plain_func(d->site.func);
	d->base = lp__module_base(key);
	d->next = lp__rt.dyn_hash[h % lp__rt.dyn_buckets];
	lp__rt.dyn_hash[h % lp__rt.dyn_buckets] = d;
	d->all = lp__rt.dyn_all;
	lp__rt.dyn_all = d;
	lp__rt.dyn_n++;
	return d;
}

LP_API void lp__enter_dynamic(struct lp_counter *ctr, struct lp_site *site,
			      const struct lp_site *proto)
{
	int saved = errno;
	struct lp_dynsite *d;

	if (ctr->site)
		return;
	if (lp__in_lock) {
		defer(ctr, site, NULL, NULL, proto);
		errno = saved;
		return;
	}
	lp__lock();
	lp__init_locked();
	d = dyn_get(site, proto);
	if (d)
		enter_locked(ctr, site, &d->cell);
	lp__unlock();
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

	for (d = lp__rt.dyn_all; d; d = d->all)
		if (!d->base && lp__same_sites(&d->site, &r->site, 1))
			break;
	if (!d)
		return NULL;
	pp = &lp__rt.dyn_hash[dyn_hash(d->key) % lp__rt.dyn_buckets];
	while (*pp != d)
		pp = &(*pp)->next;
	*pp = d->next;
	d->key = r->key;
	d->next = lp__rt.dyn_hash[dyn_hash(r->key) % lp__rt.dyn_buckets];
	lp__rt.dyn_hash[dyn_hash(r->key) % lp__rt.dyn_buckets] = d;
	d->base = lp__module_base(r->key);
	lp__rt.dyn_orphans--;
	return d;
}

static int listed_before(const struct lp_site_listing *first)
{
	struct lp_listed *l;

	for (l = lp__rt.listed; l; l = l->next)
		if (l->first == first)
			return 1;
	l = lp__arena_alloc(sizeof(*l));
	if (l) {
		l->first = first;
		l->base = lp__module_base(first);
		l->next = lp__rt.listed;
		lp__rt.listed = l;
	}
	return 0;
}

/* dlclose(): the module may come back, at the same place or not. */
void lp__listed_forget(const void *base)
{
	struct lp_listed **pp = &lp__rt.listed;

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

	lp__lock();
	lp__init_locked();
	lp__build_note(anchor ? anchor : (const void *)first);
	if (first && last > first && !listed_before(first))
		for (r = first; r < last; r++) {
			if (LP_SITE_ABI_OF(r->site.abi) != LP_SITE_ABI)
				continue;
			/* a known key (its module back in place), or new */
			if (!lp__rt.dyn_orphans || dyn_find(r->key) ||
			    !dyn_revive(r))
				dyn_get(r->key, &r->site);
		}
	lp__unlock();
	lp__init_unlocked();
	errno = saved;
}

