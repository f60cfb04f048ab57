/*
 * keymap.h - a hash index over records that live elsewhere
 *
 * Merge and fold both need "have I seen this key before, and as which
 * entry?" for up to millions of keys.  The map stores only a hash and an
 * entry number per slot; the caller owns the entries and says how to
 * compare one with the key it is looking for.  The table is sized once for
 * the most entries it will hold, so it never rehashes and a lookup is a
 * short linear probe.
 */
#ifndef LP_KEYMAP_H
#define LP_KEYMAP_H

#include <stddef.h>
#include <stdint.h>

struct lp_keymap_slot {
	uint64_t hash;
	size_t id;              /* entry number + 1; 0 marks an empty slot */
};

struct lp_keymap {
	struct lp_keymap_slot *slots;
	size_t mask;
};

#define LP_KEYMAP_INIT { NULL, 0 }

/*! lp_keymap_init() :
 *  Makes an empty map with room for @max entries.
 *  @return : 0 or -LP_ENOMEM.
 */
int lp_keymap_init(struct lp_keymap *m, size_t max);
void lp_keymap_release(struct lp_keymap *m);

/*! lp_keymap_find() :
 *  Looks for an entry with @hash for which @eq(@ctx, id) is true.
 *  @return : the slot: slot->id is the entry number + 1, or 0 when there is
 *            none, and the caller may then claim the slot by setting
 *            slot->hash and slot->id (never more than @max times).
 */
struct lp_keymap_slot *lp_keymap_find(struct lp_keymap *m, uint64_t hash,
				      int (*eq)(const void *ctx, size_t id),
				      const void *ctx);

/*
 * Hashing a record's key piece by piece: start from LP_HASH_SEED, feed
 * each field, and finish.  Strings are fed with their terminating NUL, so
 * ("ab", "c") and ("a", "bc") hash apart.
 */
#define LP_HASH_SEED 0xcbf29ce484222325ULL
uint64_t lp_hash_str(uint64_t h, const char *s);
uint64_t lp_hash_u64(uint64_t h, uint64_t v);
uint64_t lp_hash_finish(uint64_t h);

#endif /* LP_KEYMAP_H */
