/*
 * profile.c - the in-memory profile: reader, writer, merge and sort
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
 *  Ownership
 **************************************/
struct pool_chunk {
	struct pool_chunk *next;
	size_t used, size;
	char data[];
};

/* The chunk that takes new strings is the first of the list. */
struct lp_strpool {
	struct pool_chunk *head;
};

#define POOL_FIRST_CHUNK 4096
/* big enough for huge pages (bigmem.h) once a profile is big */
#define POOL_MAX_CHUNK ((size_t)8 << 20)

char *lp_pool_reserve(struct lp_profile *p, size_t n)
{
	struct pool_chunk *c, *head;
	size_t size;

	if (!p->strings && !(p->strings = calloc(1, sizeof(*p->strings))))
		return NULL;
	head = p->strings->head;
	if (head && head->size - head->used >= n)
		return head->data + head->used;
	/* small profiles stay small, big ones take few chunks */
	size = head ? head->size * 2 : POOL_FIRST_CHUNK;
	if (size > POOL_MAX_CHUNK)
		size = POOL_MAX_CHUNK;
	if (size < n)
		size = n;
	if (size > SIZE_MAX - sizeof(*c))
		return NULL;
	c = lp_big_malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->used = 0;
	c->size = size;
	c->next = head;
	p->strings->head = c;
	return c->data;
}

void lp_pool_commit(struct lp_profile *p, size_t n)
{
	p->strings->head->used += n;
}

char *lp_pool_dup(struct lp_profile *p, const char *s, size_t n)
{
	char *d = lp_pool_reserve(p, n + 1);

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	lp_pool_commit(p, n + 1);
	return d;
}

static void pool_free(struct lp_strpool *pool)
{
	struct pool_chunk *c, *next;

	if (!pool)
		return;
	for (c = pool->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(pool);
}

/* Moves every chunk of @from into @to, behind the chunk in use. */
static void pool_splice(struct lp_profile *to, struct lp_profile *from)
{
	struct pool_chunk *tail;

	if (!from->strings || !from->strings->head)
		return;
	if (!to->strings || !to->strings->head) {
		pool_free(to->strings);
		to->strings = from->strings;
		from->strings = NULL;
		return;
	}
	for (tail = from->strings->head; tail->next; tail = tail->next)
		;
	tail->next = to->strings->head->next;
	to->strings->head->next = from->strings->head;
	from->strings->head = NULL;
}

void lp_profile_clear(struct lp_profile *p)
{
	struct lp_strpool *pool = p->strings;
	size_t i;

	for (i = 0; i < p->meta_nr; i++) {
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	p->meta_nr = 0;
	p->nr = 0;
	/* the newest chunk is the biggest: keep it alone */
	if (pool && pool->head) {
		struct pool_chunk *rest = pool->head->next;

		pool->head->next = NULL;
		pool->head->used = 0;
		while (rest) {
			struct pool_chunk *next = rest->next;

			free(rest);
			rest = next;
		}
	}
}

void lp_profile_init(struct lp_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->origin = LP_ORIGIN_PROFILE;
}

void lp_profile_release(struct lp_profile *p)
{
	size_t i;

	if (!p)
		return;
	free(p->sites);
	for (i = 0; i < p->meta_nr; i++) {
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	free(p->meta);
	free(p->name);
	pool_free(p->strings);
	lp_profile_init(p);
}

/* Makes room for @need elements of @size bytes; 0 or -LP_ENOMEM. */
static int grow(void **array, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc;
	void *a;

	if (need <= n)
		return 0;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return -LP_ENOMEM;
		n *= 2;
	}
	a = realloc(*array, n * size);
	if (!a)
		return -LP_ENOMEM;
	lp_big_hint(a, n * size);
	*array = a;
	*alloc = n;
	return 0;
}

int lp_profile_push(struct lp_profile *p, const struct lp_prof_site *s)
{
	if (grow((void **)&p->sites, &p->alloc, p->nr + 1, sizeof(*s)) < 0)
		return -LP_ENOMEM;
	p->sites[p->nr++] = *s;
	return 0;
}

static char *pool_str(struct lp_profile *p, const char *s)
{
	return s ? lp_pool_dup(p, s, strlen(s)) : lp_pool_dup(p, "", 0);
}

int lp_profile_add(struct lp_profile *p, const struct lp_prof_site *s)
{
	struct lp_prof_site copy = *s;

	copy.plain = 0;         /* the caller may have changed a string */
	copy.file = pool_str(p, s->file);
	copy.func = pool_str(p, s->func);
	copy.unit = pool_str(p, s->unit);
	copy.cond = pool_str(p, s->cond);
	if (!copy.file || !copy.func || !copy.unit || !copy.cond)
		return -LP_ENOMEM;
	return lp_profile_push(p, &copy);
}

int lp_profile_set_meta(struct lp_profile *p, const char *key,
			const char *value)
{
	char *v = strdup(value ? value : "");
	char *k;
	size_t i;

	if (!v)
		return -LP_ENOMEM;
	for (i = 0; i < p->meta_nr; i++) {
		if (strcmp(p->meta[i].key, key))
			continue;
		/* "build" repeats: one per object, every build merged */
		if (!strcmp(key, LP_META_BUILD) &&
		    strcmp(p->meta[i].value, v))
			continue;
		free(p->meta[i].value);
		p->meta[i].value = v;
		return 0;
	}
	k = strdup(key);
	if (!k || grow((void **)&p->meta, &p->meta_alloc, p->meta_nr + 1,
		       sizeof(*p->meta)) < 0) {
		free(k);
		free(v);
		return -LP_ENOMEM;
	}
	p->meta[p->meta_nr].key = k;
	p->meta[p->meta_nr].value = v;
	p->meta_nr++;
	return 0;
}

uint64_t lp_merged_count(const struct lp_profile *p)
{
	size_t i;

	for (i = 0; i < p->meta_nr; i++) {
		const char *v = p->meta[i].value;
		char *end;
		unsigned long long n;

		if (strcmp(p->meta[i].key, "merged"))
			continue;
		n = strtoull(v, &end, 10);
		if (*v >= '1' && *v <= '9' && !*end)
			return n;
	}
	return 1;
}

int lp_profile_one_process(const struct lp_profile *p)
{
	size_t i;

	if (p->origin != LP_ORIGIN_PROFILE || lp_merged_count(p) != 1)
		return 0;
	for (i = 0; i < p->meta_nr; i++)
		if (!strcmp(p->meta[i].key, "origin") &&
		    !strcmp(p->meta[i].value, "judge-perf"))
			return 0;
	return 1;
}

/* Appends @key and @value, which the profile then owns; 0 or -LP_ENOMEM. */
static int meta_take(struct lp_profile *p, char *key, char *value)
{
	if (grow((void **)&p->meta, &p->meta_alloc, p->meta_nr + 1,
		 sizeof(*p->meta)) < 0)
		return -LP_ENOMEM;
	p->meta[p->meta_nr].key = key;
	p->meta[p->meta_nr].value = value;
	p->meta_nr++;
	return 0;
}

int lp_profile_add_meta(struct lp_profile *p, const char *key,
			const char *value)
{
	char *k = strdup(key), *v = strdup(value ? value : "");

	if (!k || !v || meta_take(p, k, v) < 0) {
		free(k);
		free(v);
		return -LP_ENOMEM;
	}
	return 0;
}

/*
 * The order lp_meta_tidy() sorts into: by key; a build record by its
 * value too, so that copies meet; then by where it was, so that the
 * order is total and the last of a key is last.
 */
struct meta_ref {
	struct lp_prof_meta m;
	size_t at;
};

static int meta_ref_cmp(const void *pa, const void *pb)
{
	const struct meta_ref *a = pa, *b = pb;
	int c = strcmp(a->m.key, b->m.key);

	if (!c && !strcmp(a->m.key, LP_META_BUILD))
		c = strcmp(a->m.value, b->m.value);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

static int meta_key_at_cmp(const void *pa, const void *pb)
{
	const struct meta_ref *a = pa, *b = pb;
	int c = strcmp(a->m.key, b->m.key);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Is @r (of @n, sorted) the one of its key that lp_meta_tidy() keeps? */
static int meta_kept(const struct meta_ref *r, size_t i, size_t n)
{
	if (!strcmp(r[i].m.key, LP_META_BUILD))
		return !i || strcmp(r[i - 1].m.key, r[i].m.key) ||
		       strcmp(r[i - 1].m.value, r[i].m.value);
	return i + 1 == n || strcmp(r[i + 1].m.key, r[i].m.key);
}

int lp_meta_tidy(struct lp_profile *p)
{
	struct meta_ref *r;
	size_t i, k = 0, n = p->meta_nr;

	if (n < 2)
		return 0;
	if (!(r = malloc(n * sizeof(*r))))
		return -LP_ENOMEM;
	for (i = 0; i < n; i++) {
		r[i].m = p->meta[i];
		r[i].at = i;
	}
	qsort(r, n, sizeof(*r), meta_ref_cmp);
	for (i = 0; i < n; i++) {
		if (meta_kept(r, i, n)) {
			r[k++] = r[i];
			continue;
		}
		free(r[i].m.key);
		free(r[i].m.value);
	}
	/* by key, and the builds as they came: the writer's order */
	qsort(r, k, sizeof(*r), meta_key_at_cmp);
	for (i = 0; i < k; i++)
		p->meta[i] = r[i].m;
	p->meta_nr = k;
	free(r);
	return 0;
}

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

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
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
				hi = hexval(f->s[i + 1]);
				lo = hexval(f->s[i + 2]);
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
static int parse_expect(const struct field *f, long *v)
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
	if (parse_expect(&f[4], &s.expect) < 0)
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
	if (meta_take(out, key, value) < 0) {
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

static int end_count_error(struct lp_reader *r, uint64_t count,
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
				err = end_count_error(r, count, st->sites);
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

/*
 * Reads a whole profile, in two threads when it is big: the reading is
 * half of report's time at a million sites, and the lines of a profile
 * can be read in any order but for the header, the end record and the
 * count it gives.  The second half is read as if the header came before
 * it; where the first half does not end as a plain stretch of records
 * (no header yet, or the end record already), the profile is read again
 * in one piece, so that every error is the one a single reading gives,
 * at the same line.
 */
struct part {
	struct lp_profile prof;
	struct lp_reader r;
	struct lp_diag diag;
	struct lp_read_state st;
	int err;
};

static void *read_part(void *arg)
{
	struct part *pt = arg;

	pt->err = lp_read_records(&pt->prof, &pt->r, &pt->st);
	return NULL;
}

static int adopt_rest(struct lp_profile *p, struct lp_profile *tmp);

/*
 * The second part's sites go straight into @out's array, behind room for
 * one site per line of the first part: copying half a million sites from
 * an array of its own cost as much as reading them.  Before the part is
 * released, its window into @out's array is taken away from it.
 */
static void part_release(struct part *pt)
{
	pt->prof.sites = NULL;
	pt->prof.nr = pt->prof.alloc = 0;
	lp_profile_release(&pt->prof);
}

/*
 * @out's array has room for a site per line (the caller sized it), and
 * @first_lines is the number of lines in the first half of the buffer.
 */
static int read_split(struct lp_profile *out, struct lp_reader *r,
		      size_t split_min, size_t first_lines)
{
	size_t len = (size_t)(r->end - r->buf), lines;
	const char *mid;
	struct part second;
	struct lp_read_state st = { 0, 0, 1, 0, 0, 0, 0 };
	pthread_t helper;
	int err;

	mid = len >= split_min && len >= 2 ?
	      memchr(r->buf + len / 2, '\n', len - len / 2) : NULL;
	/* lines of the first part: those of the first half, and mid's */
	lines = first_lines + 1;
	if (!mid || mid + 1 >= r->end || out->nr || out->alloc <= lines) {
		st.first_part = 0;
		return lp_read_records(out, r, &st);
	}
	mid++;
	memset(&second, 0, sizeof(second));
	lp_profile_init(&second.prof);
	second.prof.sites = out->sites + lines;
	second.prof.alloc = out->alloc - lines;
	lp_reader_init(&second.r, r->name, mid, (size_t)(r->end - mid),
		       &second.diag);
	second.r.lineno = lines;
	second.st.seen_header = 1;
	second.st.second_part = 1;
	if (pthread_create(&helper, NULL, read_part, &second)) {
		part_release(&second);
		st.first_part = 0;
		return lp_read_records(out, r, &st);
	}
	r->end = mid;
	err = lp_read_records(out, r, &st);
	pthread_join(helper, NULL);
	if (!err && (!st.seen_header || st.seen_end)) {
		/* not a plain stretch of records: read it in one piece */
		part_release(&second);
		lp_profile_release(out);
		lp_reader_init(r, r->name, r->buf, len, r->diag);
		st = (struct lp_read_state){ 0, 0, 0, 0, 0, 0, 0 };
		return lp_read_records(out, r, &st);
	}
	/* the end record's count comes before any error after it */
	if (!err && second.st.end_line &&
	    second.st.end_count != st.sites + second.st.sites) {
		r->lineno = second.st.end_line;
		err = end_count_error(r, second.st.end_count,
				      st.sites + second.st.sites);
	}
	if (!err && second.err) {
		memcpy(r->diag, &second.diag, sizeof(second.diag));
		err = second.err;
	}
	if (!err) {
		memmove(out->sites + out->nr, second.prof.sites,
			second.prof.nr * sizeof(*out->sites));
		out->nr += second.prof.nr;
		second.prof.nr = 0;
		if (adopt_rest(out, &second.prof) < 0)
			err = lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	}
	part_release(&second);
	return err;
}

/* Moves @tmp's strings and meta into @p; 0 or -LP_ENOMEM. */
static int adopt_rest(struct lp_profile *p, struct lp_profile *tmp)
{
	size_t i;

	pool_splice(p, tmp);
	for (i = 0; i < tmp->meta_nr; i++)
		if (lp_profile_add_meta(p, tmp->meta[i].key,
					tmp->meta[i].value) < 0)
			return -LP_ENOMEM;
	return lp_meta_tidy(p);
}

/*
 * Moves what @tmp holds into @p: sites appended, meta set.  Cannot fail
 * half-way: all allocation happens before anything moves.
 */
static int adopt(struct lp_profile *p, struct lp_profile *tmp,
		 const char *name)
{
	if (!p->name && name && !(p->name = strdup(name)))
		return -LP_ENOMEM;
	if (!p->nr) {
		struct lp_prof_site *old = p->sites;

		p->sites = tmp->sites;
		p->nr = tmp->nr;
		p->alloc = tmp->alloc;
		p->origin = tmp->origin;
		tmp->sites = old;
		tmp->nr = 0;
		tmp->alloc = 0;
		free(old);
		tmp->sites = NULL;
	} else {
		if (grow((void **)&p->sites, &p->alloc, p->nr + tmp->nr,
			 sizeof(*p->sites)) < 0)
			return -LP_ENOMEM;
		if (tmp->nr)    /* tmp->sites may be NULL */
			memcpy(p->sites + p->nr, tmp->sites,
			       tmp->nr * sizeof(*p->sites));
		p->nr += tmp->nr;
		tmp->nr = 0;
		/* a mix of a profile and a kernel table is a profile */
		if (p->origin != tmp->origin)
			p->origin = LP_ORIGIN_PROFILE;
	}
	return adopt_rest(p, tmp);
}

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * Counts the LF bytes of @n bytes at @s and ORs into *@nul whether one of
 * them is a NUL.  A pass over 100 MiB, so sixteen bytes at a time: each
 * compare adds its matches to byte counters, summed before they can wrap.
 */
static size_t count_newlines(const char *s, size_t n, int *nul)
{
	size_t count = 0, i = 0;
	int any = 0;

#ifdef __SSE2__
	const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (i + 16 <= n) {
		__m128i acc = zero, z = zero, sum;
		size_t stop = n - i >= 255 * 16 ? i + 255 * 16 : n - 15;

		for (; i < stop; i += 16) {
			const void *at = s + i;
			__m128i v = _mm_loadu_si128((const __m128i *)at);

			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, lf));
			z = _mm_or_si128(z, _mm_cmpeq_epi8(v, zero));
		}
		sum = _mm_sad_epu8(acc, zero);
		count += (size_t)_mm_cvtsi128_si32(sum) +
			 (size_t)_mm_extract_epi16(sum, 4);
		any |= _mm_movemask_epi8(z);
	}
#endif
	for (; i < n; i++) {
		count += s[i] == '\n';
		any |= !s[i];
	}
	*nul |= any != 0;
	return count;
}

struct count_job {
	const char *s;
	size_t n, newlines;
	int nul;
};

static void *count_job(void *arg)
{
	struct count_job *job = arg;

	job->newlines = count_newlines(job->s, job->n, &job->nul);
	return NULL;
}

/*
 * One pass finds NUL bytes and counts the lines of the whole buffer
 * (returned) and of its first half (*@first, for read_split()); a big
 * buffer's halves are counted in two threads, as they are read.
 */
static size_t count_halves(const char *buf, size_t len, size_t split_min,
			   size_t *first, int *nul)
{
	struct count_job second = { buf + len / 2, len - len / 2, 0, 0 };
	pthread_t helper;
	int threaded = len >= split_min &&
		       !pthread_create(&helper, NULL, count_job, &second);

	*first = count_newlines(buf, len / 2, nul);
	if (threaded)
		pthread_join(helper, NULL);
	else
		count_job(&second);
	*nul |= second.nul;
	return *first + second.newlines + 1;
}

int lp_profile_read_buf(struct lp_profile *p, const char *name,
			const char *buf, size_t len, struct lp_diag *diag)
{
	return lp_profile_read_buf_split(p, name, buf, len, diag,
					 LP_READ_SPLIT_MIN);
}

int lp_profile_read_buf_split(struct lp_profile *p, const char *name,
			      const char *buf, size_t len,
			      struct lp_diag *diag, size_t split_min)
{
	struct lp_profile tmp = LP_PROFILE_INIT;
	enum lp_prof_origin kind = LP_ORIGIN_PROFILE;
	struct lp_reader r;
	const char *nul;
	size_t n = strlen(LP_PROFILE_MAGIC), first_lines, lines;
	int err, found = 0, has_nul = 0;

	if (!name)
		name = "<input>";
	lp_reader_init(&r, name, buf, len, diag);
	diag->msg[0] = '\0';
	lines = count_halves(buf, len, split_min, &first_lines, &has_nul);
	if (has_nul) {
		nul = memchr(buf, '\0', len);
		/* name the line, so a profile with one damaged byte is found */
		while (lp_reader_next(&r) && r.next <= nul)
			;
		return lp_reader_fail(&r, -LP_EBINARY,
				      "binary data (NUL byte)");
	}
	/* The first line that is not a comment or blank tells the kind. */
	while (lp_reader_next(&r)) {
		if ((r.len && r.line[0] == '#') || is_blank(r.line, r.len))
			continue;
		found = 1;
		if (r.len >= n && !memcmp(r.line, LP_PROFILE_MAGIC, n))
			break;
		if (lp_csv_header(r.line, r.len)) {
			kind = LP_ORIGIN_CSV;
			break;
		}
		kind = lp_ktable_header(r.line, r.len);
		if (kind == LP_ORIGIN_PROFILE)
			return lp_reader_fail(&r, -LP_EPARSE,
				"not a likelyprof profile or kernel branch "
				"table");
		break;
	}
	if (!found) {
		r.lineno = 0;
		return lp_reader_fail(&r, -LP_EEMPTY, len ?
				      "no profile or table in input" :
				      "empty input");
	}
	lp_reader_init(&r, name, buf, len, diag);
	/* one record per line: size the array once, not by doubling */
	if (grow((void **)&tmp.sites, &tmp.alloc, lines,
		 sizeof(*tmp.sites)) < 0)
		return lp_reader_fail(&r, -LP_ENOMEM, "out of memory");
	if (kind == LP_ORIGIN_PROFILE)
		err = read_split(&tmp, &r, split_min, first_lines);
	else if (kind == LP_ORIGIN_CSV)
		err = lp_csv_read(&tmp, &r);
	else
		err = lp_ktable_read(&tmp, &r, kind);
	tmp.origin = kind;
	if (!err && adopt(p, &tmp, name) < 0) {
		r.lineno = 0;
		err = lp_reader_fail(&r, -LP_ENOMEM, "out of memory");
	}
	lp_profile_release(&tmp);
	return err;
}

/*
 * A pipe or device is read up to this much: /dev/zero or `yes |` must end
 * in an error, not in the memory running out.  A million-site profile is
 * about 150 MiB.
 */
#define LP_STREAM_MAX ((size_t)1 << 30)

/*
 * Reads all of @fd into a malloc'd buffer.  A NUL byte in what came so
 * far ends the reading: no profile holds one, and the parser then names
 * the input as binary.  Past LP_STREAM_MAX it fails with EFBIG.
 */
static int slurp(int fd, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	char *buf;

	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX - 1)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *b = cap > SIZE_MAX / 2 ? NULL :
				  realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				errno = ENOMEM;
				return -1;
			}
			buf = b;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return -1;
		}
		if (!got || memchr(buf + n, '\0', (size_t)got)) {
			n += (size_t)got;
			break;
		}
		n += (size_t)got;
		if (n > LP_STREAM_MAX) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	*out = buf;
	*len = n;
	return 0;
}

int lp_profile_read_file(struct lp_profile *p, const char *path,
			 struct lp_diag *diag)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, err, e;

	diag->msg[0] = '\0';
	fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	/*
	 * Mapping a big profile saves copying it and zeroing as much fresh
	 * memory: a fifth of the time of a report at a million sites.
	 */
	if (fd > 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ,
				 MAP_PRIVATE | MAP_POPULATE, fd, 0);

		if (map != MAP_FAILED) {
			close(fd);
			err = lp_profile_read_buf(p, name, map,
						  (size_t)st.st_size, diag);
			munmap(map, (size_t)st.st_size);
			return err;
		}
	}
	if (fd < 0 || slurp(fd, &buf, &len) < 0) {
		e = errno;
		if (fd > 0)
			close(fd);
		if (e == EFBIG)
			snprintf(diag->msg, sizeof(diag->msg), "%s: more than "
				 "%zu MiB from a stream; not a profile", name,
				 LP_STREAM_MAX >> 20);
		else
			snprintf(diag->msg, sizeof(diag->msg), "%s: %s", name,
				 strerror(e));
		if (e == ENOMEM)
			return -LP_ENOMEM;
		return e == ENOENT ? -LP_ENOENT : -LP_EIO;
	}
	if (!is_stdin)
		close(fd);
	err = lp_profile_read_buf(p, name, buf, len, diag);
	free(buf);
	return err;
}

/*-************************************
 *  Merge
 **************************************/
static uint64_t site_hash(const struct lp_prof_site *s)
{
	uint64_t h = LP_HASH_SEED;

	h = lp_hash_str(h, s->file);
	h = lp_hash_u64(h, (uint64_t)s->line);
	h = lp_hash_str(h, s->func);
	h = lp_hash_u64(h, (uint64_t)s->expect);
	h = lp_hash_str(h, s->unit);
	h = lp_hash_str(h, s->cond);
	return lp_hash_finish(h);
}

static int same_key(const struct lp_prof_site *a, const struct lp_prof_site *b)
{
	return a->line == b->line && a->expect == b->expect &&
	       !strcmp(a->file, b->file) && !strcmp(a->func, b->func) &&
	       !strcmp(a->unit, b->unit) && !strcmp(a->cond, b->cond);
}

/* The keys of dst: one group per distinct key, listing its records. */
struct merge_ctx {
	const struct lp_prof_site *sites;       /* dst's */
	const size_t *first;                    /* group -> first record */
	const struct lp_prof_site *probe;
};

static int group_eq(const void *ctx, size_t group)
{
	const struct merge_ctx *m = ctx;

	return same_key(&m->sites[m->first[group]], m->probe);
}

static void add_counts(struct lp_prof_site *d, const struct lp_prof_site *s)
{
	/* a sum is only as sure as the least sure of its parts */
	if (s->sure > d->sure)
		d->sure = s->sure;
	d->correct = lp_sat_add(d->correct, s->correct);
	d->incorrect = lp_sat_add(d->incorrect, s->incorrect);
	d->constant = lp_sat_add(d->constant, s->constant);
	d->votes_right = lp_sat_add(d->votes_right, s->votes_right);
	d->votes_wrong = lp_sat_add(d->votes_wrong, s->votes_wrong);
	d->has_votes |= s->has_votes;
	d->samp_right = lp_sat_add(d->samp_right, s->samp_right);
	d->samp_wrong = lp_sat_add(d->samp_wrong, s->samp_wrong);
	d->has_samples |= s->has_samples;
	d->procs_right = lp_sat_add(d->procs_right, s->procs_right);
	d->procs_wrong = lp_sat_add(d->procs_wrong, s->procs_wrong);
	d->procs_both = lp_sat_add(d->procs_both, s->procs_both);
	d->has_procs |= s->has_procs;
}

/*
 * Pairs the k-th record of a key in src with the k-th of that key in dst.
 * Records of dst are linked per key in their order (next[]); cursor[g] is
 * the next dst record of group g that src has not paired yet.  Unpaired
 * src records are appended in src order, so they follow every dst record
 * of their key: the k-th record of a key in the result is always the sum
 * of the k-th records of the inputs, which makes merging commutative and
 * associative once the writer's stable sort puts keys in order.
 */
int lp_profile_merge(struct lp_profile *dst, const struct lp_profile *src)
{
	struct lp_keymap map = LP_KEYMAP_INIT;
	struct merge_ctx ctx;
	size_t *first = NULL, *next = NULL, *cursor = NULL, *last = NULL;
	size_t *pair = NULL, groups = 0, extra = 0, i, j;
	const size_t none = SIZE_MAX;
	int err = -LP_ENOMEM;

	if (!src->nr)
		return 0;
	if (lp_keymap_init(&map, dst->nr) < 0)
		return -LP_ENOMEM;
	first = malloc((dst->nr + 1) * sizeof(*first));
	last = malloc((dst->nr + 1) * sizeof(*last));
	next = malloc((dst->nr + 1) * sizeof(*next));
	pair = malloc(src->nr * sizeof(*pair));
	if (!first || !last || !next || !pair)
		goto out;
	ctx.sites = dst->sites;
	ctx.first = first;
	for (i = 0; i < dst->nr; i++) {
		struct lp_keymap_slot *slot;
		uint64_t h = site_hash(&dst->sites[i]);

		ctx.probe = &dst->sites[i];
		slot = lp_keymap_find(&map, h, group_eq, &ctx);
		next[i] = none;
		if (slot->id) {
			next[last[slot->id - 1]] = i;
			last[slot->id - 1] = i;
			continue;
		}
		first[groups] = last[groups] = i;
		slot->hash = h;
		slot->id = ++groups;
	}
	/* cursor[g]: the next record of group g that src has not paired */
	cursor = malloc((groups + 1) * sizeof(*cursor));
	if (!cursor)
		goto out;
	memcpy(cursor, first, groups * sizeof(*cursor));
	for (i = 0; i < src->nr; i++) {
		struct lp_keymap_slot *slot;
		size_t g;

		pair[i] = none;
		ctx.probe = &src->sites[i];
		slot = lp_keymap_find(&map, site_hash(ctx.probe), group_eq,
				      &ctx);
		if (!slot->id)
			continue;
		g = slot->id - 1;
		if (cursor[g] == none)
			continue;
		pair[i] = cursor[g];
		cursor[g] = next[cursor[g]];
	}
	/* Copy the unpaired records first: the only step that can fail. */
	for (i = 0; i < src->nr; i++)
		if (pair[i] == none)
			extra++;
	if (grow((void **)&dst->sites, &dst->alloc, dst->nr + extra,
		 sizeof(*dst->sites)) < 0)
		goto out;
	for (i = 0, j = dst->nr; i < src->nr; i++) {
		if (pair[i] != none)
			continue;
		if (lp_profile_add(dst, &src->sites[i]) < 0) {
			/* what the pool took is lost until release */
			dst->nr = j;
			goto out;
		}
	}
	for (i = 0; i < src->nr; i++)
		if (pair[i] != none)
			add_counts(&dst->sites[pair[i]], &src->sites[i]);
	err = 0;
out:
	lp_keymap_release(&map);
	free(first);
	free(last);
	free(next);
	free(cursor);
	free(pair);
	return err;
}

/*-************************************
 *  Sort and write
 **************************************/
static int cmp_long(long a, long b)
{
	return (a > b) - (a < b);
}

int lp_site_cmp(const struct lp_prof_site *a, const struct lp_prof_site *b)
{
	int c;

	if (a->file != b->file && (c = strcmp(a->file, b->file)))
		return c;
	if ((c = cmp_long(a->line, b->line)))
		return c;
	if ((c = strcmp(a->func, b->func)))
		return c;
	if ((c = cmp_long(a->expect, b->expect)))
		return c;
	if ((c = strcmp(a->unit, b->unit)))
		return c;
	return strcmp(a->cond, b->cond);
}

/*
 * A merge sort of an index array: stable by construction, which qsort
 * does not promise, and it moves 4-byte indices rather than whole records.
 * Runs that are already in order (a profile read back) cost one compare
 * per record.
 */
static void msort(uint32_t *a, uint32_t *tmp, size_t n,
		  const struct lp_prof_site *s)
{
	size_t mid = n / 2, i = 0, j, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, mid, s);
	msort(a + mid, tmp, n - mid, s);
	if (lp_site_cmp(&s[a[mid - 1]], &s[a[mid]]) <= 0)
		return;
	j = mid;
	while (i < mid && j < n) {
		if (lp_site_cmp(&s[a[j]], &s[a[i]]) < 0)
			tmp[k++] = a[j++];
		else
			tmp[k++] = a[i++];
	}
	while (i < mid)
		tmp[k++] = a[i++];
	memcpy(a, tmp, k * sizeof(*a));
}

static int meta_cmp(const void *a, const void *b)
{
	return strcmp(((const struct lp_prof_meta *)a)->key,
		      ((const struct lp_prof_meta *)b)->key);
}

/*
 * Keys are unique but for build, whose records keep the order they came
 * in when the meta is already in order (lp_meta_tidy() leaves it so).
 */
static void sort_meta(struct lp_profile *p)
{
	size_t i;

	for (i = 1; i < p->meta_nr; i++)
		if (meta_cmp(&p->meta[i - 1], &p->meta[i]) > 0)
			break;
	if (i < p->meta_nr)
		qsort(p->meta, p->meta_nr, sizeof(*p->meta), meta_cmp);
}

void lp_profile_sort(struct lp_profile *p)
{
	uint32_t *idx, *tmp;
	struct lp_prof_site *sorted;
	size_t i;

	sort_meta(p);
	if (p->nr < 2)
		return;
	if (p->nr > UINT32_MAX)
		return;         /* NEEDSWORK: profiles of 4G sites */
	idx = malloc(p->nr * sizeof(*idx));
	tmp = malloc(p->nr * sizeof(*tmp));
	sorted = malloc(p->nr * sizeof(*sorted));
	if (idx && tmp && sorted) {
		for (i = 0; i < p->nr; i++)
			idx[i] = (uint32_t)i;
		msort(idx, tmp, p->nr, p->sites);
		for (i = 0; i < p->nr; i++)
			sorted[i] = p->sites[idx[i]];
		memcpy(p->sites, sorted, p->nr * sizeof(*sorted));
	} else {
		/* no memory for the fast way: insertion sort in place */
		size_t j;

		for (i = 1; i < p->nr; i++) {
			struct lp_prof_site s = p->sites[i];

			for (j = i; j; j--) {
				if (lp_site_cmp(&s, &p->sites[j - 1]) >= 0)
					break;
				p->sites[j] = p->sites[j - 1];
			}
			p->sites[j] = s;
		}
	}
	free(idx);
	free(tmp);
	free(sorted);
}

static int file_flush(struct lp_sink *sink)
{
	struct lp_file_sink *fs = (struct lp_file_sink *)sink;

	if (fwrite(sink->buf, 1, sink->len, fs->out) != sink->len)
		return -LP_EIO;
	sink->len = 0;
	return 0;
}

void lp_file_sink_init(struct lp_file_sink *fs, FILE *out, char *buf,
		       size_t cap)
{
	memset(fs, 0, sizeof(*fs));
	fs->sink.buf = buf;
	fs->sink.cap = cap;
	fs->sink.flush = file_flush;
	fs->out = out;
}

int lp_profile_write(struct lp_profile *p, FILE *out)
{
	char buf[1 << 16];
	struct lp_file_sink fs;
	size_t i;

	lp_profile_sort(p);
	lp_file_sink_init(&fs, out, buf, sizeof(buf));
	lp_sink_header(&fs.sink);
	for (i = 0; i < p->meta_nr; i++)
		lp_sink_meta(&fs.sink, p->meta[i].key, p->meta[i].value);
	for (i = 0; i < p->nr; i++)
		lp_sink_prof_site(&fs.sink, &p->sites[i]);
	lp_sink_end(&fs.sink, p->nr);
	if (lp_sink_finish(&fs.sink) < 0 || fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -LP_EIO;
	}
	return 0;
}
