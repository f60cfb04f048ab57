/*
 * keymap.c - a hash index over records that live elsewhere
 */
#include <stdlib.h>
#include <string.h>

#include "keymap.h"
#include "likelyprof.h"

int lp_keymap_init(struct lp_keymap *m, size_t max)
{
	size_t size = 16;

	/* at most half full keeps probes short */
	while (size < max * 2) {
		if (size > SIZE_MAX / 4 / sizeof(*m->slots))
			return -LP_ENOMEM;
		size *= 2;
	}
	m->slots = calloc(size, sizeof(*m->slots));
	if (!m->slots)
		return -LP_ENOMEM;
	m->mask = size - 1;
	return 0;
}

void lp_keymap_release(struct lp_keymap *m)
{
	free(m->slots);
	m->slots = NULL;
	m->mask = 0;
}

struct lp_keymap_slot *lp_keymap_find(struct lp_keymap *m, uint64_t hash,
				      int (*eq)(const void *ctx, size_t id),
				      const void *ctx)
{
	size_t i = (size_t)hash & m->mask;

	for (;; i = (i + 1) & m->mask) {
		struct lp_keymap_slot *s = &m->slots[i];

		if (!s->id)
			return s;
		if (s->hash == hash && eq(ctx, s->id - 1))
			return s;
	}
}

/*
 * FNV-1a: simple, and good enough for keys that are mostly paths and
 * identifiers; the finishing mix spreads the low bits that pick a slot.
 */
uint64_t lp_hash_str(uint64_t h, const char *s)
{
	const unsigned char *p = (const unsigned char *)(s ? s : "");

	do {
		h ^= *p;
		h *= 0x100000001b3ULL;
	} while (*p++);
	return h;
}

uint64_t lp_hash_u64(uint64_t h, uint64_t v)
{
	h ^= v;
	h *= 0x100000001b3ULL;
	h ^= h >> 29;
	return h;
}

uint64_t lp_hash_finish(uint64_t h)
{
	h ^= h >> 33;
	h *= 0xff51afd7ed558ccdULL;
	h ^= h >> 33;
	h *= 0xc4ceb34fe53a893bULL;
	h ^= h >> 33;
	return h;
}
