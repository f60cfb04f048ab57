/*
 * mrec.h - a site record as a merge holds it (lib/profile/mrec.c)
 *
 * A merge reads every record of its inputs once, compares its key with
 * the other inputs' and adds its counts: decoding its text into a string
 * pool only to write the same bytes again was most of its work.  An mrec
 * points into the line it was read from instead, when the line's text
 * needs no escape (nearly every record); any other line is read by the
 * profile reader (lp_read_records()), which decodes it, so that what is
 * accepted and every diagnostic stay the reader's.
 */
#ifndef LP_MREC_H
#define LP_MREC_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct lp_mrec {
	/*
	 * The counts and the rest; file, func, unit and cond are not
	 * NUL-terminated when span is set (they point into the line, or
	 * hold its escapes decoded).
	 */
	struct lp_prof_site s;
	uint32_t file_n, func_n, unit_n, cond_n;
	/*
	 * The line's bytes from expect to cond, when each is spelled as the
	 * writer spells it (a number has one spelling, an escaped byte one
	 * escape): two records of one key then have equal spans, and the
	 * writer copies it as it is.  NULL for a record the reader read.
	 */
	const char *span;
	size_t span_n;
	signed char vote;       /* a merge's vote (lp_policy_vote()) */
	unsigned char way;      /* enum lp_way of one process, or 0 */
};

/*! lp_mrec_parse() :
 *  Reads the site record @line (@len bytes, without its LF) into @m,
 *  when every field is in the one spelling the writer gives it; text
 *  with escapes is decoded into @pool's strings (the span stays).
 *  @limit is where the readable memory ends (a scan may read up to
 *  it).  Anything else is left to the reader, which accepts or rejects
 *  it.
 *  @return : 1 when @m is the record, 0 when the reader must read it.
 */
int lp_mrec_parse(struct lp_mrec *m, const char *line, size_t len,
		  const char *limit, struct lp_profile *pool);

/*! lp_mrec_of_site() :
 *  Makes @m of a decoded site @s, whose strings must outlive @m.
 */
void lp_mrec_of_site(struct lp_mrec *m, const struct lp_prof_site *s);

/*! lp_mrec_cmp() :
 *  The order of lp_site_cmp(), on records of either kind.
 */
int lp_mrec_cmp(const struct lp_mrec *a, const struct lp_mrec *b);

#endif /* LP_MREC_H */
