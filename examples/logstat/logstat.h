/*
 * logstat - a small access-log analyser, written to show likelyprof at work
 *
 * Worker threads parse generated access-log lines, intern their paths in a
 * per-thread cache, count them in a hash table and keep latency buckets.
 * Its annotations are the kind real code has: some right, some that were
 * right once, one backwards.
 */
#ifndef LOGSTAT_H
#define LOGSTAT_H

#include <stddef.h>
#include <stdint.h>

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

enum method { M_GET, M_POST, M_PUT, M_DELETE, M_OTHER };

struct request {
	enum method method;
	const char *path;       /* interned */
	size_t path_len;
	int status;
	unsigned long bytes;
	unsigned latency_us;
	int keepalive;
};

/* A tiny direct-mapped cache from a string's hash to its interned copy. */
#define CACHE_SLOTS 64
struct cache {
	uint64_t hash[CACHE_SLOTS];
	const char *value[CACHE_SLOTS];
	unsigned long hits, misses;
};

static inline uint64_t hash_bytes(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ull;

	while (n--)
		h = (h ^ (unsigned char)*s++) * 1099511628211ull;
	return h;
}

/*
 * Used by the parser (paths repeat: hits are common) and by the stats
 * (user agents mostly differ: misses are common), so its one annotation is
 * right in one copy and wrong in the other.
 */
static inline const char *cache_lookup(struct cache *c, uint64_t h)
{
	struct {
		int slot;
	} k = { (int)(h % CACHE_SLOTS) };

	if (likely(c->hash[k.slot] == h)) {
		c->hits++;
		return c->value[k.slot];
	}
	c->misses++;
	return NULL;
}

static inline void cache_store(struct cache *c, uint64_t h, const char *v)
{
	c->hash[h % CACHE_SLOTS] = h;
	c->value[h % CACHE_SLOTS] = v;
}

struct stats;

/* gen.c */
size_t gen_line(char *buf, size_t cap, uint64_t *seed);

/* parse.c */
int parse_line(const char *line, struct request *req, struct cache *paths);

/* stats.c */
struct stats *stats_new(size_t slots);
void stats_free(struct stats *st);
void stats_add(struct stats *st, const struct request *req,
	       struct cache *agents, const char *agent);
void stats_merge(struct stats *into, const struct stats *from);
void stats_print(const struct stats *st);
int stats_load(struct stats *st, const char *path);

#endif
