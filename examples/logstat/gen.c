/*
 * gen.c - deterministic access-log lines, so runs are comparable
 */
#include <stdio.h>

#include "logstat.h"

static uint64_t next(uint64_t *s)
{
	/* xorshift64*: fast, and the same sequence on every machine */
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 2685821657736338717ull;
}

static const char *const paths[] = {
	"/", "/index.html", "/api/v1/items", "/api/v1/items/42",
	"/static/app.js", "/static/app.css", "/login", "/logout",
	"/api/v1/search", "/favicon.ico", "/robots.txt", "/api/v1/cart",
};

static const char *const methods[] = { "GET", "POST", "PUT", "DELETE" };

size_t gen_line(char *buf, size_t cap, uint64_t *seed)
{
	uint64_t r = next(seed);
	unsigned pick = (unsigned)(r % 100);
	/* 58% GET, 30% POST, 8% PUT, 4% DELETE */
	int m = pick < 58 ? 0 : pick < 88 ? 1 : pick < 96 ? 2 : 3;
	int status = (r >> 8) % 100 < 3 ? 500 : (r >> 8) % 100 < 20 ? 404 : 200;
	/* paths follow a skewed distribution: a few are hot */
	unsigned p = (unsigned)((r >> 16) % 100);
	size_t path = p < 50 ? 0 : p < 70 ? 2 : p < 80 ? 4 : (r >> 24) % 12;
	int n;

	n = snprintf(buf, cap,
		     "10.0.%u.%u - - \"%s %s HTTP/1.1\" %d %lu %u %s agent-%u\n",
		     (unsigned)(r >> 32) % 256, (unsigned)(r >> 40) % 256,
		     methods[m], paths[path], status,
		     (unsigned long)((r >> 20) % 50000),
		     (unsigned)((r >> 36) % 20000),
		     (r >> 44) % 1000 == 0 ? "close" : "keep-alive",
		     (unsigned)((r >> 48) % 5000));
	return n > 0 && (size_t)n < cap ? (size_t)n : 0;
}
