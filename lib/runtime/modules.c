/*
 * modules.c - the instrumented modules: their sections of site records,
 * their cells, C++ sites built on first use, and the build-id of each
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

/* --- modules ----------------------------------------------------------- */

const void *lp__module_base(const void *anchor)
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
void lp__build_note(const void *anchor)
{
	static struct build_find f;     /* big; called locked */
	char hex[2 * LP_BUILD_ID_MAX + 1];
	struct lp_build *b, **tail;

	for (b = lp__rt.builds; anchor && b; b = b->next)
		if ((uintptr_t)anchor >= b->lo && (uintptr_t)anchor < b->hi)
			return;
	memset(&f, 0, sizeof(f));
	f.addr = anchor;
	f.hex = hex;
	f.is_program = 1;
	dl_iterate_phdr(build_cb, &f);
	if (!anchor) {
		lp__rt.program_lo = f.lo;
		lp__rt.program_hi = f.hi;
	}
	/* linked with --build-id=none: nothing to say */
	if (!f.found)
		return;
	/* a module dlopen()ed again, at its old place or another */
	for (tail = &lp__rt.builds; (b = *tail); tail = &b->next)
		if (b->bias == f.bias || (!f.is_program &&
					  !strcmp(b->hex, hex) &&
					  !strcmp(b->path, f.name)))
			return;
	b = lp__arena_alloc(sizeof(*b));
	if (!b)
		return;
	memcpy(b->hex, hex, sizeof(hex));
	b->bias = f.bias;
	b->lo = f.lo;
	b->hi = f.hi;
	b->path = f.is_program || !f.name[0] ? lp__rt.program :
		  lp__arena_strdup(f.name);
	b->next = NULL;
	*tail = b;
}

/* dlclose(): its build stays in the profile, its addresses may be reused. */
static void build_unmapped(const void *anchor)
{
	struct lp_build *b;

	for (b = lp__rt.builds; b; b = b->next)
		if ((uintptr_t)anchor >= b->lo && (uintptr_t)anchor < b->hi)
			b->lo = b->hi = 0;
}

struct lp_module *lp__module_find(const struct lp_site *site)
{
	struct lp_module *m;

	for (m = lp__rt.modules; m; m = m->next)
		if (!m->unloaded && site >= m->first && site < m->last)
			return m;
	return NULL;
}

static int same_str(const char *a, const char *b)
{
	return !strcmp(a ? a : "", b ? b : "");
}

/* Are the @n records at @a those at @b (a module loaded again)? */
int lp__same_sites(const struct lp_site *a, const struct lp_site *b,
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

	for (m = lp__rt.modules; m; m = m->next) {
		if (!m->unloaded || !m->copy ||
		    (size_t)(m->last - m->first) != n ||
		    strcmp(m->path, path) || !lp__same_sites(m->copy, first, n))
			continue;
		m->first = first;
		m->last = last;
		m->base = base;
		m->unloaded = 0;
		return m;
	}
	return NULL;
}

struct lp_module *lp__module_get(const struct lp_site *first,
				    const struct lp_site *last,
				    const void *anchor)
{
	struct lp_module *m, **tail;
	const char *path;
	const void *base;
	size_t n;

	for (tail = &lp__rt.modules; (m = *tail); tail = &m->next)
		if (!m->unloaded && m->first == first)
			return m;
	if (!first || last <= first)
		return NULL;
	anchor = anchor ? anchor : (const void *)first;
	base = lp__module_base(anchor);
	path = module_path(anchor);
	m = module_revive(first, last, path, base);
	if (m)
		return m;
	n = (size_t)(last - first);
	m = lp__arena_alloc(sizeof(*m));
	if (!m)
		return NULL;
	m->cells = lp__arena_alloc(n * sizeof(*m->cells));
	if (!m->cells)
		return NULL;
	m->first = first;
	m->last = last;
	m->base = base;
	m->path = lp__arena_strdup(path);
	*tail = m;
	return m;
}

LP_API void lp__module_add(const struct lp_site *first,
			   const struct lp_site *last, const void *anchor)
{
	int saved = errno;

	lp__lock();
	lp__init_locked();
	lp__module_get(first, last, anchor);
	lp__build_note(anchor ? anchor : (const void *)first);
	lp__unlock();
	lp__init_unlocked();
	errno = saved;
}

/* Adds a thread's counter into its cell and forgets it. */
void lp__slot_harvest(struct lp_slot *s)
{
	struct lp_counter *c = s->ctr;
	const struct lp_site *site = c->site;

	/* a run's count in a total: the dump reads every alias record */
	if (!site || site->abi == LP_SITE_ABI_ALIAS)
		lp__rt.runs_in_totals = 1;

	s->cell->total[C_CORRECT] += lp__counter_take(&c->correct);
	s->cell->total[C_INCORRECT] += lp__counter_take(&c->incorrect);
	s->cell->total[C_CONSTANT] += lp__counter_take(&c->constant);
}

static int cell_in_module(const struct lp_cell *c, const struct lp_module *m)
{
	return m && c >= m->cells && c < m->cells + (m->last - m->first);
}

/*
 * The string @s of record @i, copied; a string the record before holds
 * too (a unit's file, a function's name) is copied once, so that the
 * dump's writer sees one text at one address, as it did in the module.
 */
static const char *copy_str(const struct lp_site *copy,
			    const struct lp_site *from, size_t i,
			    const char *s)
{
	if (i && s == from[i - 1].file)
		return copy[i - 1].file;
	if (i && s == from[i - 1].func)
		return copy[i - 1].func;
	if (i && s == from[i - 1].unit)
		return copy[i - 1].unit;
	return lp__arena_strdup(s);
}

static void copy_site(struct lp_site *copy, const struct lp_site *from,
		      size_t i)
{
	copy[i] = from[i];
	copy[i].file = copy_str(copy, from, i, from[i].file);
	copy[i].func = copy_str(copy, from, i, from[i].func);
	copy[i].cond = lp__arena_strdup(from[i].cond);
	copy[i].unit = from[i].unit == from[i].file ? copy[i].file :
		       copy_str(copy, from, i, from[i].unit);
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
	const void *base = lp__module_base(anchor ? anchor
						  : (const void *)first);
	struct lp_thread *t;
	struct lp_dynsite *d;

	(void)last;
	lp__lock();
	/*
	 * The program is never unloaded: its destructors run at exit, and
	 * so does everything after them.  The runtime's atexit() handler
	 * says so too late where the runtime is a shared library: glibc
	 * registered its _dl_fini, which runs the destructors, after it.
	 */
	if ((uintptr_t)first >= lp__rt.program_lo &&
	    (uintptr_t)first < lp__rt.program_hi)
		__atomic_store_n(&lp__rt.exiting, 1, __ATOMIC_RELEASE);
	if (__atomic_load_n(&lp__rt.exiting, __ATOMIC_ACQUIRE))
		goto out;
	for (it = lp__rt.modules; it; it = it->next)
		if (!it->unloaded && first && it->first == first)
			m = it;
	for (t = lp__rt.threads; t; t = t->next) {
		size_t i, kept = 0;

		for (i = 0; i < t->n; i++) {
			struct lp_slot *s = &t->slots[i];
			int gone = cell_in_module(s->cell, m);

			for (d = lp__rt.dyn_all; !gone && d; d = d->all)
				gone = s->cell == &d->cell && d->base == base;
			if (gone) {
				lp__slot_harvest(s);
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
			lp__arena_alloc(n * sizeof(*copy));

		if (copy && !m->copy) {
			for (i = 0; i < n; i++)
				copy_site(copy, m->first, i);
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
	for (d = lp__rt.dyn_all; d; d = d->all)
		if (d->base == base) {
			d->base = NULL;
			lp__rt.dyn_orphans++;
		}
	lp__listed_forget(base);
	build_unmapped(anchor ? anchor : (const void *)first);
out:
	lp__unlock();
	errno = saved;
}

