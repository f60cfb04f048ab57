/*
 * records.c - the records of the likelyprof format (doc/FORMAT.md)
 *
 * The reader is strict on purpose: a profile is written by likelyprof, so
 * anything unexpected in it is damage (a truncated copy, a binary file
 * passed by mistake, a newer format), and it is better to stop with the
 * line that shows it than to report numbers that are quietly wrong.
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
 *  The likelyprof format
 **************************************/
#define MAX_FIELDS 18

struct field {
	const char *s;
	size_t n;
};

/* Notes the field from @start to @tab; past MAX_FIELDS only counts it. */
static inline void add_field(struct field *f, size_t *nr, const char *start,
			     const char *tab)
{
	if (*nr < MAX_FIELDS) {
		f[*nr].s = start;
		f[*nr].n = (size_t)(tab - start);
	}
	(*nr)++;
}

/*
 * Splits the current line at TABs; returns the number of fields.  A
 * record is mostly short fields, and a loop per field mispredicts at
 * every TAB: sixteen bytes at a time, the TABs are the set bits of one
 * compare's mask, so the loop runs per TAB with no branch to guess.
 */
static size_t split_fields(const struct lp_reader *r, struct field *f)
{
	const char *p = r->line, *end = r->line + r->len, *start = p;
	size_t nr = 0;

#ifdef __SSE2__
	const __m128i tab = _mm_set1_epi8('\t');

	/* the last bytes too, where the buffer goes on past the line */
	for (; p < end && (end - p >= 16 || r->end - p >= 16); p += 16) {
		__m128i v = _mm_loadu_si128((const __m128i *)(const void *)p);
		unsigned m;

		m = (unsigned)_mm_movemask_epi8(_mm_cmpeq_epi8(v, tab));
		if (end - p < 16)
			m &= (1u << (end - p)) - 1;
		for (; m; m &= m - 1) {
			const char *t = p + __builtin_ctz(m);

			add_field(f, &nr, start, t);
			start = t + 1;
		}
	}
	if (p > end)
		p = end;
#endif
	for (; p < end; p++) {
		if (*p == '\t') {
			add_field(f, &nr, start, p);
			start = p + 1;
		}
	}
	add_field(f, &nr, start, end);
	return nr;
}

static int fail_excerpt(struct lp_reader *r, const char *what,
			const struct field *f)
{
	char ex[48];

	lp_reader_excerpt(ex, sizeof(ex), f->s, f->n);
	return lp_reader_fail(r, -LP_EPARSE, "bad %s '%s'", what, ex);
}

/*
 * Decodes one text field into @d (room for f->n + 1 bytes).  Only the
 * writer's escapes are accepted, and no raw control byte: either would
 * mean the file was not written by likelyprof, or was damaged after.
 */
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define LP_ONES 0x0101010101010101ULL
#define LP_HIGH 0x8080808080808080ULL

/* Non-zero when one of the 8 bytes of @w is a zero byte. */
static inline uint64_t has_zero(uint64_t w)
{
	return (w - LP_ONES) & ~w & LP_HIGH;
}

/*
 * Non-zero when one of the 8 bytes needs the slow path: a control
 * character, DEL, or a backslash.  Bytes of 0x80 and above (UTF-8) do not.
 */
static inline uint64_t has_special(uint64_t w)
{
	return ((w - 0x20 * LP_ONES) & ~w & LP_HIGH) |
	       has_zero(w ^ (0x7f * LP_ONES)) | has_zero(w ^ (0x5c * LP_ONES));
}
#endif

/*
 * True when @n bytes at @s have no escape and no byte that needs one.
 * Fields are mostly shorter than sixteen bytes: their tail is one load
 * too, with the bytes past it masked off, where the buffer (which ends
 * at @limit) goes on far enough.
 */
static int is_plain(const char *s, size_t n, const char *limit)
{
	size_t i = 0;

#ifdef __SSE2__
	for (; i + 16 <= n; i += 16)
		if (lp_special16(s + i))
			return 0;
	if (i < n && limit - (s + i) >= 16)
		return !(lp_special16(s + i) & ((1u << (n - i)) - 1));
#else
	(void)limit;
#endif
	for (; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f || c == '\\')
			return 0;
	}
	return 1;
}

static int decode_into(struct lp_reader *r, const char *what,
		       const struct field *f, char *d)
{
	char *o = d;
	size_t i;

	/* most text is plain: a copy; anything else, byte by byte */
	if (is_plain(f->s, f->n, r->end)) {
		memcpy(d, f->s, f->n);
		d[f->n] = '\0';
		return (int)f->n;
	}

	for (i = 0; i < f->n; i++) {
		unsigned char c;
		int hi, lo;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		/* most text has no escape: copy it eight bytes at a time */
		while (i + 8 <= f->n) {
			uint64_t w;

			memcpy(&w, f->s + i, 8);
			if (has_special(w))
				break;
			memcpy(o, &w, 8);
			o += 8;
			i += 8;
		}
		if (i == f->n)
			break;
#endif
		c = (unsigned char)f->s[i];

		if (c != '\\') {
			if (c < 0x20 || c == 0x7f)
				return lp_reader_fail(r, -LP_EPARSE,
					"raw control character 0x%02x in %s",
					c, what);
			*o++ = (char)c;
			continue;
		}
		c = i + 1 < f->n ? (unsigned char)f->s[++i] : 0;
		switch (c) {
		case '\\': *o++ = '\\'; continue;
		case 't': *o++ = '\t'; continue;
		case 'n': *o++ = '\n'; continue;
		case 'r': *o++ = '\r'; continue;
		case 'x':
			if (i + 2 < f->n) {
				hi = lp_hexval(f->s[i + 1]);
				lo = lp_hexval(f->s[i + 2]);
				if (hi >= 0 && lo >= 0 && (hi || lo)) {
					*o++ = (char)(hi << 4 | lo);
					i += 2;
					continue;
				}
			}
			break;
		}
		{
			char ex[48];
			size_t start = i - (c != 0);
			size_t n = f->n - start < 4 ? f->n - start : 4;

			/* "\x1" is a bad escape; so is a lone final '\' */
			if (c != 'x')
				n = c ? 2 : 1;
			lp_reader_excerpt(ex, sizeof(ex), f->s + start, n);
			return lp_reader_fail(r, -LP_EPARSE,
				"bad escape '%s' in %s", ex, what);
		}
	}
	*o = '\0';
	return (int)(o - d);
}

/*
 * Decodes a site's text field into @out's pool, as a new string.
 * @return : its length (shorter than the field when it had escapes), or
 *           a negative -LP_E*.
 */
static int decode_text(struct lp_reader *r, struct lp_profile *out,
		       const char *what, const struct field *f, char **res)
{
	char *d;
	int n;

	if (f->n > INT_MAX - 1)
		return lp_reader_fail(r, -LP_EPARSE, "%s too long", what);
	d = lp_pool_reserve(out, f->n + 1);
	if (!d)
		return lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	n = decode_into(r, what, f, d);
	if (n < 0)
		return n;
	lp_pool_commit(out, (size_t)n + 1);
	*res = d;
	return n;
}

static int same_field(const struct field *a, const struct field *b)
{
	return a->n == b->n && !memcmp(a->s, b->s, a->n);
}

/* Decodes a meta field into a malloc'd string. */
static int decode_meta(struct lp_reader *r, const char *what,
		       const struct field *f, char **res)
{
	char *d = malloc(f->n + 1);
	int n;

	if (!d)
		return lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	n = f->n > INT_MAX - 1 ? -1 : decode_into(r, what, f, d);
	if (n < 0) {
		free(d);
		return n;
	}
	*res = d;
	return 0;
}

/* "?", "if", or a signed decimal that is none of the two sentinels. */
static int parse_expect_value(const struct field *f, long *v)
{
	uint64_t x;
	int neg;

	if (f->n == 1 && f->s[0] == '?') {
		*v = LP_EXPECT_UNKNOWN;
		return 0;
	}
	if (f->n == 2 && !memcmp(f->s, "if", 2)) {
		*v = LP_EXPECT_IF;
		return 0;
	}
	neg = f->n && f->s[0] == '-';
	if (lp_parse_u64(f->s + neg, f->n - neg, &x) < 0)
		return -1;
	if (neg) {
		if (!x || x > (uint64_t)LONG_MAX + 1)
			return -1;
		*v = (long)(0 - x);
	} else {
		if (x > LONG_MAX)
			return -1;
		*v = (long)x;
	}
	return *v == LP_EXPECT_UNKNOWN || *v == LP_EXPECT_IF ? -1 : 0;
}

/*
 * "?", "if", or a signed decimal that is none of the two sentinels; a
 * stated probability after an '@' (never after "if").
 */
static int parse_expect(const struct field *f, long *v, unsigned int *prob)
{
	struct field e = *f;

	if (lp_split_expect(e.s, &e.n, prob) < 0)
		return -1;
	return parse_expect_value(&e, v);
}

/*
 * Neighbouring records mostly share their file, function and unit (the
 * writer sorts by file), so a field spelled as in the record before
 * (@prev, or NULL) takes that record's string: less memory, and no
 * decoding.
 */
static int read_site(struct lp_reader *r, const struct field *f, size_t nr,
		     const struct field *prev, struct lp_profile *out)
{
	static const struct {
		int field;
		const char *what;
		size_t offset;
	} text[] = {
		{ 5, "file", offsetof(struct lp_prof_site, file) },
		{ 7, "function", offsetof(struct lp_prof_site, func) },
		{ 8, "unit", offsetof(struct lp_prof_site, unit) },
		{ 9, "condition", offsetof(struct lp_prof_site, cond) },
	};
	const struct lp_prof_site *last = out->nr ? &out->sites[out->nr - 1]
						  : NULL;
	struct lp_prof_site s;
	size_t i;
	int err;

	memset(&s, 0, sizeof(s));
	if (lp_parse_u64(f[1].s, f[1].n, &s.correct) < 0)
		return fail_excerpt(r, "correct count", &f[1]);
	if (lp_parse_u64(f[2].s, f[2].n, &s.incorrect) < 0)
		return fail_excerpt(r, "incorrect count", &f[2]);
	if (lp_parse_u64(f[3].s, f[3].n, &s.constant) < 0)
		return fail_excerpt(r, "constant count", &f[3]);
	if (parse_expect(&f[4], &s.expect, &s.prob) < 0)
		return fail_excerpt(r, "expect value", &f[4]);
	if (lp_parse_lineno(f[6].s, f[6].n, &s.line) < 0)
		return fail_excerpt(r, "line number", &f[6]);
	s.src_line = r->lineno;
	for (i = 0; i < sizeof(text) / sizeof(text[0]); i++) {
		const struct field *fi = &f[text[i].field];
		char **dst = (char **)((char *)&s + text[i].offset);
		unsigned bit = 1u << i;

		if (prev && last && same_field(fi, &prev[text[i].field])) {
			*dst = *(char *const *)((const char *)last +
						text[i].offset);
			s.plain |= last->plain & bit;
		} else if (text[i].field == 8 && same_field(fi, &f[5])) {
			*dst = s.file;  /* the unit is often the file itself */
			s.plain |= s.plain & LP_PLAIN_FILE ? bit : 0;
		} else if ((err = decode_text(r, out, text[i].what, fi,
					      dst)) < 0) {
			return err;
		} else if ((size_t)err == fi->n) {
			/* every escape is longer than its byte: none read */
			s.plain |= bit;
		}
	}
	/* the optional eleventh field: how sure a judged site is */
	if (nr >= 11 && f[10].n &&
	    lp_sure_parse(f[10].s, f[10].n, &s.sure) < 0)
		return fail_excerpt(r, "sure value", &f[10]);
	/* an empty sure is only written before the votes */
	if (nr == 11 && !f[10].n)
		return fail_excerpt(r, "sure value", &f[10]);
	/* votes may be empty only where samples follow them */
	if (nr >= 13 && (nr == 13 || f[11].n || f[12].n)) {
		if (lp_parse_u64(f[11].s, f[11].n, &s.votes_right) < 0)
			return fail_excerpt(r, "right votes", &f[11]);
		if (lp_parse_u64(f[12].s, f[12].n, &s.votes_wrong) < 0)
			return fail_excerpt(r, "wrong votes", &f[12]);
		s.has_votes = 1;
	}
	/* samples may be empty only where ways follow them */
	if (nr >= 15 && (nr == 15 || f[13].n || f[14].n)) {
		if (lp_parse_u64(f[13].s, f[13].n, &s.samp_right) < 0)
			return fail_excerpt(r, "sampled right count", &f[13]);
		if (lp_parse_u64(f[14].s, f[14].n, &s.samp_wrong) < 0)
			return fail_excerpt(r, "sampled wrong count", &f[14]);
		s.has_samples = 1;
	}
	if (nr == 18) {
		if (lp_parse_u64(f[15].s, f[15].n, &s.procs_right) < 0)
			return fail_excerpt(r, "processes right", &f[15]);
		if (lp_parse_u64(f[16].s, f[16].n, &s.procs_wrong) < 0)
			return fail_excerpt(r, "processes wrong", &f[16]);
		if (lp_parse_u64(f[17].s, f[17].n, &s.procs_both) < 0)
			return fail_excerpt(r, "processes both ways", &f[17]);
		s.has_procs = 1;
	}
	if (lp_profile_push(out, &s) < 0)
		return lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	return 0;
}

static int read_meta(struct lp_reader *r, const struct field *f,
		     struct lp_profile *out)
{
	char *key = NULL, *value = NULL;
	int err;

	if ((err = decode_meta(r, "meta key", &f[1], &key)) < 0 ||
	    (err = decode_meta(r, "meta value", &f[2], &value)) < 0)
		goto out;
	if (!*key) {
		err = lp_reader_fail(r, -LP_EPARSE, "empty meta key");
		goto out;
	}
	/* no scan for an earlier value: lp_read_records() tidies once */
	if (lp_meta_take(out, key, value) < 0) {
		err = lp_reader_fail(r, -LP_ENOMEM, "out of memory");
		goto out;
	}
	return 0;
out:
	free(key);
	free(value);
	return err;
}

static int read_version(struct lp_reader *r, const struct field *f)
{
	uint64_t v;

	if (lp_parse_u64(f[1].s, f[1].n, &v) < 0)
		return fail_excerpt(r, "profile version", &f[1]);
	if (v != LP_PROFILE_VERSION)
		return lp_reader_fail(r, -LP_EVERSION,
			"unsupported profile version %llu (this build reads "
			"version %d)", (unsigned long long)v,
			LP_PROFILE_VERSION);
	return 0;
}

static int is_record(const struct field *f, const char *type)
{
	size_t n = strlen(type);

	return f->n == n && !memcmp(f->s, type, n);
}

int lp_end_count_error(struct lp_reader *r, uint64_t count,
			   uint64_t sites)
{
	return lp_reader_fail(r, -LP_EPARSE,
			      "end record counts %llu sites, the profile has "
			      "%llu", (unsigned long long)count,
			      (unsigned long long)sites);
}

int lp_read_records(struct lp_profile *out, struct lp_reader *r,
		    struct lp_read_state *st)
{
	static const struct {
		const char *type;
		size_t fields;
	} records[] = {
		{ LP_PROFILE_MAGIC, 2 }, { "meta", 3 }, { "site", 10 },
		{ "end", 2 },
	};
	struct field fields[2][MAX_FIELDS];
	/* the record's fields, and the last site's: swapped, not copied */
	struct field *f = fields[0], *prev = fields[1];
	int err;
	uint64_t local_sites = 0;
	size_t meta_before = out->meta_nr;

	while (lp_reader_next(r)) {
		size_t nr, i;

		if (!r->has_newline)
			return lp_reader_fail(r, -LP_ETRUNC,
				"truncated profile: last line has no newline");
		if (r->len && r->line[0] == '#')
			continue;
		if (r->len && r->line[r->len - 1] == '\r')
			return lp_reader_fail(r, -LP_EPARSE,
				"CRLF line ending (profiles end lines "
				"with LF)");
		if (!r->len)
			return lp_reader_fail(r, -LP_EPARSE, "empty line");
		if (st->seen_end)
			return lp_reader_fail(r, -LP_EPARSE,
					      "record after the end record");
		nr = split_fields(r, f);
		/* nearly every record is a site */
		if (f[0].n == 4 && !memcmp(f[0].s, "site", 4))
			i = 2;
		else
			for (i = 0; i < sizeof(records) / sizeof(records[0]);
			     i++)
				if (is_record(&f[0], records[i].type))
					break;
		if (i == sizeof(records) / sizeof(records[0])) {
			char ex[48];

			lp_reader_excerpt(ex, sizeof(ex), f[0].s, f[0].n);
			return lp_reader_fail(r, -LP_EPARSE,
					      "unknown record '%s'", ex);
		}
		/* a site may carry the optional sure field, votes, samples */
		if (nr != records[i].fields &&
		    !(i == 2 && (nr == records[i].fields + 1 ||
				 nr == records[i].fields + 3 ||
				 nr == records[i].fields + 5 ||
				 nr == records[i].fields + 8)))
			return lp_reader_fail(r, -LP_EPARSE,
				"%s record has %zu fields, expected %zu",
				records[i].type, nr, records[i].fields);
		if (!st->seen_header != !i)
			return lp_reader_fail(r, -LP_EPARSE, i ?
				"%s record before the " LP_PROFILE_MAGIC
				" record" : "second %s record",
				records[i].type);
		switch (i) {
		case 0:
			err = read_version(r, f);
			st->seen_header = 1;
			break;
		case 1:
			err = read_meta(r, f, out);
			break;
		case 2:
			err = read_site(r, f, nr, local_sites ? prev : NULL,
					out);
			prev = f;
			f = fields[f == fields[0]];
			local_sites++;
			st->sites++;
			break;
		default: {
			uint64_t count;

			if (lp_parse_u64(f[1].s, f[1].n, &count) < 0)
				return fail_excerpt(r, "site count", &f[1]);
			st->seen_end = 1;
			err = 0;
			if (st->second_part) {
				st->end_count = count;
				st->end_line = r->lineno;
			} else if (count != st->sites) {
				err = lp_end_count_error(r, count, st->sites);
			}
		}
		}
		if (err < 0)
			return err;
	}
	if (!st->seen_end && !st->first_part)
		return lp_reader_fail(r, -LP_ETRUNC,
				      "truncated profile: no end record");
	if (out->meta_nr > meta_before && lp_meta_tidy(out) < 0)
		return lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	return 0;
}

