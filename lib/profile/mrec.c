/*
 * mrec.c - site records read in place, for a merge (mrec.h)
 *
 * The reader (records.c) splits a line into fields, decodes every text
 * field into the profile's pool and pushes a site: right for a profile
 * that is kept, most of a merge's work for one whose records are
 * compared, summed and written again.  lp_mrec_parse() accepts only
 * what the reader accepts, in the one spelling the writer uses (no
 * escape, no sign, no number of 20 digits); it says 0 for anything
 * else, and the reader reads that line.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "mrec.h"
#include "simd.h"

/* A record has at most 18 fields: 17 TABs, 16 after "site\t". */
#define MAX_TABS 16

/*
 * The digits at @s (@n of them) as the reader takes a number: 1 with
 * *@v, or 0.  Nineteen digits at most, which cannot overflow: a longer
 * number, and any spelling the reader refuses, goes to the reader.
 */
static inline int num(const char *s, size_t n, uint64_t *v)
{
	uint64_t x = 0;
	unsigned bad = 0;
	size_t i;

	if (!n || n > 19 || (s[0] == '0' && n > 1))
		return 0;
	for (i = 0; i < n; i++) {
		unsigned d = (unsigned)(unsigned char)s[i] - '0';

		bad |= d > 9;
		x = x * 10 + d;
	}
	*v = x;
	return !bad;
}

/*
 * expect: "?", "if" or a number that is no sentinel; a sign is rare, and
 * so is a stated probability after an '@'.
 */
static inline int expect_of(const char *s, size_t n, long *v,
			    unsigned int *prob)
{
	uint64_t x;

	if (lp_split_expect(s, &n, prob) < 0)
		return 0;

	if (n == 1 && s[0] == '?') {
		*v = LP_EXPECT_UNKNOWN;
		return 1;
	}
	if (n == 2 && s[0] == 'i' && s[1] == 'f') {
		*v = LP_EXPECT_IF;
		return 1;
	}
	if (!num(s, n, &x) || x > LONG_MAX)
		return 0;
	*v = (long)x;
	return 1;
}

/*
 * The TABs of @p..@end into @tabs (MAX_TABS at most); -1 when a byte is
 * a control byte or DEL, or when there are more TABs than a record has.
 * *@bsl is set when a backslash (an escape) was seen.  Sixteen bytes a
 * step where the memory goes on to @limit.
 */
static int scan_tabs(const char *p, const char *end, const char *limit,
		     const char **tabs, int *bsl)
{
	int nr = 0;

	*bsl = 0;
#ifdef __SSE2__
	for (; p < end && limit - p >= 16; p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned t, sp, b, keep = 0xffff;

		if (end - p < 16)
			keep = (1u << (end - p)) - 1;
		t = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(v, _mm_set1_epi8('\t'))) & keep;
		b = (unsigned)_mm_movemask_epi8(
			_mm_cmpeq_epi8(v, _mm_set1_epi8('\\'))) & keep;
		sp = (unsigned)lp_special16(p) & keep;
		if (sp & ~(t | b))
			return -1;
		*bsl |= b != 0;
		for (; t; t &= t - 1) {
			if (nr == MAX_TABS)
				return -1;
			tabs[nr++] = p + __builtin_ctz(t);
		}
	}
	if (p > end)
		p = end;
#else
	(void)limit;
#endif
	for (; p < end; p++) {
		unsigned char c = (unsigned char)*p;

		if (c == '\t') {
			if (nr == MAX_TABS)
				return -1;
			tabs[nr++] = p;
		} else if (c == '\\') {
			*bsl = 1;
		} else if (c < 0x20 || c == 0x7f) {
			return -1;
		}
	}
	return nr;
}

/*
 * Decodes @n bytes at @s into @d when every escape is the one the writer
 * makes of its byte, so that writing the decoded text gives @s again:
 * the record's bytes can then be copied.  The length, or -1 (the reader
 * decodes the others, or rejects them).
 */
static long decode_canonical(const char *s, size_t n, char *d)
{
	char *o = d;
	size_t i;

	for (i = 0; i < n; i++) {
		int hi, lo, c;

		if (s[i] != '\\') {
			*o++ = s[i];
			continue;
		}
		if (++i == n)
			return -1;
		switch (s[i]) {
		case '\\': *o++ = '\\'; continue;
		case 't': *o++ = '\t'; continue;
		case 'n': *o++ = '\n'; continue;
		case 'r': *o++ = '\r'; continue;
		case 'x':
			if (i + 2 >= n)
				return -1;
			hi = lp_hexval(s[i + 1]);
			lo = lp_hexval(s[i + 2]);
			if (hi < 0 || lo < 0)
				return -1;
			c = hi << 4 | lo;
			if (!c || (c >= 0x20 && c != 0x7f) ||
			    c == '\t' || c == '\n' || c == '\r')
				return -1;
			*o++ = (char)c;
			i += 2;
			continue;
		}
		return -1;
	}
	return o - d;
}

/* A text field with escapes, decoded into @pool: 1, or 0. */
static int decode_field(struct lp_profile *pool, char **s, uint32_t *n)
{
	char *d;
	long got;

	if (!memchr(*s, '\\', *n))
		return 1;
	d = lp_pool_reserve(pool, (size_t)*n + 1);
	if (!d || (got = decode_canonical(*s, *n, d)) < 0)
		return 0;
	d[got] = '\0';
	lp_pool_commit(pool, (size_t)got + 1);
	*s = d;
	*n = (uint32_t)got;
	return 1;
}

/* Field @i (1 and up) of a line whose field 1 starts at @f1. */
static inline const char *field(const char *f1, const char *const *tabs,
				int i)
{
	return i == 1 ? f1 : tabs[i - 2] + 1;
}

static inline size_t field_n(const char *f1, const char *const *tabs,
			     int nr, const char *end, int i)
{
	return (size_t)((i + 1 < nr ? tabs[i - 1] : end) -
			field(f1, tabs, i));
}

/* sure, votes, samples and ways, as read_site() (records.c) takes them. */
static int parse_tail(struct lp_prof_site *s, const char *f1,
		      const char *const *tabs, int nr, const char *end)
{
#define N(i) field_n(f1, tabs, nr, end, i)
#define U(i, v) num(field(f1, tabs, i), N(i), v)
	if (nr >= 11 && N(10) &&
	    lp_sure_parse(field(f1, tabs, 10), N(10), &s->sure) < 0)
		return 0;
	if (nr == 11 && !N(10))
		return 0;
	if (nr >= 13 && (nr == 13 || N(11) || N(12))) {
		if (!U(11, &s->votes_right) || !U(12, &s->votes_wrong))
			return 0;
		s->has_votes = 1;
	}
	if (nr >= 15 && (nr == 15 || N(13) || N(14))) {
		if (!U(13, &s->samp_right) || !U(14, &s->samp_wrong))
			return 0;
		s->has_samples = 1;
	}
	if (nr == 18) {
		if (!U(15, &s->procs_right) || !U(16, &s->procs_wrong) ||
		    !U(17, &s->procs_both))
			return 0;
		s->has_procs = 1;
	}
	return 1;
#undef N
#undef U
}

/* The text fields' places and lengths, and their decoding if need be. */
static int set_text(struct lp_mrec *m, const char *const *tabs, int nr,
		    const char *end, int bsl, struct lp_profile *pool)
{
	struct lp_prof_site *s = &m->s;

	s->file = (char *)tabs[3] + 1;
	m->file_n = (uint32_t)(tabs[4] - tabs[3] - 1);
	s->func = (char *)tabs[5] + 1;
	m->func_n = (uint32_t)(tabs[6] - tabs[5] - 1);
	s->unit = (char *)tabs[6] + 1;
	m->unit_n = (uint32_t)(tabs[7] - tabs[6] - 1);
	s->cond = (char *)tabs[7] + 1;
	m->cond_n = (uint32_t)((nr > 10 ? tabs[8] : end) - tabs[7] - 1);
	m->span = tabs[2] + 1;
	m->span_n = (size_t)(s->cond + m->cond_n - m->span);
	s->plain = LP_PLAIN_FILE | LP_PLAIN_FUNC | LP_PLAIN_UNIT |
		   LP_PLAIN_COND;
	if (!bsl)
		return 1;
	/* the span stays: its escapes are those the writer makes */
	s->plain = 0;
	return decode_field(pool, &s->file, &m->file_n) &&
	       decode_field(pool, &s->func, &m->func_n) &&
	       decode_field(pool, &s->unit, &m->unit_n) &&
	       decode_field(pool, &s->cond, &m->cond_n);
}

int lp_mrec_parse(struct lp_mrec *m, const char *line, size_t len,
		  const char *limit, struct lp_profile *pool)
{
	const char *f1 = line + 5, *end = line + len, *tabs[MAX_TABS];
	struct lp_prof_site *s = &m->s;
	uint64_t lineno;
	int nr, bsl;

	if (len < 5 || len > INT_MAX || memcmp(line, "site\t", 5))
		return 0;
	nr = scan_tabs(f1, end, limit, tabs, &bsl) + 2;
	/* the field counts of doc/FORMAT.md */
	if (nr != 10 && nr != 11 && nr != 13 && nr != 15 && nr != 18)
		return 0;
	/* field by field: memset()'s rep stos was a fifth of the parse */
	s->sure = LP_SURE_MEASURED;
	s->has_votes = s->has_samples = s->has_procs = 0;
	s->votes_right = s->votes_wrong = 0;
	s->samp_right = s->samp_wrong = 0;
	s->procs_right = s->procs_wrong = s->procs_both = 0;
	s->src_line = 0;
	m->vote = 0;
	m->way = 0;
	if (!num(f1, (size_t)(tabs[0] - f1), &s->correct) ||
	    !num(tabs[0] + 1, (size_t)(tabs[1] - tabs[0] - 1), &s->incorrect) ||
	    !num(tabs[1] + 1, (size_t)(tabs[2] - tabs[1] - 1), &s->constant) ||
	    !expect_of(tabs[2] + 1, (size_t)(tabs[3] - tabs[2] - 1),
		       &s->expect, &s->prob) ||
	    !num(tabs[4] + 1, (size_t)(tabs[5] - tabs[4] - 1), &lineno) ||
	    !lineno || lineno > INT_MAX)
		return 0;
	s->line = (long)lineno;
	if (nr > 10 && !parse_tail(s, f1, tabs, nr, end))
		return 0;
	return set_text(m, tabs, nr, end, bsl, pool);
}

void lp_mrec_of_site(struct lp_mrec *m, const struct lp_prof_site *s)
{
	memset(m, 0, sizeof(*m));
	m->s = *s;
	m->file_n = (uint32_t)strlen(s->file);
	m->func_n = (uint32_t)strlen(s->func);
	m->unit_n = (uint32_t)strlen(s->unit);
	m->cond_n = (uint32_t)strlen(s->cond);
}

/* strcmp()'s order on strings of known length without NUL */
static inline int bytes_cmp(const char *a, size_t an, const char *b,
			    size_t bn)
{
	int c = memcmp(a, b, an < bn ? an : bn);

	return c ? c : (an > bn) - (an < bn);
}

static inline int long_cmp(long a, long b)
{
	return (a > b) - (a < b);
}

int lp_mrec_cmp(const struct lp_mrec *a, const struct lp_mrec *b)
{
	int c;

	/* most records a merge compares are one key in several inputs */
	if (a->span && b->span && a->span_n == b->span_n &&
	    !memcmp(a->span, b->span, a->span_n))
		return 0;
	if ((c = bytes_cmp(a->s.file, a->file_n, b->s.file, b->file_n)) ||
	    (c = long_cmp(a->s.line, b->s.line)) ||
	    (c = bytes_cmp(a->s.func, a->func_n, b->s.func, b->func_n)) ||
	    (c = long_cmp(a->s.expect, b->s.expect)) ||
	    (c = bytes_cmp(a->s.unit, a->unit_n, b->s.unit, b->unit_n)))
		return c;
	return bytes_cmp(a->s.cond, a->cond_n, b->s.cond, b->cond_n);
}
