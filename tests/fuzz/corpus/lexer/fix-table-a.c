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
