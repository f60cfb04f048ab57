/*
 * stats.c - per-path counters in an open-addressing hash table
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "logstat.h"

struct slot {
	const char *path;       /* NULL: empty */
	unsigned long count, bytes, errors;
	unsigned long latency[8];       /* log2 buckets of 256us */
};

struct stats {
	struct slot *slots;
	size_t nslots, used;
	unsigned long requests, methods[M_OTHER + 1], closes, agents_seen;
};

struct stats *stats_new(size_t slots)
{
	struct stats *st = calloc(1, sizeof(*st));

	if (unlikely(!st))
		abort();
	st->slots = calloc(slots, sizeof(*st->slots));
	if (unlikely(!st->slots))
		abort();
	st->nslots = slots;
	return st;
}

void stats_free(struct stats *st)
{
	free(st->slots);
	free(st);
}

static struct slot *find(struct stats *st, const char *path)
{
	size_t i = (size_t)(hash_bytes(path, strlen(path)) % st->nslots);

	for (;;) {
		struct slot *s = &st->slots[i];

		/*
		 * Written when the table was filled once and read rarely;
		 * now the same few paths come back all the time.
		 */
		if (unlikely(s->path == NULL || s->path == path ||
			     !strcmp(s->path, path))) {
			if (!s->path) {
				s->path = path;
				st->used++;
			}
			return s;
		}
		i = (i + 1) % st->nslots;
	}
}

void stats_add(struct stats *st, const struct request *req,
	       struct cache *agents, const char *agent)
{
	struct slot *s = find(st, req->path);
	unsigned b = 0, lat = req->latency_us >> 8;

	st->requests++;
	st->methods[req->method]++;
	s->count++;
	s->bytes += req->bytes;
	if (unlikely(req->status >= 500))
		s->errors++;
	while (lat && b < 7) {
		lat >>= 1;
		b++;
	}
	s->latency[b]++;
	if (!req->keepalive)
		st->closes++;
	/* agents rarely repeat, so this copy of the cache mostly misses */
	if (!cache_lookup(agents, hash_bytes(agent, strlen(agent)))) {
		cache_store(agents, hash_bytes(agent, strlen(agent)), "");
		st->agents_seen++;
	}
}

void stats_merge(struct stats *into, const struct stats *from)
{
	size_t i, m, b;

	into->requests += from->requests;
	into->closes += from->closes;
	into->agents_seen += from->agents_seen;
	for (m = 0; m <= M_OTHER; m++)
		into->methods[m] += from->methods[m];
	for (i = 0; i < from->nslots; i++) {
		const struct slot *f = &from->slots[i];
		struct slot *s;

		if (!f->path)
			continue;
		s = find(into, f->path);
		s->count += f->count;
		s->bytes += f->bytes;
		s->errors += f->errors;
		for (b = 0; b < 8; b++)
			s->latency[b] += f->latency[b];
	}
}

static int by_count(const void *a, const void *b)
{
	const struct slot *x = a, *y = b;

	if (x->count != y->count)
		return x->count < y->count ? 1 : -1;
	return strcmp(x->path ? x->path : "", y->path ? y->path : "");
}

void stats_print(const struct stats *st)
{
	struct slot *sorted = malloc(st->nslots * sizeof(*sorted));
	size_t i;

	if (unlikely(!sorted))
		abort();
	memcpy(sorted, st->slots, st->nslots * sizeof(*sorted));
	qsort(sorted, st->nslots, sizeof(*sorted), by_count);
	printf("%lu requests, %lu GET, %lu POST, %lu closed, %lu agents\n",
	       st->requests, st->methods[M_GET], st->methods[M_POST],
	       st->closes, st->agents_seen);
	for (i = 0; i < 5 && sorted[i].path; i++)
		printf("  %-20s %8lu requests %6lu errors\n", sorted[i].path,
		       sorted[i].count, sorted[i].errors);
	free(sorted);
}

/* Reading a real log file: not used by the demo, so never run. */
int stats_load(struct stats *st, const char *path)
{
	FILE *f = fopen(path, "r");
	char line[1024];
	struct cache paths, agents;
	struct request req;

	if (unlikely(!f))
		return -1;
	memset(&paths, 0, sizeof(paths));
	memset(&agents, 0, sizeof(agents));
	while (fgets(line, sizeof(line), f))
		if (likely(parse_line(line, &req, &paths) == 0))
			stats_add(st, &req, &agents, "file");
	fclose(f);
	return 0;
}
