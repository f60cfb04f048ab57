/*
 * htab.c - an open-addressing hash table with linear probing, counting
 * how often each token occurs
 *
 * Frequent words are found at the first probe, so the "found" hint is
 * mostly right; the "empty slot" hint is right for a table that has
 * seen the vocabulary once, and growing is rare.
 */
#include <stdlib.h>
#include <string.h>

#include "workload.h"

int wl_table_init(struct wl_table *t, size_t cap)
{
	t->slot = calloc(cap, sizeof(*t->slot));
	t->cap = cap;
	t->used = 0;
	return t->slot ? 0 : -1;
}

void wl_table_clear(struct wl_table *t)
{
	memset(t->slot, 0, t->cap * sizeof(*t->slot));
	t->used = 0;
}

void wl_table_release(struct wl_table *t)
{
	free(t->slot);
	t->slot = NULL;
	t->cap = t->used = 0;
}

static struct wl_entry *find_slot(struct wl_entry *slot, size_t mask,
				  const unsigned char *key, uint32_t len,
				  uint32_t hash)
{
	size_t i = hash & mask;

	for (;;) {
		struct wl_entry *e = &slot[i];

		if (likely(e->hash == hash && e->len == len &&
			   !memcmp(e->key, key, len)))
			return e;
		if (unlikely(!e->key))
			return e;
		i = (i + 1) & mask;
	}
}

static int grow(struct wl_table *t)
{
	size_t cap = t->cap * 2, i;
	struct wl_entry *slot = calloc(cap, sizeof(*slot));

	if (!slot)
		return -1;
	for (i = 0; i < t->cap; i++) {
		struct wl_entry *e = &t->slot[i];

		if (e->key)
			*find_slot(slot, cap - 1, e->key, e->len,
				   e->hash) = *e;
	}
	free(t->slot);
	t->slot = slot;
	t->cap = cap;
	return 0;
}

int wl_table_add(struct wl_table *t, const unsigned char *key, uint32_t len,
		 uint32_t hash)
{
	struct wl_entry *e;

	/* keep the load under 3/4 so probes stay short */
	if (unlikely((t->used + 1) * 4 > t->cap * 3) && grow(t) < 0)
		return -1;
	e = find_slot(t->slot, t->cap - 1, key, len, hash);
	if (likely(e->key != NULL)) {
		e->count++;
		return 0;
	}
	e->key = key;
	e->len = len;
	e->hash = hash;
	e->count = 1;
	t->used++;
	return 1;
}

/* Order-independent, so tables grown at different times digest alike. */
uint64_t wl_table_digest(const struct wl_table *t)
{
	uint64_t d = t->used;
	size_t i;

	for (i = 0; i < t->cap; i++) {
		const struct wl_entry *e = &t->slot[i];

		if (e->key)
			d += (e->hash | (uint64_t)e->len << 32) *
			     (e->count | 1);
	}
	return d;
}
