/*
 * internal.h - helpers shared by the profile code in lib/, nowhere else
 *
 * The reader walks a buffer line by line and turns the first problem into
 * the one diagnostic the caller gets ("FILE:LINE: reason").  profile.c
 * reads the likelyprof format, ktable.c the kernel's tables; both append to
 * a scratch profile that is moved into the caller's only on success, so a
 * failed read changes nothing.
 */
#ifndef LP_INTERNAL_H
#define LP_INTERNAL_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "profile.h"

struct lp_reader {
	const char *name;       /* for diagnostics */
	const char *buf, *end;
	const char *next;       /* where the next line starts */
	const char *line;       /* the current line, without its LF */
	size_t len;
	size_t lineno;          /* 1-based number of the current line */
	int has_newline;        /* the current line ended in LF */
	struct lp_diag *diag;
};

void lp_reader_init(struct lp_reader *r, const char *name, const char *buf,
		    size_t len, struct lp_diag *diag);

/*
 * lp_profile_read_buf() reads a profile of at least this many bytes in two
 * threads; lp_profile_read_buf_split() takes the bound as an argument, so
 * that tests compare the two readings on small inputs (0: always split,
 * SIZE_MAX: never).
 */
#define LP_READ_SPLIT_MIN ((size_t)8 << 20)
int lp_profile_read_buf_split(struct lp_profile *p, const char *name,
			      const char *buf, size_t len,
			      struct lp_diag *diag, size_t split_min);

/*
 * Where a reading of part of a profile stands.  A whole profile is read
 * in one part; a big one in two (read_split() in profile.c), a stream in
 * many (stream.c): a first part knows the header and may end without an
 * end record, a second part starts after the header and leaves the end
 * record's count to be checked against the parts before it.
 */
struct lp_read_state {
	int seen_header, seen_end;
	int first_part;         /* may end without the end record */
	int second_part;        /* the end record's count is checked later */
	uint64_t sites;         /* site records read */
	uint64_t end_count;     /* what the end record said (second part) */
	size_t end_line;        /* ... and on which line, or 0 */
};

/*
 * Reads the likelyprof records of @r's lines into @out, carrying what
 * the lines before them established in @st.
 * @return : 0 or a negative -LP_E* with the diagnostic filled.
 */
int lp_read_records(struct lp_profile *out, struct lp_reader *r,
		    struct lp_read_state *st);

/* The error of an end record that counts @count sites of @sites read. */
int lp_end_count_error(struct lp_reader *r, uint64_t count, uint64_t sites);

/*
 * Empties @p of sites, meta and strings but keeps its memory for the
 * next chunk of records: a stream reads millions of them through it.
 */
void lp_profile_clear(struct lp_profile *p);

/* Steps to the next line; returns 0 at the end of the buffer. */
int lp_reader_next(struct lp_reader *r);

/*
 * Fills the diagnostic with "NAME:LINE: " and the message and returns
 * @code, so a parser can `return lp_reader_fail(r, -LP_EPARSE, ...)`.
 */
int lp_reader_fail(struct lp_reader *r, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Copies @n bytes of @s into @out for quoting in a message: at most 40
 * bytes, anything unprintable as '?', "..." when cut.
 */
void lp_reader_excerpt(char *out, size_t size, const char *s, size_t n);

/*
 * Parses the @n bytes at @s as an unsigned decimal without sign, leading
 * zero (other than a lone 0) or anything else.  @return : 0, or -1 when it
 * is not one or does not fit.
 */
int lp_parse_u64(const char *s, size_t n, uint64_t *v);

/* A source line: decimal, 1 to 2^31-1.  @return : 0 or -1. */
int lp_parse_lineno(const char *s, size_t n, long *v);

/*
 * A stated probability as lp_put_prob() writes it ("0", "1", "0.9", at
 * most six places and no trailing zero) into *@prob, 1 + millionths.
 * @return : 0, or -1 for any other spelling.
 */
int lp_parse_prob(const char *s, size_t n, unsigned int *prob);

/*
 * The expect field @s of *@n bytes: a stated probability after an '@'
 * into *@prob (0: none), and *@n cut to the value before it; both
 * readers (records.c, mrec.c) take the field so.
 * @return : 0, or -1 for a bad number or one after "if".
 */
int lp_split_expect(const char *s, size_t *n, unsigned int *prob);

/*
 * Appends @s to @p as it is: its strings must be in @p's pool already.
 * @return : 0 or -LP_ENOMEM.
 */
int lp_profile_push(struct lp_profile *p, const struct lp_prof_site *s);

/*
 * The string pool of a profile: strings are bump-allocated in chunks that
 * lp_profile_release() frees at once.  lp_pool_reserve() returns room for
 * @n bytes (or NULL: out of memory) that stays the pool's only once
 * lp_pool_commit() keeps the first @n of them; a reservation that is not
 * committed is reused by the next one.
 */
char *lp_pool_reserve(struct lp_profile *p, size_t n);
void lp_pool_commit(struct lp_profile *p, size_t n);
/* A NUL-terminated copy of the @n bytes at @s, or NULL. */
char *lp_pool_dup(struct lp_profile *p, const char *s, size_t n);

/*
 * The model's own helpers, for the readers that build it (profile.c):
 * lp_grow() makes room for @need elements of @size bytes in *@array
 * (0 or -1); lp_pool_splice() moves @from's strings into @to's pool;
 * lp_meta_take() appends a meta record whose malloc'd @key and @value the
 * profile then owns (0 or -LP_ENOMEM).
 */
int lp_grow(void **array, size_t *alloc, size_t need, size_t size);
void lp_pool_splice(struct lp_profile *to, struct lp_profile *from);
int lp_meta_take(struct lp_profile *p, char *key, char *value);

/* strcmp() where a NULL string (a field never set) is "". */
static inline int lp_strcmp0(const char *a, const char *b)
{
	return strcmp(a ? a : "", b ? b : "");
}

/* A hex digit of an escape, lower case as the writer makes it, or -1. */
static inline int lp_hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Counts saturate instead of wrapping: a sum is never smaller than a part. */
static inline uint64_t lp_sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*-************************************
 *  Kernel tables (ktable.c)
 **************************************/
/*
 * Which header @line (@len bytes) is: LP_ORIGIN_KERNEL for
 * branch_annotated, LP_ORIGIN_KERNEL_ALL for branch_all, or
 * LP_ORIGIN_PROFILE when it is neither.
 */
enum lp_prof_origin lp_ktable_header(const char *line, size_t len);

/*
 * Reads a kernel table from the start of @r's buffer into @out, which is
 * empty.  @return : 0 or a negative -LP_E* code with the diagnostic filled.
 */
int lp_ktable_read(struct lp_profile *out, struct lp_reader *r,
		   enum lp_prof_origin kind);

/*-************************************
 *  CSV (lib/profile/csv.c)
 **************************************/
/* True when @line is the header `report --format csv` writes. */
int lp_csv_header(const char *line, size_t len);

/*
 * Reads the CSV rows after the header into @out, unquoting per RFC 4180.
 * @return : 0 or a negative -LP_E* with the diagnostic filled.
 */
int lp_csv_read(struct lp_profile *out, struct lp_reader *r);

#endif /* LP_INTERNAL_H */
