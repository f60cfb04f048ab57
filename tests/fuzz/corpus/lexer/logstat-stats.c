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

