/*
 * http-loop.c - the http-parser workload of bench/libraries.sh: the
 * LIKELY/UNLIKELY hints of libhttp_parser.so's state machine, run on
 * pipelined requests as a server reads them.  Each of THREADS threads
 * makes 1,000 requests of its own (GET, POST with a body, chunked PUT,
 * a few to a dozen headers, a fixed pseudo-random sequence per thread),
 * then ROUNDS times parses them all with a new parser, fed in pieces of
 * 1 to 4 KiB as reads would give them.  Linked against the library under
 * test; prints a checksum of the callbacks' lengths and the messages
 * parsed, which every build must give.
 *
 *	http-loop THREADS ROUNDS
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <http_parser.h>

#include "threads.h"

#define REQUESTS 1000

static long rounds;

static int count_data(http_parser *p, const char *at, size_t len)
{
	*(unsigned long *)p->data += len + (unsigned char)at[0];
	return 0;
}

static int count_message(http_parser *p)
{
	*(unsigned long *)p->data += 1000 + p->method;
	return 0;
}

static const http_parser_settings settings = {
	.on_url = count_data,
	.on_header_field = count_data,
	.on_header_value = count_data,
	.on_body = count_data,
	.on_message_complete = count_message,
};

/* make_requests: REQUESTS requests in one buffer, its length in *len */
static char *make_requests(unsigned x, size_t *len)
{
	static const char *const hdr[] = { "Accept: */*",
		"User-Agent: likelyprof-bench/1.0 (X11; Linux x86_64)",
		"Accept-Encoding: gzip, deflate, br", "Connection: keep-alive",
		"Cookie: session=0123456789abcdef; theme=dark; lang=en",
		"Cache-Control: no-cache", "X-Request-Id: 5f2b9c1e-aa01" };
	size_t cap = REQUESTS * 1024, n = 0;
	char *b = malloc(cap);
	int i, h;

	if (!b)
		abort();
	for (i = 0; i < REQUESTS; i++) {
		int kind, body;

		x = x * 1103515245u + 12345u;
		kind = (x >> 16) % 4;
		body = (int)((x >> 8) % 200);
		n += (size_t)sprintf(b + n, "%s /api/v1/items/%u?q=%x&page=%d"
				     " HTTP/1.1\r\nHost: example.test\r\n",
				     kind == 0 ? "POST" : kind == 1 ? "PUT" :
				     "GET", x >> 12, x, i % 50);
		for (h = 0; h < 1 + (int)(x >> 28) % 7; h++)
			n += (size_t)sprintf(b + n, "%s\r\n", hdr[(h + i) % 7]);
		if (kind == 0) {
			n += (size_t)sprintf(b + n, "Content-Length: %d\r\n\r\n",
					     body);
			memset(b + n, 'a' + i % 26, (size_t)body);
			n += (size_t)body;
		} else if (kind == 1) {
			n += (size_t)sprintf(b + n, "Transfer-Encoding: "
					     "chunked\r\n\r\n%x\r\n", body + 1);
			memset(b + n, 'A' + i % 26, (size_t)body + 1);
			n += (size_t)body + 1;
			n += (size_t)sprintf(b + n, "\r\n0\r\n\r\n");
		} else {
			n += (size_t)sprintf(b + n, "\r\n");
		}
	}
	*len = n;
	return b;
}

/* Not inlined: callgrind --toggle-collect=work counts from here. */
__attribute__((noinline)) static void *work(void *arg)
{
	unsigned x = (unsigned)(size_t)arg * 2654435761u + 1;
	unsigned long sum = 0;
	size_t len, at, piece;
	char *b = make_requests(x, &len);
	http_parser p;
	long r;

	for (r = 0; r < rounds; r++) {
		http_parser_init(&p, HTTP_REQUEST);
		p.data = &sum;
		for (at = 0; at < len; at += piece) {
			x = x * 1103515245u + 12345u;
			piece = 1024 + (x >> 8) % 3072;
			if (piece > len - at)
				piece = len - at;
			if (http_parser_execute(&p, &settings, b + at, piece) !=
			    piece)
				abort();
		}
	}
	free(b);
	return (void *)sum;
}

int main(int argc, char **argv)
{
	rounds = argc > 2 ? atol(argv[2]) : 80;
	return run_threads(argc > 1 ? argv[1] : NULL, work);
}
