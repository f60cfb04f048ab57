/*
 * format.h - the one writer of the profile format's records
 * (lib/runtime/format.c; doc/FORMAT.md)
 *
 * The runtime writes profiles from an exit handler or a signal handler,
 * where stdio and malloc are off limits.  These helpers write into a
 * caller's buffer and are what the tools' writer (lib/profile/) uses
 * too, so there is one writer of the format.  Everything here is
 * async-signal-safe.  Not installed.
 */
#ifndef LP_FORMAT_H
#define LP_FORMAT_H

#include <stddef.h>
#include <stdint.h>

#define LP_PROFILE_VERSION 1
#define LP_PROFILE_MAGIC "likelyprof-profile"

/*
 * A text field of a site record, escaped once: the sites of one unit name
 * their file and unit, and those of one function the function, by the
 * same address.  @key is the string's address; a NULL key is the empty
 * text, so a zeroed entry is valid.  LP_TEXT_MAX bytes at most: a text
 * that needs more is written as it comes (len LP_TEXT_NONE).
 */
#define LP_TEXT_MAX 64
#define LP_TEXT_NONE ((size_t)-1)
struct lp_text {
	const char *key;
	size_t len;
	char text[LP_TEXT_MAX];
};

/* The runtime's cache of the last file, function and unit written. */
struct lp_texts {
	struct lp_text file, func, unit;
};

/* A text sink the writer appends to; flush() empties buf when it is full. */
struct lp_sink {
	char *buf;
	size_t len, cap;
	/* writes buf[0..len) and sets len to 0; returns 0 or -LP_EIO */
	int (*flush)(struct lp_sink *sink);
	void *opaque;                         /* for flush() */
	int error;                            /* first flush error, sticky */
	int unexpand;   /* lp_sink_site() writes cond with lp_sink_cond() */
	/*
	 * Zeroed, or NULL: the texts lp_sink_site() writes from, so that a
	 * dump of a short process costs little per site.  The strings must
	 * not change while the sink is in use.
	 */
	struct lp_texts *texts;
};

/*! lp_sink_bytes() / lp_sink_str() / lp_sink_u64() / lp_sink_long() :
 *  Append raw bytes, a NUL-terminated string, or a decimal number.
 */
void lp_sink_bytes(struct lp_sink *sink, const char *s, size_t n);
void lp_sink_str(struct lp_sink *sink, const char *s);
void lp_sink_u64(struct lp_sink *sink, uint64_t v);
void lp_sink_long(struct lp_sink *sink, long v);

/*! lp_sink_escaped() :
 *  Appends @s with the escapes of doc/FORMAT.md.
 */
void lp_sink_escaped(struct lp_sink *sink, const char *s);

/*! lp_sink_cond() :
 *  Appends a condition's text escaped, with hints the header expanded
 *  inside it (a nested likely()) written back as __builtin_expect(X, C).
 */
void lp_sink_cond(struct lp_sink *sink, const char *cond);

/*! lp_sink_header() / lp_sink_meta() / lp_sink_site() / lp_sink_end() :
 *  Append one record each, with its newline.  @file etc. may be NULL,
 *  written as empty.
 */
void lp_sink_header(struct lp_sink *sink);
void lp_sink_meta(struct lp_sink *sink, const char *key, const char *value);
void lp_sink_site(struct lp_sink *sink, uint64_t correct, uint64_t incorrect,
		  uint64_t constant, long expect, unsigned int prob,
		  const char *file, long line, const char *func,
		  const char *unit, const char *cond);
void lp_sink_end(struct lp_sink *sink, uint64_t count);

/*
 * A runtime site's counts, in the order correct, incorrect, constant
 * (lib/runtime/).  Here because the runtime's writer reads them.
 */
struct lp_cell {
	unsigned long long total[3];    /* exited threads, unloaded modules */
	/* a dump's scratch: the live threads' counts; 0 between dumps */
	unsigned long long sum[3];
};

/*! lp_sink_record() :
 *  lp_sink_site() of the runtime's record @s (struct lp_site,
 *  likelyprof.h): its expect, stated probability, file, line, unit and
 *  cond, with @func for its function (a C++ site's plain name).  Six
 *  arguments, all in registers.
 */
struct lp_site;
void lp_sink_record(struct lp_sink *sink, uint64_t correct,
		    uint64_t incorrect, uint64_t constant,
		    const struct lp_site *s, const char *func);

/*! lp_sink_records() :
 *  The @n records of a module's section at @s, each with its cell in
 *  @cells (the sums taken: zeroed), written as the runtime writes them:
 *  alias records and records of an ABI this writer does not know are
 *  passed over, and a folded evaluation (constant) counts as correct
 *  too, but for an "if".  One call per module, not per record: a short
 *  process writes every site once.
 *  @return : the records written.
 */
uint64_t lp_sink_records(struct lp_sink *sink, const struct lp_site *s,
			 size_t n, struct lp_cell *cells);

/*
 * The pieces of a site record, for the tools' writer of whole profile
 * sites (lib/profile/write.c): one byte; the fields up to expect and
 * the TAB after it; the fields up to cond, without the newline; and a
 * decimal at @p, returning the end.
 */
void lp_sink_putc(struct lp_sink *sink, char c);
void lp_sink_site_counts(struct lp_sink *sink, uint64_t correct,
			 uint64_t incorrect, uint64_t constant, long expect,
			 unsigned int prob);
void lp_sink_site_fields(struct lp_sink *sink, uint64_t correct,
			 uint64_t incorrect, uint64_t constant, long expect,
			 unsigned int prob, const char *file, long line,
			 const char *func, const char *unit, const char *cond);
char *lp_put_u64(char *p, uint64_t v);

/*! lp_put_prob() :
 *  Writes a stated probability (@prob: 1 + millionths, as a record's abi
 *  holds it; 0 for none, which writes nothing) as the suffix of the
 *  expect field, "@0.9", at @p: at most LP_PROB_MAX bytes.
 *  @return : the end.
 */
#define LP_PROB_MAX 10
char *lp_put_prob(char *p, unsigned int prob);

/*! lp_prob_text() :
 *  The number alone, as a string in @buf (LP_PROB_MAX bytes), "0.9",
 *  as messages and the source spell it; "" for 0.  @return : @buf.
 */
const char *lp_prob_text(char *buf, unsigned int prob);

/*! lp_sink_finish() :
 *  Flushes what is left.  @return : 0, or the sticky error.
 */
int lp_sink_finish(struct lp_sink *sink);

#endif /* LP_FORMAT_H */
