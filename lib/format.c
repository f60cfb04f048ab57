/*
 * format.c - the one writer of the profile format's records
 *
 * Used by the runtime from exit and signal handlers, so everything here is
 * async-signal-safe: no stdio, no malloc, no locale.
 */
#include <string.h>

#include "profile.h"

static void sink_putc(struct lp_sink *sink, char c)
{
	if (sink->len == sink->cap) {
		if (sink->error || sink->flush(sink) < 0) {
			if (!sink->error)
				sink->error = -LP_EIO;
			return;
		}
	}
	sink->buf[sink->len++] = c;
}

void lp_sink_bytes(struct lp_sink *sink, const char *s, size_t n)
{
	while (n) {
		size_t room;

		if (sink->error)
			return;
		if (sink->len == sink->cap && sink->flush(sink) < 0) {
			sink->error = -LP_EIO;
			return;
		}
		room = sink->cap - sink->len;
		if (room > n)
			room = n;
		memcpy(sink->buf + sink->len, s, room);
		sink->len += room;
		s += room;
		n -= room;
	}
}

void lp_sink_str(struct lp_sink *sink, const char *s)
{
	if (s)
		lp_sink_bytes(sink, s, strlen(s));
}

void lp_sink_u64(struct lp_sink *sink, uint64_t v)
{
	char digits[24];
	size_t i = sizeof(digits);

	do {
		digits[--i] = (char)('0' + v % 10);
		v /= 10;
	} while (v);
	lp_sink_bytes(sink, digits + i, sizeof(digits) - i);
}

void lp_sink_long(struct lp_sink *sink, long v)
{
	if (v < 0) {
		sink_putc(sink, '-');
		/* negate unsigned: LONG_MIN has no positive twin */
		lp_sink_u64(sink, (uint64_t)0 - (uint64_t)v);
	} else {
		lp_sink_u64(sink, (uint64_t)v);
	}
}

void lp_sink_escaped(struct lp_sink *sink, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s;

	if (!s)
		return;
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[4];
		size_t n = 2;

		if (c >= 0x20 && c != 0x7f && c != '\\')
			continue;
		lp_sink_bytes(sink, run, (size_t)(s - run));
		run = s + 1;
		esc[0] = '\\';
		switch (c) {
		case '\\': esc[1] = '\\'; break;
		case '\t': esc[1] = 't'; break;
		case '\n': esc[1] = 'n'; break;
		case '\r': esc[1] = 'r'; break;
		default:
			esc[1] = 'x';
			esc[2] = hex[c >> 4];
			esc[3] = hex[c & 15];
			n = 4;
		}
		lp_sink_bytes(sink, esc, n);
	}
	lp_sink_bytes(sink, run, (size_t)(s - run));
}

void lp_sink_header(struct lp_sink *sink)
{
	lp_sink_str(sink, "# likelyprof profile, see doc/FORMAT.md\n"
			  LP_PROFILE_MAGIC "\t");
	lp_sink_u64(sink, LP_PROFILE_VERSION);
	sink_putc(sink, '\n');
}

void lp_sink_meta(struct lp_sink *sink, const char *key, const char *value)
{
	lp_sink_str(sink, "meta\t");
	lp_sink_escaped(sink, key);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, value);
	sink_putc(sink, '\n');
}

void lp_sink_site(struct lp_sink *sink, uint64_t correct, uint64_t incorrect,
		  uint64_t constant, long expect, const char *file, long line,
		  const char *func, const char *unit, const char *cond)
{
	lp_sink_str(sink, "site\t");
	lp_sink_u64(sink, correct);
	sink_putc(sink, '\t');
	lp_sink_u64(sink, incorrect);
	sink_putc(sink, '\t');
	lp_sink_u64(sink, constant);
	sink_putc(sink, '\t');
	if (expect == LP_EXPECT_UNKNOWN)
		sink_putc(sink, '?');
	else if (expect == LP_EXPECT_IF)
		lp_sink_str(sink, "if");
	else
		lp_sink_long(sink, expect);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, file);
	sink_putc(sink, '\t');
	lp_sink_long(sink, line);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, func);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, unit);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, cond);
	sink_putc(sink, '\n');
}

void lp_sink_end(struct lp_sink *sink, uint64_t count)
{
	lp_sink_str(sink, "end\t");
	lp_sink_u64(sink, count);
	sink_putc(sink, '\n');
}

int lp_sink_finish(struct lp_sink *sink)
{
	if (!sink->error && sink->len && sink->flush(sink) < 0)
		sink->error = -LP_EIO;
	return sink->error;
}
