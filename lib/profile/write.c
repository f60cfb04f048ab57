/*
 * write.c - the records of a profile's sites, with what a judged or
 * merged site carries beyond the runtime's (sure, votes, samples, ways)
 *
 * The fields every site has are written by the runtime's formatter
 * (lib/runtime/format.c), so that there is one writer of the format.
 */
#include <string.h>

#include "profile.h"

const char *lp_sure_name(enum lp_sure s)
{
	switch (s) {
	case LP_SURE_MEASURED:
		return "";
	case LP_SURE_EXACT:
		return "exact";
	case LP_SURE_ESTIMATED:
		return "estimated";
	case LP_SURE_AMBIGUOUS:
		return "ambiguous";
	case LP_SURE_UNJUDGEABLE:
		return "unjudgeable";
	}
	return "";
}

int lp_sure_parse(const char *s, size_t n, enum lp_sure *out)
{
	enum lp_sure k;

	/* an empty field would be a measured site written the long way */
	for (k = LP_SURE_EXACT; k <= LP_SURE_UNJUDGEABLE; k++) {
		const char *name = lp_sure_name(k);
		size_t i;

		for (i = 0; i < n && name[i] == s[i]; i++)
			;
		if (i == n && !name[n]) {
			*out = k;
			return 0;
		}
	}
	return -1;
}

void lp_sink_site_sure(struct lp_sink *sink, uint64_t correct,
		       uint64_t incorrect, uint64_t constant, long expect,
		       const char *file, long line, const char *func,
		       const char *unit, const char *cond, enum lp_sure sure)
{
	lp_sink_site_fields(sink, correct, incorrect, constant, expect, 0,
			 file, line, func, unit, cond);
	if (sure != LP_SURE_MEASURED) {
		lp_sink_putc(sink, '\t');
		lp_sink_str(sink, lp_sure_name(sure));
	}
	lp_sink_putc(sink, '\n');
}

/* A text field, escaped unless the reader found it needs no escape. */
static void sink_text(struct lp_sink *sink, const char *s, unsigned plain,
		      unsigned bit)
{
	if (plain & bit)
		lp_sink_str(sink, s);
	else
		lp_sink_escaped(sink, s);
}

static char *put_str(char *p, const char *s, size_t n, char sep)
{
	memcpy(p, s, n);
	p[n] = sep;
	return p + n + 1;
}

#define PLAIN_ALL \
	(LP_PLAIN_FILE | LP_PLAIN_FUNC | LP_PLAIN_UNIT | LP_PLAIN_COND)

/* The text fields, from expect to cond, with no escape to make. */
static char *put_plain_text(char *p, const struct lp_prof_site *s,
			    const size_t *n)
{
	if (s->expect == LP_EXPECT_UNKNOWN) {
		*p++ = '?';
	} else if (s->expect == LP_EXPECT_IF) {
		*p++ = 'i';
		*p++ = 'f';
	} else if (s->expect < 0) {
		*p++ = '-';
		p = lp_put_u64(p, (uint64_t)0 - (uint64_t)s->expect);
	} else {
		p = lp_put_u64(p, (uint64_t)s->expect);
	}
	p = lp_put_prob(p, s->prob);
	*p++ = '\t';
	p = put_str(p, s->file, n[0], '\t');
	p = lp_put_u64(p, (uint64_t)s->line);
	*p++ = '\t';
	p = put_str(p, s->func, n[1], '\t');
	p = put_str(p, s->unit, n[2], '\t');
	p = put_str(p, s->cond, n[3], '\t');
	return p - 1;           /* the TAB goes only before sure */
}

/* What follows cond: sure, votes, samples, ways, and the newline. */
static char *put_tail(char *p, const struct lp_prof_site *s)
{
	const char *sure = lp_sure_name(s->sure);

	if (s->sure != LP_SURE_MEASURED || s->has_votes || s->has_samples ||
	    s->has_procs) {
		*p++ = '\t';
		p = put_str(p, sure, strlen(sure), '\t');
		p--;
	}
	if (s->has_votes || s->has_samples || s->has_procs)
		*p++ = '\t';
	if (s->has_votes) {
		p = lp_put_u64(p, s->votes_right);
		*p++ = '\t';
		p = lp_put_u64(p, s->votes_wrong);
	} else if (s->has_samples || s->has_procs) {
		*p++ = '\t';
	}
	if (s->has_samples) {
		*p++ = '\t';
		p = lp_put_u64(p, s->samp_right);
		*p++ = '\t';
		p = lp_put_u64(p, s->samp_wrong);
	} else if (s->has_procs) {
		*p++ = '\t';
		*p++ = '\t';
	}
	if (s->has_procs) {
		*p++ = '\t';
		p = lp_put_u64(p, s->procs_right);
		*p++ = '\t';
		p = lp_put_u64(p, s->procs_wrong);
		*p++ = '\t';
		p = lp_put_u64(p, s->procs_both);
	}
	*p++ = '\n';
	return p;
}

/* The record's first fields, up to the TAB before expect. */
static char *put_head(char *p, const struct lp_prof_site *s)
{
	p = put_str(p, "site", 4, '\t');
	p = lp_put_u64(p, s->correct);
	*p++ = '\t';
	p = lp_put_u64(p, s->incorrect);
	*p++ = '\t';
	p = lp_put_u64(p, s->constant);
	*p++ = '\t';
	return p;
}

/* What put_head() and put_tail() write at most: twelve numbers and words. */
#define HEAD_TAIL_MAX (12 * 21 + 32)

/*
 * The record of a site whose text needs no escape, formatted straight
 * into the buffer when it has room: a merge writes a million of them,
 * and a call per field was most of its writing.  The text is @span
 * (@span_n bytes, expect to cond as the writer spells them) when not
 * NULL.  0 when it had no room.
 */
static int put_plain_site(struct lp_sink *sink, const struct lp_prof_site *s,
			  const char *span, size_t span_n)
{
	size_t n[4] = { 0, 0, 0, 0 }, need = span_n;
	char *p;

	if (!span) {
		n[0] = strlen(s->file);
		n[1] = strlen(s->func);
		n[2] = strlen(s->unit);
		n[3] = strlen(s->cond);
		/* and expect and line */
		need = n[0] + n[1] + n[2] + n[3] + 2 * 21 + 8 + LP_PROB_MAX;
	}
	need += HEAD_TAIL_MAX;
	if (sink->error || need > sink->cap - sink->len)
		return 0;
	p = put_head(sink->buf + sink->len, s);
	if (span) {
		memcpy(p, span, span_n);
		p += span_n;
	} else {
		p = put_plain_text(p, s, n);
	}
	sink->len = (size_t)(put_tail(p, s) - sink->buf);
	return 1;
}

void lp_sink_site_span(struct lp_sink *sink, const struct lp_prof_site *s,
		       const char *span, size_t span_n)
{
	char tmp[HEAD_TAIL_MAX], *p;

	if (put_plain_site(sink, s, span, span_n))
		return;
	/* no room: the sink's own appends flush as they go */
	p = put_head(tmp, s);
	lp_sink_bytes(sink, tmp, (size_t)(p - tmp));
	lp_sink_bytes(sink, span, span_n);
	p = put_tail(tmp, s);
	lp_sink_bytes(sink, tmp, (size_t)(p - tmp));
}

void lp_sink_prof_site(struct lp_sink *sink, const struct lp_prof_site *s)
{
	if (!sink->unexpand && (s->plain & PLAIN_ALL) == PLAIN_ALL &&
	    s->line >= 0 && put_plain_site(sink, s, NULL, 0))
		return;
	if (sink->unexpand || !s->plain) {
		lp_sink_site_fields(sink, s->correct, s->incorrect, s->constant,
				 s->expect, s->prob, s->file, s->line,
				 s->func, s->unit, s->cond);
	} else {
		lp_sink_site_counts(sink, s->correct, s->incorrect, s->constant,
				 s->expect, s->prob);
		sink_text(sink, s->file, s->plain, LP_PLAIN_FILE);
		lp_sink_putc(sink, '\t');
		lp_sink_long(sink, s->line);
		lp_sink_putc(sink, '\t');
		sink_text(sink, s->func, s->plain, LP_PLAIN_FUNC);
		lp_sink_putc(sink, '\t');
		sink_text(sink, s->unit, s->plain, LP_PLAIN_UNIT);
		lp_sink_putc(sink, '\t');
		sink_text(sink, s->cond, s->plain, LP_PLAIN_COND);
	}
	/*
	 * votes come after sure, so a site with votes writes it, maybe
	 * empty; samples come after votes, which are then empty if need be
	 */
	if (s->sure != LP_SURE_MEASURED || s->has_votes || s->has_samples ||
	    s->has_procs) {
		lp_sink_putc(sink, '\t');
		lp_sink_str(sink, lp_sure_name(s->sure));
	}
	if (s->has_votes) {
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->votes_right);
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->votes_wrong);
	} else if (s->has_samples || s->has_procs) {
		lp_sink_str(sink, "\t\t");
	}
	if (s->has_samples) {
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->samp_right);
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->samp_wrong);
	} else if (s->has_procs) {
		lp_sink_str(sink, "\t\t");
	}
	if (s->has_procs) {
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->procs_right);
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->procs_wrong);
		lp_sink_putc(sink, '\t');
		lp_sink_u64(sink, s->procs_both);
	}
	lp_sink_putc(sink, '\n');
}

