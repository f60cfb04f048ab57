/*
 * ktable.c - the kernel's branch tables: layout, order and reader
 *
 * Facts from the kernel's kernel/trace/trace_branch.c that this file
 * reproduces: the header strings of annotated_branch_stat_headers and
 * all_branch_stat_headers, the row format of branch_stat_show (with the
 * "correct/constant" form of annotate_branch_stat_show), the percent of
 * get_incorrect_percent and the ranking of annotated_branch_stat_cmp.
 */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "bigmem.h"
#include "fold.h"
#include "internal.h"
#include "ktable.h"

long lp_kernel_percent(uint64_t correct, uint64_t incorrect)
{
	unsigned __int128 n;

	if (!correct)
		return incorrect ? 100 : -1;
	/* the common case fits 64 bits, and 128-bit division is a call */
	if (incorrect < (1ULL << 56) && correct < (1ULL << 56))
		return (long)(incorrect * 100 / (correct + incorrect));
	n = (unsigned __int128)incorrect * 100;
	return (long)(n / ((unsigned __int128)correct + incorrect));
}

/*
 * What a 64-bit kernel prints when incorrect * 100 wraps: a pasted table
 * from such a machine must still read.
 */
static long kernel_percent_wrapped(uint64_t correct, uint64_t incorrect)
{
	uint64_t sum = correct + incorrect;

	if (!correct)
		return incorrect ? 100 : -1;
	return sum ? (long)(incorrect * 100 / sum) : -1;
}

static int cmp_u64(uint64_t a, uint64_t b)
{
	return (a > b) - (a < b);
}

/*
 * The first 8 bytes of @s as a big-endian number: numbers compare as the
 * strings do, and equal numbers with a NUL in them are equal strings.
 */
static uint64_t prefix8(const char *s)
{
	uint64_t v = 0;
	int i;

	for (i = 0; i < 8; i++) {
		v <<= 8;
		if (*s)         /* stays on the NUL: zeros pad the rest */
			v |= (unsigned char)*s++;
	}
	return v;
}

void lp_kernel_key_init(struct lp_kernel_key *k, const struct lp_prof_site *s)
{
	k->incorrect = s->incorrect;
	k->correct = s->correct;
	k->site = s;
	k->func8[0] = prefix8(s->func);
	/* a NUL among the first 8 bytes: the rest is padding */
	k->func8[1] = k->func8[0] & 0xff ? prefix8(s->func + 8) : 0;
}

static long key_percent(const struct lp_kernel_key *k)
{
	return lp_kernel_percent(k->correct, k->incorrect);
}

/*
 * The order of two keys of the same percent past their counts and the
 * first bytes of their function: out of line, because most comparisons
 * of a sort end before it.
 */
static int cmp_names(const struct lp_kernel_key *ka,
		     const struct lp_kernel_key *kb)
{
	const struct lp_prof_site *a = ka->site, *b = kb->site;
	int c;

	/*
	 * The reader gives neighbouring records one copy of a string they
	 * share, so equal pointers spare most of the string compares.
	 */
	if ((ka->func8[1] & 0xff) && a->func != b->func &&
	    (c = strcmp(a->func + 16, b->func + 16)))
		return c;
	if (a->file != b->file &&
	    (c = strcmp(lp_path_base(a->file), lp_path_base(b->file))))
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if (a->file != b->file && (c = strcmp(a->file, b->file)))
		return c;
	if (a->expect != b->expect)
		return a->expect < b->expect ? -1 : 1;
	if ((c = cmp_u64(a->constant, b->constant)))
		return c;
	if (a->unit != b->unit && (c = strcmp(a->unit, b->unit)))
		return c;
	return a->cond == b->cond ? 0 : strcmp(a->cond, b->cond);
}

/* The order of two keys of the same percent. */
static inline int cmp_same_percent(const struct lp_kernel_key *ka,
				   const struct lp_kernel_key *kb)
{
	if (ka->incorrect != kb->incorrect)
		return ka->incorrect > kb->incorrect ? -1 : 1;
	if (ka->correct != kb->correct)
		return ka->correct < kb->correct ? -1 : 1;
	if (ka->func8[0] != kb->func8[0])
		return ka->func8[0] < kb->func8[0] ? -1 : 1;
	if (ka->func8[1] != kb->func8[1])
		return ka->func8[1] < kb->func8[1] ? -1 : 1;
	return cmp_names(ka, kb);
}

int lp_kernel_key_cmp(const void *pa, const void *pb)
{
	const struct lp_kernel_key *ka = pa, *kb = pb;
	long a = key_percent(ka), b = key_percent(kb);

	if (a != b)
		return a > b ? -1 : 1;
	return cmp_same_percent(ka, kb);
}

static void insertion_sort(struct lp_kernel_key *a, size_t n)
{
	size_t i, j;

	for (i = 1; i < n; i++) {
		struct lp_kernel_key k = a[i];

		for (j = i; j && cmp_same_percent(&k, &a[j - 1]) < 0; j--)
			a[j] = a[j - 1];
		a[j] = k;
	}
}

/* Merges the sorted a[0..mid) and a[mid..n), with @tmp room for mid keys. */
static void merge_runs(struct lp_kernel_key *a, struct lp_kernel_key *tmp,
		       size_t mid, size_t n)
{
	size_t i = 0, j = mid, k = 0;

	if (!mid || mid == n || cmp_same_percent(&a[mid - 1], &a[mid]) <= 0)
		return;
	memcpy(tmp, a, mid * sizeof(*a));
	while (i < mid && j < n) {
		if (cmp_same_percent(&a[j], &tmp[i]) < 0)
			a[k++] = a[j++];
		else
			a[k++] = tmp[i++];
	}
	while (i < mid)
		a[k++] = tmp[i++];
}

/*
 * Sorts @a, keys of one percent, in place, with @tmp room for n / 2 + 1
 * keys.  It moves the keys themselves: qsort() sorts pointers to keys
 * of this size, and at a million rows following them costs a cache miss
 * per comparison.
 */
static void merge_sort(struct lp_kernel_key *a, struct lp_kernel_key *tmp,
		       size_t n)
{
	size_t mid = n / 2;

	if (n <= 16) {
		insertion_sort(a, n);
		return;
	}
	merge_sort(a, tmp, mid);
	merge_sort(a + mid, tmp, n - mid);
	merge_runs(a, tmp, mid, n);
}

/* Bucket 0 is 100%, bucket 100 is 0%, bucket 101 is X (never run). */
static size_t bucket(const struct lp_kernel_key *k)
{
	return (size_t)(100 - key_percent(k));
}

size_t lp_kernel_bucket(const struct lp_prof_site *s)
{
	return (size_t)(100 - lp_kernel_percent(s->correct, s->incorrect));
}

#define BUCKETS LP_KERNEL_BUCKETS

/*
 * Puts the keys in their bucket in place (an American flag sort: no
 * second array of a million keys to fault in); @end receives where
 * each bucket ends.
 */
static void to_buckets(struct lp_kernel_key *keys, size_t n, size_t *end)
{
	size_t next[BUCKETS] = { 0 }, i, b;

	for (i = 0; i < n; i++)
		next[bucket(&keys[i])]++;
	for (b = 0, i = 0; b < BUCKETS; b++) {
		size_t count = next[b];

		next[b] = i;
		i += count;
		end[b] = i;
	}
	for (b = 0; b < BUCKETS; b++) {
		while (next[b] < end[b]) {
			struct lp_kernel_key k = keys[next[b]];
			size_t to = bucket(&k);

			if (to == b) {
				next[b]++;
				continue;
			}
			/* put k home, and carry on with what was there */
			keys[next[b]] = keys[next[to]];
			keys[next[to]++] = k;
		}
	}
}

/*
 * One thread's share of the sort.  Sorting: each bucket's first half
 * (SORT_FIRST), second half (SORT_SECOND) or all of it (SORT_ALL).
 * Merging: the two sorted halves of the buckets @mine marks.  @tmp has
 * room for half the keys the share moves at once, plus one.
 */
enum { SORT_FIRST, SORT_SECOND, SORT_ALL, MERGE_HALVES };

struct sort_part {
	struct lp_kernel_key *keys, *tmp;
	const size_t *end;
	int what;
	const unsigned char *mine;      /* MERGE_HALVES: a flag a bucket */
};

static size_t bucket_start(const size_t *end, size_t b)
{
	return b ? end[b - 1] : 0;
}

static void *sort_part(void *arg)
{
	const struct sort_part *sp = arg;
	size_t b;

	for (b = 0; b < BUCKETS; b++) {
		size_t lo = bucket_start(sp->end, b), hi = sp->end[b];
		size_t mid = lo + (hi - lo) / 2;

		if (sp->what == MERGE_HALVES && !sp->mine[b])
			continue;
		if (sp->what == MERGE_HALVES)
			merge_runs(sp->keys + lo, sp->tmp, mid - lo, hi - lo);
		else if (sp->what == SORT_FIRST)
			merge_sort(sp->keys + lo, sp->tmp, mid - lo);
		else if (sp->what == SORT_SECOND)
			merge_sort(sp->keys + mid, sp->tmp, hi - mid);
		else
			merge_sort(sp->keys + lo, sp->tmp, hi - lo);
	}
	return NULL;
}

/* Runs @a and @b at once, @b in a thread; 0 when it could not start. */
static int run_pair(struct sort_part *a, struct sort_part *b)
{
	pthread_t helper;

	if (pthread_create(&helper, NULL, sort_part, b))
		return 0;
	sort_part(a);
	pthread_join(helper, NULL);
	return 1;
}

/*
 * The percent has only 102 values, so the keys are first put in their
 * bucket, and each bucket is merge-sorted on the rest.  Past @par_min
 * keys two threads share the work: one sorts the first half of every
 * bucket, the other the second half, and then each merges the halves of
 * buckets holding about half the keys.  Split by position instead, the
 * thread that drew the keys that tie on their counts (few evaluations,
 * or none) and go on to their names, a cache miss a comparison, took 1.7
 * times as long as the other at a million sites; halves of one bucket
 * cost alike.
 */
static void share_merges(const size_t *end, unsigned char *first,
			 unsigned char *second, size_t *largest)
{
	size_t order[BUCKETS], load[2] = { 0, 0 }, b, i, j;

	/* the biggest first, each to the thread with less to merge so far */
	for (b = 0; b < BUCKETS; b++) {
		for (j = b; j && end[order[j - 1]] - bucket_start(end,
		     order[j - 1]) < end[b] - bucket_start(end, b); j--)
			order[j] = order[j - 1];
		order[j] = b;
	}
	*largest = end[order[0]] - bucket_start(end, order[0]);
	for (i = 0; i < BUCKETS; i++) {
		size_t size = end[order[i]] - bucket_start(end, order[i]);
		int t = load[1] < load[0];

		first[order[i]] = t == 0;
		second[order[i]] = t == 1;
		load[t] += size;
	}
}

int lp_kernel_sort_par(struct lp_kernel_key *keys, size_t n, size_t par_min)
{
	size_t end[BUCKETS];

	if (n < 2)
		return 0;
	to_buckets(keys, n, end);
	return lp_kernel_sort_bucketed(keys, n, end, par_min);
}

int lp_kernel_sort_bucketed(struct lp_kernel_key *keys, size_t n,
			    const size_t *end, size_t par_min)
{
	size_t quarter = n / 4 + 2, largest;
	unsigned char first[BUCKETS], second[BUCKETS];
	struct lp_kernel_key *tmp;
	struct sort_part lo, hi;

	if (n < 2)
		return 0;
	tmp = lp_big_malloc((n / 2 + 4) * sizeof(*tmp));
	if (!tmp) {
		qsort(keys, n, sizeof(*keys), lp_kernel_key_cmp);
		return -LP_ENOMEM;
	}
	lo = (struct sort_part){ keys, tmp, end, SORT_FIRST, NULL };
	hi = (struct sort_part){ keys, tmp + quarter, end, SORT_SECOND, NULL };
	if (n < par_min || !run_pair(&lo, &hi)) {
		lo.what = SORT_ALL;
		sort_part(&lo);
		free(tmp);
		return 0;
	}
	/*
	 * The first thread has the largest bucket, half of which it copies
	 * out; the other's buckets hold the rest, and half of any fits
	 * behind.
	 */
	share_merges(end, first, second, &largest);
	lo = (struct sort_part){ keys, tmp, end, MERGE_HALVES, first };
	hi = (struct sort_part){ keys, tmp + largest / 2 + 1, end,
				 MERGE_HALVES, second };
	if (!run_pair(&lo, &hi)) {
		sort_part(&lo);
		sort_part(&hi);
	}
	free(tmp);
	return 0;
}

int lp_kernel_sort(struct lp_kernel_key *keys, size_t n)
{
	return lp_kernel_sort_par(keys, n, LP_KERNEL_SORT_PAR_MIN);
}

int lp_kernel_cmp(const struct lp_prof_site *a, const struct lp_prof_site *b)
{
	struct lp_kernel_key ka, kb;

	lp_kernel_key_init(&ka, a);
	lp_kernel_key_init(&kb, b);
	return lp_kernel_key_cmp(&ka, &kb);
}

/*
 * A million rows are some five million numbers: two digits a step, and
 * stores of fixed size that a row's room (LP_KERNEL_ROW_MAX) allows past
 * the field, since the fields are written left to right.
 */
static const char digit_pairs[] =
	"00010203040506070809101112131415161718192021222324252627282930313233"
	"34353637383940414243444546474849505152535455565758596061626364656667"
	"68697071727374757677787980818283848586878889909192939495969798"
	"99";

static size_t ndigits(uint64_t v)
{
	static const uint64_t pow10[20] = {
		1ULL, 10ULL, 100ULL, 1000ULL, 10000ULL, 100000ULL, 1000000ULL,
		10000000ULL, 100000000ULL, 1000000000ULL, 10000000000ULL,
		100000000000ULL, 1000000000000ULL, 10000000000000ULL,
		100000000000000ULL, 1000000000000000ULL,
		10000000000000000ULL, 100000000000000000ULL,
		1000000000000000000ULL, 10000000000000000000ULL
	};
	/* log10 from log2: 1233 / 4096 is just over log10(2) */
	size_t t = (size_t)(64 - __builtin_clzll(v | 1)) * 1233 >> 12;

	return v < 10 ? 1 : t + 1 - (v < pow10[t]);
}

/* Writes the digits of @v so that they end at @end. */
static void put_digits(char *end, uint64_t v)
{
	while (v >= 100) {
		end -= 2;
		memcpy(end, digit_pairs + v % 100 * 2, 2);
		v /= 100;
	}
	if (v >= 10) {
		memcpy(end - 2, digit_pairs + v * 2, 2);
	} else {
		end[-1] = (char)('0' + v);
	}
}

/* printf's "%*lu": right-aligned in @width (at most 8), never cut. */
static size_t put_right(char *p, uint64_t v, size_t width)
{
	size_t n = ndigits(v), w = n > width ? n : width;

	memcpy(p, "        ", 8);
	put_digits(p + w, v);
	return w;
}

/* printf's "%-W.Ws": cut at @width (at most 32) bytes, padded to it. */
static size_t put_left(char *p, const char *s, size_t width)
{
	memset(p, ' ', width < 32 ? 32 : width);
	memcpy(p, s, strnlen(s, width));
	return width;
}

size_t lp_kernel_row(char *buf, const struct lp_prof_site *s)
{
	return lp_kernel_row_width(buf, s, LP_KERNEL_FUNC_WIDTH);
}

size_t lp_kernel_row_width(char *buf, const struct lp_prof_site *s,
			   size_t func_width)
{
	char *p = buf;
	long percent = lp_kernel_percent(s->correct, s->incorrect);

	p += put_right(p, s->correct, 8);
	if (s->constant) {
		/* l = 8 - strlen("/constant"), as the kernel pads it */
		size_t l = ndigits(s->constant) + 1;

		*p++ = '/';
		p += put_right(p, s->constant, 0);
		*p++ = ' ';
		p += put_right(p, s->incorrect, l > 8 ? 0 : 8 - l);
	} else {
		*p++ = ' ';
		p += put_right(p, s->incorrect, 8);
	}
	*p++ = ' ';
	if (percent < 0) {
		memcpy(p, "  X", 3);
		p += 3;
	} else {
		p += put_right(p, (uint64_t)percent, 3);
	}
	*p++ = ' ';
	p += put_left(p, s->func, func_width);
	*p++ = ' ';
	p += put_left(p, lp_path_base(s->file), 20);
	*p++ = ' ';
	if (s->line < 0) {
		*p++ = '-';
		p += put_right(p, (uint64_t)0 - (uint64_t)s->line, 0);
	} else {
		p += put_right(p, (uint64_t)s->line, 0);
	}
	*p++ = '\n';
	*p = '\0';
	return (size_t)(p - buf);
}

void lp_kernel_header_width(char *buf, size_t func_width, int all)
{
	/*
	 * "Function" sits 7 columns into its field of 31 (the name and a
	 * space), as the kernel's; a narrower field has less before it.
	 */
	size_t field = (func_width < 8 ? 8 : func_width) + 1;
	int lead = field - 8 < 7 ? (int)(field - 8) : 7;
	int rest = (int)(field - 8) - lead;

	sprintf(buf, "%s%*sFunction%*s  File              Line\n"
		" ------- ---------  - %*s--------%*s  ----              "
		"----\n", all ? "   miss      hit    % " : " correct incorrect  % ",
		lead, "", rest, "", lead, "", rest, "");
}

/*-************************************
 *  Reading a table
 **************************************/
#define MAX_TOKENS 8

struct token {
	const char *s;
	size_t n;
};

/*
 * Splits a line at runs of blanks: tables pasted into mail are re-indented
 * and their columns shifted, so only the order of the columns is trusted.
 * A final CR goes too (a table pasted on another system).
 */
static size_t tokenize(const char *line, size_t len, struct token *t)
{
	const char *p = line, *end = line + len;
	size_t nr = 0;

	for (;;) {
		const char *start;

		while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
			p++;
		if (p == end)
			return nr;
		start = p;
		while (p < end && *p != ' ' && *p != '\t' && *p != '\r')
			p++;
		if (nr < MAX_TOKENS) {
			t[nr].s = start;
			t[nr].n = (size_t)(p - start);
		}
		nr++;
	}
}

static int token_is(const struct token *t, const char *s)
{
	return t->n == strlen(s) && !memcmp(t->s, s, t->n);
}

static int words_are(const struct token *t, size_t nr,
		     const char *const *words)
{
	size_t i;

	for (i = 0; i < nr; i++)
		if (!words[i] || !token_is(&t[i], words[i]))
			return 0;
	return !words[nr];
}

enum lp_prof_origin lp_ktable_header(const char *line, size_t len)
{
	static const char *const annotated[] = {
		"correct", "incorrect", "%", "Function", "File", "Line", NULL
	};
	static const char *const all[] = {
		"miss", "hit", "%", "Function", "File", "Line", NULL
	};
	struct token t[MAX_TOKENS];
	size_t nr = tokenize(line, len, t);

	if (nr > MAX_TOKENS)
		return LP_ORIGIN_PROFILE;
	if (words_are(t, nr, annotated))
		return LP_ORIGIN_KERNEL;
	if (words_are(t, nr, all))
		return LP_ORIGIN_KERNEL_ALL;
	return LP_ORIGIN_PROFILE;
}

static int is_dashes(const char *line, size_t len)
{
	struct token t[MAX_TOKENS];
	size_t nr = tokenize(line, len, t), i, j;

	if (nr != 6)
		return 0;
	for (i = 0; i < nr; i++)
		for (j = 0; j < t[i].n; j++)
			if (t[i].s[j] != '-')
				return 0;
	return 1;
}

static int bad_token(struct lp_reader *r, const char *what,
		     const struct token *t)
{
	char ex[48];

	lp_reader_excerpt(ex, sizeof(ex), t->s, t->n);
	return lp_reader_fail(r, -LP_EPARSE, "bad %s '%s'", what, ex);
}


/*
 * One row: "correct incorrect percent function file line", where correct
 * may read "correct/constant" (a site that saw constants, current kernels)
 * and percent is "X" for a site never evaluated.
 */
static int read_row(struct lp_reader *r, const struct token *t,
		    struct lp_profile *out, enum lp_prof_origin kind)
{
	struct lp_prof_site s;
	const char *slash = memchr(t[0].s, '/', t[0].n);
	struct token c = t[0];
	long want, want2;

	memset(&s, 0, sizeof(s));
	if (slash && kind == LP_ORIGIN_KERNEL) {
		struct token k = { slash + 1,
				   t[0].n - (size_t)(slash - t[0].s) - 1 };

		c.n = (size_t)(slash - t[0].s);
		if (lp_parse_u64(k.s, k.n, &s.constant) < 0)
			return bad_token(r, "constant count", &k);
	}
	if (lp_parse_u64(c.s, c.n, &s.correct) < 0)
		return bad_token(r, kind == LP_ORIGIN_KERNEL ?
				 "correct count" : "miss count", &c);
	if (lp_parse_u64(t[1].s, t[1].n, &s.incorrect) < 0)
		return bad_token(r, kind == LP_ORIGIN_KERNEL ?
				 "incorrect count" : "hit count", &t[1]);
	want = lp_kernel_percent(s.correct, s.incorrect);
	want2 = kernel_percent_wrapped(s.correct, s.incorrect);
	if (token_is(&t[2], "X")) {
		if (want >= 0)
			return lp_reader_fail(r, -LP_EPARSE,
				"percent 'X' disagrees with the counts "
				"(the kernel prints %ld)", want);
	} else {
		uint64_t pct;

		if (t[2].n > 3 || lp_parse_u64(t[2].s, t[2].n, &pct) < 0 ||
		    pct > 100)
			return bad_token(r, "percent", &t[2]);
		if ((long)pct != want && (long)pct != want2) {
			if (want < 0)
				return lp_reader_fail(r, -LP_EPARSE,
					"percent %lu disagrees with the counts "
					"(the kernel prints X)",
					(unsigned long)pct);
			return lp_reader_fail(r, -LP_EPARSE,
				"percent %lu disagrees with the counts "
				"(the kernel prints %ld)", (unsigned long)pct,
				want);
		}
	}
	if (lp_parse_lineno(t[5].s, t[5].n, &s.line) < 0)
		return bad_token(r, "line number", &t[5]);
	s.expect = kind == LP_ORIGIN_KERNEL ? LP_EXPECT_UNKNOWN : LP_EXPECT_IF;
	s.src_line = r->lineno;
	s.func = lp_pool_dup(out, t[3].s, t[3].n);
	s.file = lp_pool_dup(out, t[4].s, t[4].n);
	s.unit = lp_pool_dup(out, "", 0);
	s.cond = s.unit;
	if (!s.func || !s.file || !s.unit || lp_profile_push(out, &s) < 0)
		return lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	return 0;
}

static int is_blank_line(const struct lp_reader *r)
{
	struct token t[MAX_TOKENS];

	return !tokenize(r->line, r->len, t);
}

int lp_ktable_read(struct lp_profile *out, struct lp_reader *r,
		   enum lp_prof_origin kind)
{
	struct token t[MAX_TOKENS];
	int err;

	/* comments and blank lines before the header, as the caller saw */
	while (lp_reader_next(r))
		if (lp_ktable_header(r->line, r->len) == kind)
			break;
	if (!lp_reader_next(r) || !is_dashes(r->line, r->len))
		return lp_reader_fail(r, -LP_EPARSE,
			"expected the dashes line under the table header");
	while (lp_reader_next(r)) {
		size_t nr;

		/* a paste often ends in an empty line; that is not a row */
		if (is_blank_line(r))
			continue;
		nr = tokenize(r->line, r->len, t);
		if (nr != 6) {
			char ex[48];

			lp_reader_excerpt(ex, sizeof(ex), r->line, r->len);
			return lp_reader_fail(r, -LP_EPARSE,
				"not a row of the kernel table: '%s'", ex);
		}
		err = read_row(r, t, out, kind);
		if (err < 0)
			return err;
	}
	return 0;
}
