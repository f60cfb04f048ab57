/*
 * format.c - the one writer of the profile format's records
 *
 * Used by the runtime from exit and signal handlers, so everything here is
 * async-signal-safe: no stdio, no malloc, no locale.
 */
#include <stdint.h>
#include <string.h>

#include "format.h"
#include "likelyprof.h"
#include "simd.h"

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

static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"6869707172737475767778798081828384858687888990919293949596979899";

/*
 * Writes @v in decimal at @p; returns the end.  Two digits a step, from
 * the end, into place: a dump writes five numbers per site.
 */
static char *put_u64(char *p, uint64_t v)
{
	static const uint64_t tens[] = {
		10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL,
	};
	size_t digits = 1;
	char *end;

	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	while (digits < sizeof(tens) / sizeof(tens[0]) + 1 &&
	       v >= tens[digits - 1])
		digits++;
	end = p + digits;
	p = end;
	while (v >= 100) {
		unsigned r = (unsigned)(v % 100);

		v /= 100;
		p -= 2;
		p[0] = digit_pairs[2 * r];
		p[1] = digit_pairs[2 * r + 1];
	}
	if (v >= 10) {
		p[-2] = digit_pairs[2 * v];
		p[-1] = digit_pairs[2 * v + 1];
	} else {
		p[-1] = (char)('0' + v);
	}
	return end;
}

void lp_sink_u64(struct lp_sink *sink, uint64_t v)
{
	char digits[24];

	lp_sink_bytes(sink, digits, (size_t)(put_u64(digits, v) - digits));
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

static void sink_escaped_n(struct lp_sink *sink, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	const char *run = s, *end = s + n;

	for (; s < end; s++) {
		unsigned char c;
		char esc[4];
		size_t len = 2;

#ifdef __SSE2__
		/* most text needs no escape: skip it sixteen bytes at a time */
		while (end - s >= 16 && !lp_special16(s))
			s += 16;
		if (s == end)
			break;
#endif
		c = (unsigned char)*s;
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
			len = 4;
		}
		lp_sink_bytes(sink, esc, len);
	}
	lp_sink_bytes(sink, run, (size_t)(s - run));
}

void lp_sink_escaped(struct lp_sink *sink, const char *s)
{
	if (s)
		sink_escaped_n(sink, s, strlen(s));
}

/*
 * Where a hint is nested in another's condition (likely(a && unlikely(b))),
 * the outer condition's text holds the inner hint already expanded by the
 * header: hundreds of characters of __builtin_choose_expr.  Put back what
 * the programmer wrote, __builtin_expect(X, C) or
 * __builtin_expect_with_probability(X, C, P), recursively.
 */
static const char expansion_c[] =
	"__builtin_choose_expr(__builtin_types_compatible_p(";
static const char expansion_cxx[] = "(__builtin_is_constant_evaluated() ?";
static const char plain_call[] = "(__builtin_expect)(";
static const char plain_prob_call[] = "(__builtin_expect_with_probability)(";

/* Index just past the parenthesis that closes s[open]; 0 if none. */
static size_t skip_group(const char *s, size_t open, size_t n)
{
	size_t i, depth = 0;
	char quote = 0;

	for (i = open; i < n; i++) {
		char c = s[i];

		if (quote) {
			if (c == '\\' && i + 1 < n)
				i++;
			else if (c == quote)
				quote = 0;
			continue;
		}
		if (c == '"' || c == '\'')
			quote = c;
		else if (c == '(')
			depth++;
		else if (c == ')' && --depth == 0)
			return i + 1;
	}
	return 0;
}

static const char *find_in(const char *s, size_t n, const char *needle)
{
	size_t m = strlen(needle), i;

	for (i = 0; i + m <= n; i++)
		if (!memcmp(s + i, needle, m))
			return s + i;
	return NULL;
}

static void sink_escaped_n(struct lp_sink *sink, const char *s, size_t n);

/* The first of the two plain calls in [s, s+n), and its spelling. */
static const char *find_plain_call(const char *s, size_t n,
				   const char **spelling)
{
	const char *e = find_in(s, n, plain_call);
	const char *p = find_in(s, n, plain_prob_call);

	*spelling = p && (!e || p < e) ? plain_prob_call : plain_call;
	return p && (!e || p < e) ? p : e;
}

/*
 * The arguments after X, each ", (A)" in the expansion, as ", A", up to
 * @args_end (the call's ')'); with @sink NULL only checks the shape.
 * @return : 0 when the shape is not that.
 */
static int sink_more_args(struct lp_sink *sink, const char *s, size_t at,
			  size_t args_end)
{
	while (at + 1 < args_end) {
		size_t end;

		while (at < args_end && (s[at] == ',' || s[at] == ' '))
			at++;
		if (at >= args_end || s[at] != '(')
			return 0;
		end = skip_group(s, at, args_end);
		if (!end)
			return 0;
		if (sink) {
			lp_sink_str(sink, ", ");
			sink_escaped_n(sink, s + at + 1, end - at - 2);
		}
		at = end;
	}
	return 1;
}

static void sink_cond_n(struct lp_sink *sink, const char *s, size_t n,
			int depth)
{
	while (n) {
		const char *c = find_in(s, n, expansion_c);
		const char *x = find_in(s, n, expansion_cxx);
		const char *hit = c && (!x || c < x) ? c : x;
		const char *call, *spelling;
		size_t start, end, arg_x, arg_c, args_end;

		if (!hit || depth > 16)
			break;
		start = (size_t)(hit - s);
		/* the whole expansion: the group that starts at its '(' */
		end = skip_group(s, start + (hit == c ? strlen("__builtin_"
			"choose_expr") : 0), n);
		call = end ? find_plain_call(hit, end - start, &spelling)
			   : NULL;
		if (!call)
			break;
		arg_x = (size_t)(call - s) + strlen(spelling);
		args_end = skip_group(s, arg_x - 1, n);
		arg_c = arg_x < n && s[arg_x] == '(' ? skip_group(s, arg_x, n)
						     : 0;
		if (!args_end || !arg_c || arg_c + 2 > args_end ||
		    !sink_more_args(NULL, s, arg_c, args_end - 1))
			break;
		sink_escaped_n(sink, s, start);
		/* the name without the parentheses that keep it from us */
		sink_escaped_n(sink, spelling + 1, strlen(spelling) - 3);
		lp_sink_str(sink, "(");
		/* X and each argument after it are wrapped in one pair */
		sink_cond_n(sink, s + arg_x + 1, arg_c - arg_x - 2, depth + 1);
		sink_more_args(sink, s, arg_c, args_end - 1);
		lp_sink_str(sink, ")");
		s += end;
		n -= end;
	}
	sink_escaped_n(sink, s, n);
}

void lp_sink_cond(struct lp_sink *sink, const char *cond)
{
	if (cond)
		sink_cond_n(sink, cond, strlen(cond), 0);
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

/* The number of a stated probability @prob (1 + millionths) at @p. */
static char *put_prob_number(char *p, unsigned int prob)
{
	unsigned int millionths = prob - 1 > 1000000 ? 1000000 : prob - 1;
	unsigned int div;

	if (millionths == 1000000) {
		*p++ = '1';
		return p;
	}
	*p++ = '0';
	if (!millionths)
		return p;
	*p++ = '.';
	/* six places, the trailing zeros left out: 0.9, 0.05, 0.123456 */
	for (div = 100000; millionths; div /= 10) {
		*p++ = (char)('0' + millionths / div);
		millionths %= div;
	}
	return p;
}

char *lp_put_prob(char *p, unsigned int prob)
{
	if (!prob)
		return p;
	*p++ = '@';
	return put_prob_number(p, prob);
}

const char *lp_prob_text(char *buf, unsigned int prob)
{
	char *end = prob ? put_prob_number(buf, prob) : buf;

	*end = '\0';
	return buf;
}

/* A site record's first fields: up to its expect, and the TAB after. */
static void sink_site_counts(struct lp_sink *sink, uint64_t correct,
			     uint64_t incorrect, uint64_t constant,
			     long expect, unsigned int prob)
{
	char stated[LP_PROB_MAX];

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
	lp_sink_bytes(sink, stated,
		      (size_t)(lp_put_prob(stated, prob) - stated));
	sink_putc(sink, '\t');
}

/* One site record up to its cond, without the newline. */
static void sink_site_fields(struct lp_sink *sink, uint64_t correct,
			     uint64_t incorrect, uint64_t constant,
			     long expect, unsigned int prob, const char *file,
			     long line, const char *func, const char *unit,
			     const char *cond)
{
	sink_site_counts(sink, correct, incorrect, constant, expect, prob);
	lp_sink_escaped(sink, file);
	sink_putc(sink, '\t');
	lp_sink_long(sink, line);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, func);
	sink_putc(sink, '\t');
	lp_sink_escaped(sink, unit);
	sink_putc(sink, '\t');
	/* only the runtime's text holds the header's expansion */
	if (sink->unexpand)
		lp_sink_cond(sink, cond);
	else
		lp_sink_escaped(sink, cond);
}

/* --- the runtime's fast path ------------------------------------------ */

/*
 * Inlined where the writer calls it, but under AddressSanitizer: an
 * inlined body is instrumented as its caller is, attribute or not.
 */
#if defined(__SANITIZE_ADDRESS__)
#define LP_SCAN_INLINE_
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define LP_SCAN_INLINE_
#endif
#endif
#ifndef LP_SCAN_INLINE_
#define LP_SCAN_INLINE_ inline __attribute__((always_inline))
#endif

/*
 * @s copied to @out, never further than @end, when it goes into a record
 * as it is: no byte to escape and no "__", which may begin a hint the
 * header expanded (lp_sink_cond()).  The scan and the copy in one pass,
 * sixteen bytes a step while they stay in one page: past the end of @s
 * they read bytes of a page that is there and mask them off (which
 * AddressSanitizer cannot know), and they may write up to sixteen bytes
 * past the copy, within @end.  @return : the length, or LP_TEXT_NONE
 * when @s is not plain or does not fit.
 */
#ifdef __SSE2__
__attribute__((no_sanitize_address))
#endif
static LP_SCAN_INLINE_ size_t copy_plain(const char *s, char *out,
					 const char *end)
{
	size_t i = 0;
	int prev = 0;

#ifdef __SSE2__
	unsigned carry = 0;

	while (((uintptr_t)(s + i) & 4095) <= 4096 - 16 && end - out >= 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)
					    (s + i));
		unsigned nul = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(v, _mm_setzero_si128()));
		unsigned us = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(v, _mm_set1_epi8('_')));
		unsigned here = lp_special16_v(v) | (us & ((us << 1) | carry));

		_mm_storeu_si128((__m128i *)(void *)out, v);
		if (nul)
			return here & ((nul & -nul) - 1) ? LP_TEXT_NONE :
			       i + (size_t)__builtin_ctz(nul);
		if (here)
			return LP_TEXT_NONE;
		carry = us >> 15;
		i += 16;
		out += 16;
	}
	prev = (int)carry;
#endif
	for (; s[i]; i++, out++) {
		unsigned char c = (unsigned char)s[i];

		if (out == end || c < 0x20 || c == 0x7f || c == '\\' ||
		    (c == '_' && prev))
			return LP_TEXT_NONE;
		*out = (char)c;
		prev = c == '_';
	}
	return i;
}

static int no_room(struct lp_sink *sink)
{
	(void)sink;
	return -LP_EIO;
}

/* @t made to hold @s escaped; 0 if too long.  Once per run of sites. */
static __attribute__((noinline)) int text_fill(struct lp_text *t,
					       const char *s)
{
	struct lp_sink mem;
	/* most go as they are; one with "__" is escaped the general way */
	size_t n = copy_plain(s ? s : "", t->text, t->text + sizeof(t->text));

	t->key = s;
	if (n != LP_TEXT_NONE) {
		t->len = n;
		return 1;
	}
	memset(&mem, 0, sizeof(mem));
	mem.buf = t->text;
	mem.cap = sizeof(t->text);
	mem.flush = no_room;
	lp_sink_escaped(&mem, s);
	t->len = mem.error ? LP_TEXT_NONE : mem.len;
	return !mem.error;
}

/* @t holds @s escaped, made now if it held another; 0 if too long. */
static inline int text_get(struct lp_text *t, const char *s)
{
	if (t->key == s)
		return t->len != LP_TEXT_NONE;
	return text_fill(t, s);
}

/*
 * The three texts of a record made to hold @file, @func and @unit; 0 if
 * one is too long.  Apart, and once per run of sites: the writer's loop
 * then has no call to keep its registers around.
 */
static __attribute__((noinline)) int texts_fill(struct lp_texts *x,
						const char *file,
						const char *func,
						const char *unit)
{
	return text_get(&x->file, file) && text_get(&x->func, func) &&
	       text_get(&x->unit, unit);
}

/* Do the texts hold these three, each escaped (none LP_TEXT_NONE)? */
static inline int texts_hit(const struct lp_texts *x, const char *file,
			    const char *func, const char *unit)
{
	return x->file.key == file && x->func.key == func &&
	       x->unit.key == unit &&
	       (x->file.len | x->func.len | x->unit.len) != LP_TEXT_NONE;
}

/*
 * Copies of fixed sizes, which the compiler inlines: the room is there,
 * and most texts fit the first.
 */
static char *put_text(char *p, const struct lp_text *t)
{
	memcpy(p, t->text, 16);
	if (t->len > 16)
		memcpy(p + 16, t->text + 16, sizeof(t->text) - 16);
	return p + t->len;
}

/*
 * A count, most often one digit in a short process, or a line: no call
 * for up to three digits.
 */
static inline char *put_count(char *p, uint64_t v)
{
	if (v < 10) {
		*p = (char)('0' + v);
		return p + 1;
	}
	if (v < 100) {
		p[0] = digit_pairs[2 * v];
		p[1] = digit_pairs[2 * v + 1];
		return p + 2;
	}
	if (v < 1000) {
		p[0] = (char)('0' + v / 100);
		p[1] = digit_pairs[2 * (v % 100)];
		p[2] = digit_pairs[2 * (v % 100) + 1];
		return p + 3;
	}
	return put_u64(p, v);
}

static inline char *put_long(char *p, long v)
{
	if (v >= 0)
		return put_count(p, (uint64_t)v);
	*p++ = '-';
	return put_u64(p, (uint64_t)0 - (uint64_t)v);
}

/*
 * The three counts and the expected value, each one digit, and the TAB
 * after each: eight bytes in one store, as a short process's records
 * mostly are (counts of 0 or 1, expect 0 or 1, no stated probability).
 * @return : the end, or NULL when they are not all that.
 */
static inline char *put_small(char *p, uint64_t correct, uint64_t incorrect,
			      uint64_t constant, long expect, unsigned int prob)
{
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	uint64_t w;

	if ((correct | incorrect | constant | (uint64_t)expect) >= 10 || prob)
		return NULL;
	/* '0' + digit, then '\t', four times, the first byte lowest */
	w = 0x0930093009300930ull + correct + (incorrect << 16) +
	    (constant << 32) + ((uint64_t)expect << 48);
	memcpy(p, &w, 8);
	return p + 8;
#else
	(void)p, (void)correct, (void)incorrect, (void)constant;
	(void)expect, (void)prob;
	return NULL;
#endif
}

/* A record's room besides its texts: "site", six numbers, TABs, "\n". */
#define SITE_FIXED 160
/* The room a condition is first given; a longer one may take the rest. */
#define SITE_COND 256

/*
 * A site record written straight into the buffer, from the texts of
 * sink->texts and a cond that needs no escape and no unexpanding: what a
 * short process pays per site is mostly this.  0 when the record is not
 * of that kind (the caller writes it the general way), nothing kept:
 * what was written past sink->len is written over.
 */
static inline __attribute__((always_inline)) int site_fast(
		     struct lp_sink *sink, uint64_t correct,
		     uint64_t incorrect, uint64_t constant, long expect,
		     unsigned int prob, const char *file, long line,
		     const char *func, const char *unit, const char *cond)
{
	struct lp_texts *x = sink->texts;
	size_t n, need = SITE_FIXED + 3 * LP_TEXT_MAX + SITE_COND;
	char *p;

	if ((!texts_hit(x, file, func, unit) &&
	     !texts_fill(x, file, func, unit)) ||
	    need > sink->cap || sink->error)
		return 0;
	if (sink->cap - sink->len < need && sink->flush(sink) < 0) {
		sink->error = -LP_EIO;
		return 1;
	}
	p = sink->buf + sink->len;
	memcpy(p, "site\t", 5);
	p = put_small(p + 5, correct, incorrect, constant, expect, prob);
	if (!p) {
		p = put_count(sink->buf + sink->len + 5, correct);
		*p++ = '\t';
		p = put_count(p, incorrect);
		*p++ = '\t';
		p = put_count(p, constant);
		*p++ = '\t';
		if (expect == LP_EXPECT_UNKNOWN) {
			*p++ = '?';
		} else if (expect == LP_EXPECT_IF) {
			*p++ = 'i';
			*p++ = 'f';
		} else {
			p = put_long(p, expect);
		}
		if (prob)
			p = lp_put_prob(p, prob);
		*p++ = '\t';
	}
	p = put_text(p, &x->file);
	*p++ = '\t';
	p = put_long(p, line);
	*p++ = '\t';
	p = put_text(p, &x->func);
	*p++ = '\t';
	p = put_text(p, &x->unit);
	*p++ = '\t';
	/* the room for the newline kept */
	n = copy_plain(cond ? cond : "", p, sink->buf + sink->cap - 1);
	if (n == LP_TEXT_NONE)
		return 0;
	p[n] = '\n';
	sink->len = (size_t)(p + n + 1 - sink->buf);
	return 1;
}

static inline __attribute__((always_inline)) void record_one(
		struct lp_sink *sink, uint64_t correct, uint64_t incorrect,
		uint64_t constant, const struct lp_site *s, const char *func)
{
	unsigned int prob = LP_SITE_PROB_OF(s->abi);

	if (sink->texts && site_fast(sink, correct, incorrect, constant,
				     s->expect, prob, s->file, (long)s->line,
				     func, s->unit, s->cond))
		return;
	sink_site_fields(sink, correct, incorrect, constant, s->expect, prob,
			 s->file, (long)s->line, func, s->unit, s->cond);
	sink_putc(sink, '\n');
}

void lp_sink_record(struct lp_sink *sink, uint64_t correct,
		    uint64_t incorrect, uint64_t constant,
		    const struct lp_site *s, const char *func)
{
	record_one(sink, correct, incorrect, constant, s, func);
}

uint64_t lp_sink_records(struct lp_sink *sink, const struct lp_site *s,
			 size_t n, struct lp_cell *cells)
{
	uint64_t written = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		struct lp_cell *c = &cells[i];
		unsigned int abi = LP_SITE_ABI_OF(s[i].abi);
		uint64_t correct, incorrect, constant;

		/* the rows of a run's members are their own records' */
		if (s[i].abi == LP_SITE_ABI_ALIAS)
			continue;
		correct = c->total[0] + c->sum[0];
		incorrect = c->total[1] + c->sum[1];
		constant = c->total[2] + c->sum[2];
		memset(c->sum, 0, sizeof(c->sum));
		if (abi != LP_SITE_ABI && abi != LP_SITE_ABI_BOTH_)
			continue;
		/*
		 * A folded evaluation of a hint counts once, as constant;
		 * the kernel counts it as correct too, and so does the
		 * profile.  An "if" of all-branches mode counts a folded
		 * one by its value as well.
		 */
		if (abi == LP_SITE_ABI && s[i].expect != LP_EXPECT_IF)
			correct += constant;
		record_one(sink, correct, incorrect, constant, &s[i],
			   s[i].func);
		written++;
	}
	return written;
}

void lp_sink_site(struct lp_sink *sink, uint64_t correct, uint64_t incorrect,
		  uint64_t constant, long expect, unsigned int prob,
		  const char *file, long line, const char *func,
		  const char *unit, const char *cond)
{
	if (sink->texts && site_fast(sink, correct, incorrect, constant,
				     expect, prob, file, line, func, unit,
				     cond))
		return;
	sink_site_fields(sink, correct, incorrect, constant, expect, prob,
			 file, line, func, unit, cond);
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

/*
 * The pieces above for the tools' writer (lib/profile/write.c): wrappers,
 * so that inside this file the compiler still inlines them where it did.
 */
void lp_sink_putc(struct lp_sink *sink, char c)
{
	sink_putc(sink, c);
}

char *lp_put_u64(char *p, uint64_t v)
{
	return put_u64(p, v);
}

void lp_sink_site_counts(struct lp_sink *sink, uint64_t correct,
			 uint64_t incorrect, uint64_t constant, long expect,
			 unsigned int prob)
{
	sink_site_counts(sink, correct, incorrect, constant, expect, prob);
}

void lp_sink_site_fields(struct lp_sink *sink, uint64_t correct,
			 uint64_t incorrect, uint64_t constant, long expect,
			 unsigned int prob, const char *file, long line,
			 const char *func, const char *unit, const char *cond)
{
	sink_site_fields(sink, correct, incorrect, constant, expect, prob,
			 file, line, func, unit, cond);
}
