/*
 * stream.h - read a profile record by record (lib/profile/stream.c)
 *
 * For merging many big profiles in little memory.  The records come in
 * the file's order, each checked as lp_profile_read_file() checks it,
 * as struct lp_mrec (mrec.h), which points into the mapped file; a
 * stream only says *that* a record is bad, and the caller reads the file
 * whole to get the diagnostic a reader gives, so every command names the
 * same FILE:LINE for the same damage.
 */
#ifndef LP_STREAM_H
#define LP_STREAM_H

#include "mrec.h"
#include "profile.h"

struct lp_prof_stream;

/* Returned (positive) when a stream cannot go on; read the file whole. */
#define LP_STREAM_WHOLE 1
#define LP_STREAM_UNSORTED 2

/*! lp_prof_stream_open() :
 *  Opens @path and reads its header and meta records; the records after
 *  them are read about @bufsize bytes at a time.  @diag must outlive the
 *  stream.
 *  @return : 0 with *out set; LP_STREAM_WHOLE when @path is "-", not a
 *            regular file (a pipe cannot be read twice), missing, or not
 *            in the likelyprof format (a kernel table, CSV, garbage); or
 *            -LP_E* with @diag filled.
 */
int lp_prof_stream_open(struct lp_prof_stream **out, const char *path,
			size_t bufsize, struct lp_diag *diag);

/* The header and meta records read by open. */
const struct lp_profile *lp_prof_stream_meta(const struct lp_prof_stream *s);

/*! lp_prof_stream_next() :
 *  @return : 1 with *rec set (valid until the next call), 0 at
 *            the end (the end record checked), LP_STREAM_UNSORTED when a
 *            record is out of the writer's order or a meta record comes
 *            after a site, or -LP_E* with the diagnostic filled.
 */
int lp_prof_stream_next(struct lp_prof_stream *s, const struct lp_mrec **rec);

/*! lp_prof_stream_hook() :
 *  Has @hook called on every record as it is read (@n is 1), before it
 *  is returned, by whichever thread read it: a merge judges each record
 *  there (its vote), on the helper's core, while it is in the cache.
 *  Set it before lp_prof_stream_prefetch().
 */
void lp_prof_stream_hook(struct lp_prof_stream *s,
			 void (*hook)(void *ctx, struct lp_mrec *recs,
				      size_t n),
			 void *ctx);

/*! lp_prof_stream_prefetch() :
 *  Starts a thread that reads and parses the next chunk of @s while the
 *  caller works on the current one: a merge of a few big profiles then
 *  uses a second core for half its work.  The diagnostic is then written
 *  by that thread, and read by the caller only after a failed next.
 *  @return : 0, or -1 when no thread could start (@s works without).
 */
int lp_prof_stream_prefetch(struct lp_prof_stream *s);

/* Closes and frees @s; NULL is a no-op. */
void lp_prof_stream_close(struct lp_prof_stream *s);

#endif /* LP_STREAM_H */
