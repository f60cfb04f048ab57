/*
 * table.c - an open-addressing hash table of strings to integers
 *
 * A fixture for likelyprof fix: many annotations in the project's own
 * spellings, one inside a macro, "likely(" in comments and strings, an
 * #if 0 block, conditions over several lines.
 */
#include <stdlib.h>
#include <string.h>

#include "../include/hints.h"

struct entry {
	char *key;
	long value;
};

struct table {
	struct entry *slot;
	size_t used, cap;
	unsigned long lookups, misses;
};

static const char banner[] = "tables are likely(fast) and unlikely(slow)";
static const char quote = '(';

static unsigned long hash(const char *s)
{
	unsigned long h = 5381;

	while (LIKELY(*s))
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static int grow(struct table *t, size_t want)
{
	struct entry *old = t->slot;
	size_t oldcap = t->cap, i, cap = t->cap ? t->cap : 8;

	while (cap < 2 * want)
		cap *= 2;
	t->slot = calloc(cap, sizeof(*t->slot));
	if (UNLIKELY(!t->slot)) {
		t->slot = old;
		return -1;
	}
	t->cap = cap;
	t->used = 0;
	for (i = 0; i < oldcap; i++) {
		size_t k;

		if (!old[i].key)
			continue;
		k = hash(old[i].key) & (cap - 1);
		while (t->slot[k].key)
			k = (k + 1) & (cap - 1);
		t->slot[k] = old[i];
		t->used++;
	}
	free(old);
	return 0;
}

#if 0
/* The old probe, kept for reference: don't use it. */
static int probe_old(struct table *t, const char *key)
{
	if (likely(t->cap))
		return 0;
	return 1;
}
#endif

/* Returns the slot of key, or of the empty slot where it would go. */
static size_t probe(const struct table *t, const char *key)
{
	size_t k = hash(key) & (t->cap - 1);

	while (tbl_likely(t->slot[k].key) &&
	       strcmp(t->slot[k].key, key))
		k = (k + 1) & (t->cap - 1);
	return k;
}

int table_put(struct table *t, const char *key, long value)
{
	size_t k;

	CHECK_TABLE(t);
	if (GROW_IF(t, 1))
		return -1;
	k = probe(t, key);
	if (tbl_unlikely(t->slot[k].key != NULL)) {
		/* "likely(" in a comment is no annotation */
		t->slot[k].value = value;
		return 0;
	}
	t->slot[k].key = strdup(key);
	if (UNLIKELY(!t->slot[k].key))
		return -1;
	t->slot[k].value = value;
	t->used++;
	return 1;
}

int table_get(struct table *t, const char *key, long *value)
{
	size_t k;

	CHECK_TABLE(t);
	t->lookups++;
	if (UNLIKELY(!t->cap)) {
		t->misses++;
		return 0;
	}
	k = probe(t, key);
	if (LIKELY(t->slot[k].key != NULL)) {
		*value = t->slot[k].value;
		return 1;
	}
	t->misses++;
	return 0;
}

int table_add_all(struct table *t, const char *const *keys, size_t n)
{
	size_t i;

	CHECK_TABLE(t);
	if (GROW_IF(t, n))
		return -1;
	for (i = 0; i < n; i++)
		if (UNLIKELY(table_put(t, keys[i], (long)i) < 0))
			return -1;
	return 0;
}

long table_sum(const struct table *t)
{
	long sum = 0;
	size_t i;

	for (i = 0; LIKELY(i < t->cap); i++)
		if (t->slot[i].key)
			sum += t->slot[i].value;
	return sum;
}

int table_hit_rate(const struct table *t)
{
	if (UNLIKELY(t->lookups == 0))
		return 100;
	return (int)(100 - 100 * t->misses / t->lookups) +
	       !LIKELY(banner[0] != quote);
}

void table_free(struct table *t)
{
	size_t i;

	for (i = 0; i < t->cap; i++)
		free(t->slot[i].key);
	free(t->slot);
	t->slot = NULL;
	t->cap = t->used = 0;
}
