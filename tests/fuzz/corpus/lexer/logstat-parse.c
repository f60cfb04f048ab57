/*
 * parse.c - one log line into a struct request
 */
#include <stdlib.h>
#include <string.h>

#include "logstat.h"

static enum method parse_method(const char *s, size_t n)
{
	/* "most requests are GETs" -- true, but not by as much as assumed */
	if (likely(n == 3 && !memcmp(s, "GET", 3)))
		return M_GET;
	if (n == 4 && !memcmp(s, "POST", 4))
		return M_POST;
	if (n == 3 && !memcmp(s, "PUT", 3))
		return M_PUT;
	if (n == 6 && !memcmp(s, "DELETE", 6))
		return M_DELETE;
	return M_OTHER;
}

static const char *intern(struct cache *paths, const char *s, size_t n)
{
	uint64_t h = hash_bytes(s, n);
	const char *v = cache_lookup(paths, h);
	char *copy;

	if (v)
		return v;
	copy = malloc(n + 1);
	if (unlikely(!copy))
		abort();
	memcpy(copy, s, n);
	copy[n] = '\0';
	/* the previous occupant is leaked on purpose: the demo is short */
	cache_store(paths, h, copy);
	return copy;
}

int parse_line(const char *line, struct request *req, struct cache *paths)
{
	const char *p = strchr(line, '"'), *sp, *end;
	char *num;

	if (unlikely(!p))
		return -1;
	sp = strchr(++p, ' ');
	if (unlikely(!sp))
		return -1;
	req->method = parse_method(p, (size_t)(sp - p));
	p = sp + 1;
	end = strchr(p, ' ');
	if (unlikely(!end))
		return -1;
	req->path = intern(paths, p, (size_t)(end - p));
	req->path_len = (size_t)(end - p);
	p = strchr(end, '"');
	if (unlikely(!p))
		return -1;
	req->status = (int)strtol(p + 1, &num, 10);
	req->bytes = strtoul(num, &num, 10);
	req->latency_us = (unsigned)strtoul(num, &num, 10);
	/* backwards: almost every client keeps the connection open */
	if (likely(!strncmp(num, " close", 6)))
		req->keepalive = 0;
	else
		req->keepalive = 1;
	return 0;
}
