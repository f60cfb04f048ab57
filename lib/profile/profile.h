/*
 * profile.h - the in-memory profile, its reader, writer and merge
 *
 * Internal API of the tools' profile library (lib/profile/), used by
 * tools/; the runtime writes profiles with lib/runtime/format.h only.
 * Not installed.  doc/FORMAT.md is
 * the format this code reads and writes.
 *
 * Invariants:
 *  - every string in a struct lp_prof_site is owned by the profile that
 *    holds it and is NUL-terminated; embedded NULs cannot occur (the
 *    reader rejects them).  The strings live in the profile's string pool
 *    (a million sites are four million strings): never free() one, and
 *    add sites with lp_profile_add(), which copies into the pool;
 *  - functions return 0 or a negative -LP_E* code (include/likelyprof.h)
 *    and never print or exit; a parse error fills a struct lp_diag with
 *    "FILE:LINE: reason".
 */
#ifndef LP_PROFILE_H
#define LP_PROFILE_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "format.h"
#include "likelyprof.h"


/* expect values that are not numbers */

/* Where a profile came from, so reports can say what they show. */
enum lp_prof_origin {
	LP_ORIGIN_PROFILE = 0,     /* a likelyprof profile */
	LP_ORIGIN_KERNEL = 1,      /* trace_stat/branch_annotated */
	LP_ORIGIN_KERNEL_ALL = 2,  /* trace_stat/branch_all */
	LP_ORIGIN_CSV = 3          /* `likelyprof report --format csv` */
};

/*
 * How sure a site's counts are.  A profile from an instrumented build
 * counts every evaluation (measured, the default, written as nothing); one
 * that `likelyprof judge` read from an unmodified binary says per site
 * whether its counts are those of one conditional jump (exact), of several
 * jumps it could not tell apart (ambiguous), or whether no jump was left
 * to count (unjudgeable: cmov, folded, threaded); branch samples give
 * estimates.  The order is from surest to least sure: merging keeps the
 * least sure of the records it sums.
 */
enum lp_sure {
	LP_SURE_MEASURED = 0,   /* counted by the instrumentation */
	LP_SURE_EXACT,          /* one jump, or copies of one jump */
	LP_SURE_ESTIMATED,      /* scaled from branch samples */
	LP_SURE_AMBIGUOUS,      /* several candidate jumps */
	LP_SURE_UNJUDGEABLE     /* no branch left to count */
};

/*! lp_sure_name() / lp_sure_parse() :
 *  The words of the profile's `sure` field ("" for measured).  parse
 *  returns 0, or -1 for a word it does not know.
 */
const char *lp_sure_name(enum lp_sure s);
int lp_sure_parse(const char *s, size_t n, enum lp_sure *out);

struct lp_prof_site {
	char *file;
	char *func;
	char *unit;
	char *cond;
	long line;
	long expect;            /* LP_EXPECT_UNKNOWN, LP_EXPECT_IF or value */
	uint64_t correct;
	uint64_t incorrect;
	uint64_t constant;
	size_t src_line;        /* input line it was read from, or 0 */
	enum lp_sure sure;      /* LP_SURE_MEASURED unless judged */
	/*
	 * LP_PLAIN_* bits of the text fields known to need no escape (the
	 * reader saw no backslash in them), which the writer then copies
	 * as they are.  Whoever changes a string clears its bit; a copy
	 * by lp_profile_add() has none.  A byte, beside sure's padding: a
	 * million sites are a million of these structs.
	 */
	unsigned char plain;
	/*
	 * How many of the profiles summed here judged the hint right and
	 * how many wrong (doc/FORMAT.md); a profile of one run has none
	 * (has_votes 0) and is judged by its counts when merged.
	 */
	unsigned char has_votes;
	/*
	 * A site judged from branch samples (sure estimated) keeps the
	 * sampled executions its counts were scaled from: how many of them
	 * the hint was right and wrong on.  They, not the estimates, say
	 * how wide the confidence interval is; has_samples 0 for any other.
	 */
	unsigned char has_samples;
	uint64_t votes_right;
	uint64_t votes_wrong;
	uint64_t samp_right;
	uint64_t samp_wrong;
	/*
	 * How many of the processes summed here (doc/FORMAT.md, "Ways")
	 * went only the hint's way all through, only against it, or both
	 * ways; has_procs 0 where that is unknown (a profile of one process
	 * says it with its counts, a kernel table cannot).
	 */
	unsigned char has_procs;
	/*
	 * The probability a __builtin_expect_with_probability stated, as
	 * 1 + millionths (0: none), the "@0.9" after expect (doc/FORMAT.md);
	 * in has_procs' padding.
	 */
	unsigned int prob;
	uint64_t procs_right;
	uint64_t procs_wrong;
	uint64_t procs_both;
};

#define LP_PLAIN_FILE 1u
#define LP_PLAIN_FUNC 2u
#define LP_PLAIN_UNIT 4u
#define LP_PLAIN_COND 8u

struct lp_prof_meta {
	char *key;
	char *value;
};

struct lp_profile {
	struct lp_prof_site *sites;
	size_t nr, alloc;
	struct lp_prof_meta *meta;
	size_t meta_nr, meta_alloc;
	enum lp_prof_origin origin;
	char *name;             /* the path it was read from, or NULL */
	struct lp_strpool *strings;     /* owns the sites' strings */
};

#define LP_PROFILE_INIT \
	{ NULL, 0, 0, NULL, 0, 0, LP_ORIGIN_PROFILE, NULL, NULL }

/* A reader's complaint: where and why. */
struct lp_diag {
	char msg[512];          /* "FILE:LINE: reason", or "FILE: reason" */
};

/*! lp_profile_init() / lp_profile_release() :
 *  init makes an empty profile; release frees everything it owns and leaves
 *  it empty and reusable.  release(NULL) is a no-op.
 */
void lp_profile_init(struct lp_profile *p);
void lp_profile_release(struct lp_profile *p);

/*! lp_profile_add() :
 *  Appends a copy of @s (its strings are duplicated).
 *  @return : 0 or -LP_ENOMEM.
 */
int lp_profile_add(struct lp_profile *p, const struct lp_prof_site *s);

/* The meta key that may repeat: "HEX PATH", one per object and build. */
#define LP_META_BUILD "build"
/*
 * The workload a profile comes from (run --label, merge --label); it
 * repeats too: a merge keeps every input's, each once, so a verdict can
 * say which workloads it rests on.
 */
#define LP_META_LABEL "label"

/*! lp_meta_repeats() :
 *  Is @key one that may repeat with different values (build, label)?
 */
int lp_meta_repeats(const char *key);

/*! lp_profiles_labels() :
 *  The distinct labels of the @n profiles @p, in the order they come,
 *  as a malloc'd array of pointers into their meta (valid while the
 *  profiles are), for the caller to free.
 *  @return : how many, or -LP_ENOMEM.
 */
long lp_profiles_labels(const struct lp_profile *p, size_t n,
			const char ***labels);

/*! lp_profile_set_meta() :
 *  Sets meta @key to a copy of @value, replacing an earlier value; for
 *  a key that repeats, adds @value unless the profile has it already.  It
 *  looks through every record: for one key at a time, not for many.
 */
int lp_profile_set_meta(struct lp_profile *p, const char *key,
			const char *value);

/*! lp_merged_count() :
 *  How many original profiles @p stands for: its "merged" meta, or 1.
 */
uint64_t lp_merged_count(const struct lp_profile *p);

/*! lp_profile_one_process() :
 *  Is @p the profile of one process, whose counts say per site whether
 *  it went one way all through (doc/FORMAT.md, "Ways")?  A likelyprof
 *  profile that was not merged; not a kernel table, a CSV export or a
 *  profile that `judge` estimated from samples.
 */
int lp_profile_one_process(const struct lp_profile *p);

/*! lp_profile_add_meta() / lp_meta_tidy() :
 *  add appends a copy of @key and @value without looking for an earlier
 *  value, so that many are added in linear time; tidy then keeps the
 *  last value of each key and each value of a repeating key once, in
 *  the order the writer uses (by key; builds as they came, labels by
 *  name), in O(n log n).  Readers
 *  leave their profiles tidy.
 *  @return : 0 or -LP_ENOMEM (tidy: the profile is then as it was).
 */
int lp_profile_add_meta(struct lp_profile *p, const char *key,
			const char *value);
int lp_meta_tidy(struct lp_profile *p);

/*! lp_profile_read_buf() :
 *  Parses @len bytes as a likelyprof profile or a kernel table (told apart
 *  by the first non-comment line) and appends its sites to @p.
 *  @name : the file name used in diagnostics.
 *  @return : 0, or -LP_EPARSE / -LP_EVERSION / -LP_ETRUNC / -LP_EBINARY /
 *            -LP_EEMPTY / -LP_ENOMEM with @diag filled.
 */
int lp_profile_read_buf(struct lp_profile *p, const char *name,
			const char *buf, size_t len, struct lp_diag *diag);

/*! lp_profile_read_file() :
 *  Reads @path ("-" is standard input) with lp_profile_read_buf().
 *  @return : as lp_profile_read_buf(), or -LP_ENOENT / -LP_EIO with @diag
 *            filled ("PATH: No such file or directory").
 */
int lp_profile_read_file(struct lp_profile *p, const char *path,
			 struct lp_diag *diag);

/*! lp_profile_merge() :
 *  Adds @src into @dst, pairing records by key and order as
 *  doc/FORMAT.md says.  A count that would pass 2^64-1 saturates.
 *  @return : 0 or -LP_ENOMEM (dst is then unchanged).
 */
int lp_profile_merge(struct lp_profile *dst, const struct lp_profile *src);

/*! lp_site_cmp() :
 *  The writer's canonical order of two sites (doc/FORMAT.md): <0, 0
 *  when they share a key, or >0.
 */
int lp_site_cmp(const struct lp_prof_site *a, const struct lp_prof_site *b);

/*! lp_profile_sort() :
 *  Puts records in the writer's canonical order (stable).
 */
void lp_profile_sort(struct lp_profile *p);

/*! lp_profile_write() :
 *  Writes @p, sorted, in format version 1.
 *  @return : 0 or -LP_EIO (errno set) when @out reports an error.
 */
int lp_profile_write(struct lp_profile *p, FILE *out);

/*-************************************
 *  Writing records of a profile's sites
 **************************************/
/* The generic writer of records is the runtime's: lib/runtime/format.h. */

/*! lp_sink_site_sure() :
 *  As lp_sink_site(), with the optional `sure` field after cond when
 *  @sure is not LP_SURE_MEASURED (so measured profiles keep ten fields).
 */
void lp_sink_site_sure(struct lp_sink *sink, uint64_t correct,
		       uint64_t incorrect, uint64_t constant, long expect,
		       const char *file, long line, const char *func,
		       const char *unit, const char *cond,
		       enum lp_sure sure);

/*! lp_sink_prof_site() :
 *  Appends the record of @s: its sure field when it is not measured or
 *  when it has votes, and then its votes.
 */
void lp_sink_prof_site(struct lp_sink *sink, const struct lp_prof_site *s);

/*! lp_sink_site_span() :
 *  As lp_sink_prof_site(), with the text fields (expect to cond) copied
 *  from @span, @span_n bytes spelled as the writer spells them (a
 *  record's text read from a profile, with no escape in it): @s's own
 *  text is not read, and need not be NUL-terminated.
 */
void lp_sink_site_span(struct lp_sink *sink, const struct lp_prof_site *s,
		       const char *span, size_t span_n);

/* A sink that flushes into a stdio stream. */
struct lp_file_sink {
	struct lp_sink sink;
	FILE *out;
};

/*! lp_file_sink_init() :
 *  Makes @fs write to @out through @buf (@cap bytes).
 */
void lp_file_sink_init(struct lp_file_sink *fs, FILE *out, char *buf,
		       size_t cap);


#endif /* LP_PROFILE_H */
