/*
 * fuzz-profile.c - the profile reader on any bytes, and what follows a
 * successful read: sort, write, merge and fold
 *
 * Properties checked (besides "no crash, no sanitizer report"):
 *  - a failed read returns a documented error with a diagnostic and
 *    leaves the profile empty; reading the same bytes twice appends the
 *    same sites twice;
 *  - every site read has a line from 1 to INT_MAX and an input line;
 *  - the writer's output reads back as the same sites, and writing that
 *    again gives the same bytes (fuzz_check_roundtrip());
 *  - merging into an empty profile copies, merging a profile with
 *    itself doubles every count (saturating) and adds no record;
 *  - folding keeps the sums of the counts, never adds rows, writes
 *    canonical paths and empty units, and folding a fold changes nothing;
 *  - suggestions are if sites that went one way at least the threshold's
 *    share, and the same profile given twice gives the same ones;
 *  - reading in two threads gives what one reading gives: the same error
 *    and diagnostic, or the same sites from the same lines.
 */
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "fuzz.h"
#include "internal.h"
#include "profile.h"
#include "suggest.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check_sites(const struct lp_profile *p, size_t len)
{
	size_t i;

	for (i = 0; i < p->nr; i++) {
		const struct lp_prof_site *s = &p->sites[i];

		FUZZ_CHECK(s->file && s->func && s->unit && s->cond);
		FUZZ_CHECK(s->line >= 1 && s->line <= INT_MAX);
		FUZZ_CHECK(s->src_line >= 1 && s->src_line <= len);
	}
}

static void check_merge(const struct lp_profile *p)
{
	struct lp_profile m = LP_PROFILE_INIT;
	size_t i;

	FUZZ_CHECK(lp_profile_merge(&m, p) == 0);
	FUZZ_CHECK(m.nr == p->nr);
	/* the k-th record of a key pairs with the k-th: itself */
	FUZZ_CHECK(lp_profile_merge(&m, &m) == 0);
	FUZZ_CHECK(m.nr == p->nr);
	for (i = 0; i < p->nr; i++) {
		const struct lp_prof_site *a = &p->sites[i], *b = &m.sites[i];

		FUZZ_CHECK(!strcmp(a->file, b->file) && a->line == b->line);
		FUZZ_CHECK(b->correct == fuzz_sat_add(a->correct, a->correct));
		FUZZ_CHECK(b->incorrect ==
			   fuzz_sat_add(a->incorrect, a->incorrect));
		FUZZ_CHECK(b->constant ==
			   fuzz_sat_add(a->constant, a->constant));
	}
	lp_profile_release(&m);
}

static void sums(const struct lp_profile *p, uint64_t *sum)
{
	size_t i;

	sum[0] = sum[1] = sum[2] = 0;
	for (i = 0; i < p->nr; i++) {
		sum[0] = fuzz_sat_add(sum[0], p->sites[i].correct);
		sum[1] = fuzz_sat_add(sum[1], p->sites[i].incorrect);
		sum[2] = fuzz_sat_add(sum[2], p->sites[i].constant);
	}
}

static void check_fold(const struct lp_profile *p, enum lp_group g)
{
	struct lp_profile f = LP_PROFILE_INIT, ff = LP_PROFILE_INIT;
	uint64_t in[3], out[3];
	size_t i;

	FUZZ_CHECK(lp_profile_fold(&f, p, g) == 0);
	FUZZ_CHECK(f.nr <= p->nr);
	FUZZ_CHECK(g != LP_GROUP_SITE || f.nr == p->nr);
	sums(p, in);
	sums(&f, out);
	FUZZ_CHECK(!memcmp(in, out, sizeof(in)));
	for (i = 0; g != LP_GROUP_SITE && i < f.nr; i++) {
		char *canon = lp_path_canonical(f.sites[i].file);

		FUZZ_CHECK(canon && !strcmp(canon, f.sites[i].file));
		FUZZ_CHECK(!*f.sites[i].unit);
		FUZZ_CHECK(g != LP_GROUP_FUNCTION || !*f.sites[i].cond);
		free(canon);
	}
	FUZZ_CHECK(lp_profile_fold(&ff, &f, g) == 0);
	FUZZ_CHECK(ff.nr == f.nr);
	lp_profile_release(&ff);
	lp_profile_release(&f);
}

static void check_suggest(const struct lp_profile *p)
{
	struct lp_suggestions s = LP_SUGGESTIONS_INIT, s2 = LP_SUGGESTIONS_INIT;
	const struct lp_profile *two[2] = { p, p };
	size_t i;

	FUZZ_CHECK(lp_suggest(&s, two, 1, 99.0, 0) == 0);
	FUZZ_CHECK(s.nr <= s.branches && s.branches <= p->nr);
	for (i = 0; i < s.nr; i++) {
		const struct lp_suggestion *g = &s.v[i];
		uint64_t most = g->likely ? g->taken : g->not_taken;
		uint64_t all = fuzz_sat_add(g->taken, g->not_taken);

		FUZZ_CHECK(all > 0);
		/* at least 99%, but for sums that saturated */
		FUZZ_CHECK(all == UINT64_MAX ||
			   (unsigned __int128)most * 100 >=
			   (unsigned __int128)all * 99);
	}
	FUZZ_CHECK(lp_suggest(&s2, two, 2, 99.0, 0) == 0);
	/* twice the counts, the same shares, unless a sum saturated */
	for (i = 0; i < p->nr; i++)
		if (p->sites[i].correct >> 62 || p->sites[i].incorrect >> 62)
			break;
	FUZZ_CHECK(s2.branches == s.branches);
	FUZZ_CHECK(i < p->nr || s2.nr == s.nr);
	lp_suggestions_release(&s2);
	FUZZ_CHECK(lp_suggest(&s2, two, 1, 50.0, 0) == -LP_EINVAL);
	lp_suggestions_release(&s);
}

static void check_split(const char *buf, size_t size,
			const struct lp_profile *p, int err,
			const struct lp_diag *diag)
{
	struct lp_profile q = LP_PROFILE_INIT;
	struct lp_diag d;
	size_t i;

	FUZZ_CHECK(lp_profile_read_buf_split(&q, "fuzz", buf, size, &d, 0) ==
		   err);
	FUZZ_CHECK(!err || !strcmp(d.msg, diag->msg));
	FUZZ_CHECK(q.nr == p->nr && q.meta_nr == p->meta_nr);
	for (i = 0; i < p->nr && i < q.nr; i++) {
		const struct lp_prof_site *a = &p->sites[i], *b = &q.sites[i];

		FUZZ_CHECK(!strcmp(a->file, b->file) && a->line == b->line &&
			   !strcmp(a->func, b->func) &&
			   !strcmp(a->unit, b->unit) &&
			   !strcmp(a->cond, b->cond) &&
			   a->expect == b->expect &&
			   a->correct == b->correct &&
			   a->incorrect == b->incorrect &&
			   a->constant == b->constant &&
			   a->src_line == b->src_line);
	}
	lp_profile_release(&q);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lp_profile p = LP_PROFILE_INIT, twice = LP_PROFILE_INIT;
	const char *buf = (const char *)data;
	struct lp_diag diag;
	size_t lines = 1, i;
	int err;

	err = lp_profile_read_buf(&p, "fuzz", buf, size, &diag);
	fuzz_check_read(&p, err, &diag);
	check_split(buf, size, &p, err, &diag);
	if (err)
		return 0;
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	check_sites(&p, lines);
	FUZZ_CHECK(p.name && !strcmp(p.name, "fuzz"));

	FUZZ_CHECK(lp_profile_read_buf(&twice, NULL, buf, size, &diag) == 0);
	FUZZ_CHECK(lp_profile_read_buf(&twice, NULL, buf, size, &diag) == 0);
	FUZZ_CHECK(twice.nr == 2 * p.nr && twice.meta_nr == p.meta_nr);
	lp_profile_release(&twice);

	check_merge(&p);
	check_fold(&p, LP_GROUP_SITE);
	check_fold(&p, LP_GROUP_LINE);
	check_fold(&p, LP_GROUP_FUNCTION);
	check_suggest(&p);
	fuzz_check_roundtrip(&p);
	lp_profile_release(&p);
	return 0;
}
