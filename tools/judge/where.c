/*
 * where.c - where an address of the binary is: which real file, which
 * line, which statement of a hint's if, which part of which function
 * (shared by decide.c and chain.c)
 */
#include <stdlib.h>
#include <string.h>

#include "judge/where.h"
#include "usage.h"

/*
 * Where @name is in the table, or the free slot where it goes: names are
 * interned, so the pointer is the key, its low bits (alignment) dropped.
 */
static size_t slot_of(const struct lp_real_cache *c, const char *name)
{
	size_t mask = c->nslot - 1, i = ((uintptr_t)name >> 3) * 2654435761u;

	for (i &= mask; c->slot[i]; i = (i + 1) & mask)
		if (c->name[c->slot[i] - 1] == name)
			break;
	return i;
}

/* Keeps the table at most half full, so a search ends soon. */
static void grow(struct lp_real_cache *c)
{
	size_t k;

	if (2 * (c->nr + 1) <= c->nslot)
		return;
	free(c->slot);
	c->nslot = c->nslot ? 2 * c->nslot : 64;
	c->slot = lp_xcalloc(c->nslot, sizeof(*c->slot));
	for (k = 0; k < c->nr; k++)
		c->slot[slot_of(c, c->name[k])] = k + 1;
}

const char *lp_real_of(struct lp_real_cache *c, const char *name)
{
	size_t i;

	if (c->nslot) {
		i = slot_of(c, name);
		if (c->slot[i])
			return c->real[c->slot[i] - 1];
	}
	grow(c);
	c->name = lp_xrealloc(c->name, (c->nr + 1) * sizeof(*c->name));
	c->real = lp_xrealloc(c->real, (c->nr + 1) * sizeof(*c->real));
	c->name[c->nr] = name;
	c->real[c->nr] = realpath(name, NULL);
	c->slot[slot_of(c, name)] = c->nr + 1;
	return c->real[c->nr++];
}

void lp_real_cache_release(struct lp_real_cache *c)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		free(c->real[i]);
	free(c->name);
	free(c->real);
	free(c->slot);
}

static const struct lp_insns *sort_in;

static int cmp_run(const void *pa, const void *pb)
{
	const struct lp_code_line *a = &sort_in->lines[*(const size_t *)pa];
	const struct lp_code_line *b = &sort_in->lines[*(const size_t *)pb];
	int c = a->obj == b->obj ? 0 : strcmp(a->obj, b->obj);

	return c ? c : (a->addr > b->addr) - (a->addr < b->addr);
}

void lp_runs_init(struct lp_runs *r, const struct lp_insns *in,
		  const char **line_real, struct lp_real_cache *cache)
{
	size_t k;

	r->in = in;
	r->line_real = line_real;
	r->cache = cache;
	r->hints = NULL;
	r->by_addr = lp_xcalloc(in->lines_nr + 1, sizeof(*r->by_addr));
	r->nr = 0;
	for (k = 0; k < in->lines_nr; k++)
		if (in->lines[k].addr)
			r->by_addr[r->nr++] = k;
	sort_in = in;
	if (r->nr > 1)
		qsort(r->by_addr, r->nr, sizeof(*r->by_addr), cmp_run);
}

/* Is @real:@line a line of the statement @hint's if guards? */
static int in_lines(const struct lp_hint *hint, const char *real, long line)
{
	return real && !strcmp(real, hint->real) &&
	       line >= hint->then_first && line <= hint->then_last;
}

long lp_run_at(const struct lp_runs *r, const char *obj, uint64_t addr)
{
	size_t lo = 0, hi = r->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct lp_code_line *m = &r->in->lines[r->by_addr[mid]];
		int cmp = m->obj == obj ? 0 : strcmp(m->obj, obj);

		if (cmp < 0 || (!cmp && m->addr <= addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo || strcmp(r->in->lines[r->by_addr[lo - 1]].obj, obj))
		return -1;
	return (long)r->by_addr[lo - 1];
}

int lp_in_then(const struct lp_runs *r, const struct lp_hint *hint,
	       const char *obj, uint64_t addr)
{
	long at = lp_run_at(r, obj, addr);
	const struct lp_code_line *c;
	size_t k;

	if (at < 0)
		return 0;
	c = &r->in->lines[at];
	if (in_lines(hint, r->line_real[at], c->line))
		return 1;
	/* code inlined there: where it was called from */
	for (k = 0; k < LP_INLINED_BY && c->by_file[k]; k++)
		if (in_lines(hint, lp_real_of(r->cache, c->by_file[k]),
			     c->by_line[k]))
			return 1;
	return 0;
}

int lp_same_function(const char *a, const char *b)
{
	size_t na = strcspn(a, "."), nb = strcspn(b, ".");

	if (!strcmp(a, b))
		return 1;
	if (na != nb || strncmp(a, b, na))
		return 0;
	return (!a[na] || !strncmp(a + na, ".cold", 5)) &&
	       (!b[nb] || !strncmp(b + nb, ".cold", 5));
}

long lp_code_at(const struct lp_insns *in, const char *obj,
		    uint64_t addr)
{
	size_t lo = 0, hi = in->code_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		const struct lp_code_insn *c = &in->code[mid];
		int cmp = c->obj == obj ? 0 : strcmp(c->obj, obj);

		if (cmp < 0 || (!cmp && c->addr < addr))
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == in->code_nr || in->code[lo].addr != addr ||
	    strcmp(in->code[lo].obj, obj))
		return -1;
	return (long)lo;
}

long lp_call_from(const struct lp_runs *r, const struct lp_hint *hint,
		  const char *obj, uint64_t addr, const char **callee)
{
	long at = lp_run_at(r, obj, addr), i;
	const struct lp_code_line *c;
	size_t k;

	if (at < 0 || !*hint->func)
		return 0;
	c = &r->in->lines[at];
	for (k = 0; k < LP_INLINED_BY && c->by_file[k]; k++) {
		const char *real = lp_real_of(r->cache, c->by_file[k]);

		if (!c->by_fn[k] ||
		    !lp_same_function(c->by_fn[k], hint->func) || !real ||
		    strcmp(real, hint->real))
			continue;
		if (callee) {
			i = k ? -1 : lp_code_at(r->in, obj, addr);
			*callee = k ? c->by_fn[k - 1] :
			      i >= 0 ? r->in->code[i].ifn : NULL;
		}
		return c->by_line[k];
	}
	return 0;
}

long lp_call_line(const struct lp_runs *r, const struct lp_hint *hint,
		  const char *obj, uint64_t addr)
{
	return lp_call_from(r, hint, obj, addr, NULL);
}

uint64_t lp_code_next(const struct lp_insns *in, long i)
{
	const struct lp_code_insn *c = &in->code[i];

	if (c->flow == LP_FLOW_END)
		return 0;
	if (c->flow == LP_FLOW_JMP)
		return c->target;
	if ((size_t)i + 1 < in->code_nr && !strcmp(in->code[i + 1].obj, c->obj))
		return in->code[i + 1].addr;
	return 0;
}
