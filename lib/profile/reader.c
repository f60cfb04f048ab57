/*
 * reader.c - lines and numbers of a text profile, and the one diagnostic
 * a reading gives ("FILE:LINE: reason")
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigmem.h"
#include "internal.h"
#include "keymap.h"
#include "profile.h"
#include "simd.h"

/*-************************************
 *  Reading lines and numbers
 **************************************/
void lp_reader_init(struct lp_reader *r, const char *name, const char *buf,
		    size_t len, struct lp_diag *diag)
{
	memset(r, 0, sizeof(*r));
	r->name = name;
	r->buf = r->next = buf;
	r->end = buf + len;
	r->diag = diag;
}

int lp_reader_next(struct lp_reader *r)
{
	const char *nl;

	if (r->next >= r->end)
		return 0;
	r->line = r->next;
	nl = memchr(r->line, '\n', (size_t)(r->end - r->line));
	r->has_newline = nl != NULL;
	if (!nl)
		nl = r->end;
	r->len = (size_t)(nl - r->line);
	r->next = nl + r->has_newline;
	r->lineno++;
	return 1;
}

int lp_reader_fail(struct lp_reader *r, int code, const char *fmt, ...)
{
	char *msg = r->diag->msg;
	size_t size = sizeof(r->diag->msg);
	int n;
	va_list ap;

	if (r->lineno)
		n = snprintf(msg, size, "%s:%zu: ", r->name, r->lineno);
	else
		n = snprintf(msg, size, "%s: ", r->name);
	if (n >= 0 && (size_t)n < size) {
		va_start(ap, fmt);
		vsnprintf(msg + n, size - (size_t)n, fmt, ap);
		va_end(ap);
	}
	return code;
}

void lp_reader_excerpt(char *out, size_t size, const char *s, size_t n)
{
	size_t i, max = size - 4 < 40 ? size - 4 : 40;

	for (i = 0; i < n && i < max; i++) {
		unsigned char c = (unsigned char)s[i];

		out[i] = c >= 0x20 && c < 0x7f ? (char)c : '?';
	}
	if (i < n)
		memcpy(out + i, "...", 3), i += 3;
	out[i] = '\0';
}

int lp_parse_u64(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	size_t i;

	if (!n || n > 20 || (s[0] == '0' && n > 1))
		return -1;
	/* 19 digits cannot overflow; only a 20th can */
	for (i = 0; i < n && i < 19; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';

		if (d > 9)
			return -1;
		x = x * 10 + d;
	}
	if (n == 20) {
		unsigned d = (unsigned)(unsigned char)s[19] - '0';

		if (d > 9 || __builtin_mul_overflow(x, 10, &x) ||
		    __builtin_add_overflow(x, d, &x))
			return -1;
	}
	*v = x;
	return 0;
}

int lp_parse_lineno(const char *s, size_t n, long *v)
{
	uint64_t x;

	if (lp_parse_u64(s, n, &x) < 0 || !x || x > INT_MAX)
		return -1;
	*v = (long)x;
	return 0;
}

int lp_split_expect(const char *s, size_t *n, unsigned int *prob)
{
	/* the one byte of "1", "0" or "?" is no call to memchr() */
	const char *at = *n > 1 ? memchr(s, '@', *n) : NULL;
	size_t k;

	*prob = 0;
	if (!at)
		return 0;
	k = (size_t)(at - s);
	if (lp_parse_prob(at + 1, *n - k - 1, prob) < 0 ||
	    (k == 2 && !memcmp(s, "if", 2)))
		return -1;
	*n = k;
	return 0;
}

int lp_parse_prob(const char *s, size_t n, unsigned int *prob)
{
	unsigned int millionths = 0, scale = 100000;
	size_t i;

	if (n == 1 && (s[0] == '0' || s[0] == '1')) {
		*prob = 1u + (s[0] == '1' ? 1000000u : 0u);
		return 0;
	}
	/* one spelling per number: "0." and 1 to 6 places, no last 0 */
	if (n < 3 || n > 8 || s[0] != '0' || s[1] != '.' || s[n - 1] == '0')
		return -1;
	for (i = 2; i < n; i++, scale /= 10) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		millionths += (unsigned int)(s[i] - '0') * scale;
	}
	*prob = 1u + millionths;
	return 0;
}

