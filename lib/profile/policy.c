/*
 * policy.c - verdicts on annotated sites
 *
 * The thresholds are explained in doc/likelyprof-check.md; this file only
 * applies them.  Ratios are compared in 128-bit integers, so a count near
 * 2^64 and a threshold like 99.99% compare exactly.
 */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "keymap.h"
#include "internal.h"
#include "policy.h"

int lp_policy_check(const struct lp_policy *pol)
{
	if (!(pol->flip_at >= 0.0 && pol->flip_at <= 100.0) ||
	    !(pol->remove_at >= 0.0 && pol->remove_at <= 100.0) ||
	    !(pol->restate_at >= 0.0 && pol->restate_at <= 100.0))
		return -LP_EINVAL;
	return 0;
}

/* A threshold in units of 1/10000 of a percent. */
static uint64_t threshold_units(double pct)
{
	return (uint64_t)(pct * 10000.0 + 0.5);
}

/* Is @part / @whole at least @pct percent? */
static int at_least(uint64_t part, uint64_t whole, double pct)
{
	unsigned __int128 lhs = (unsigned __int128)part * 1000000u;
	unsigned __int128 rhs = (unsigned __int128)threshold_units(pct) * whole;

	return lhs >= rhs;
}

/* Only a yes/no expectation has an opposite to flip to. */
static int flippable(long expect)
{
	return expect == LP_EXPECT_UNKNOWN || expect == 0 || expect == 1;
}

/*
 * One set of counts on its own.  Constant evaluations say nothing about
 * the annotation (the compiler already knew the answer), so they are
 * taken out of "correct" before the ratio is formed.
 */
static enum lp_verdict judge_counts(const struct lp_policy *pol,
				    const struct lp_counts *c, long expect,
				    uint64_t *evals, uint64_t *right)
{
	uint64_t all = lp_sat_add(c->correct, c->incorrect);
	uint64_t konst = c->constant < c->correct ? c->constant : c->correct;

	*evals = all - konst;
	*right = c->correct - konst;
	if (!all)
		return LP_VERDICT_NEVER;
	if (!*evals)
		return LP_VERDICT_CONSTANT;
	if (*evals < pol->min_hits)
		return LP_VERDICT_FEW;
	if (!pol->no_flip && flippable(expect) &&
	    at_least(c->incorrect, *evals, pol->flip_at))
		return LP_VERDICT_FLIP;
	if (at_least(c->incorrect, *evals, pol->remove_at))
		return LP_VERDICT_REMOVE;
	return LP_VERDICT_FINE;
}

/*
 * A hint that states the probability of its value (1 + millionths in
 * @prob) is judged by that number, not by the thresholds: one stating
 * 0.6 that held 55% of the time said what happened.  *@measured gets
 * how often the value came (counted by the hint's direction: below one
 * half "right" is the times it did not come).
 */
static enum lp_verdict judge_stated(const struct lp_policy *pol,
				    const struct lp_counts *c,
				    unsigned int prob, uint64_t *evals,
				    uint64_t *right, unsigned int *measured)
{
	enum lp_verdict v = judge_counts(pol, c, 0, evals, right);
	uint64_t stated = prob - 1, came;
	unsigned __int128 got, want, slack;

	*measured = 0;
	if (!*evals)
		return v;
	came = stated >= 500000 ? *right : *evals - *right;
	got = (unsigned __int128)came * 1000000u;
	want = (unsigned __int128)stated * *evals;
	/* in millionths too: 10 points are 100000 */
	slack = (unsigned __int128)threshold_units(pol->restate_at) * *evals;
	*measured = 1u + (unsigned int)((got + *evals / 2) / *evals);
	if (v == LP_VERDICT_FEW)
		return v;
	return (got > want ? got - want : want - got) > slack ?
		LP_VERDICT_RESTATE : LP_VERDICT_FINE;
}

/* One set of counts, by a stated probability where @prob has one. */
static enum lp_verdict judge_one(const struct lp_policy *pol,
				 const struct lp_counts *c, long expect,
				 unsigned int prob, uint64_t *evals,
				 uint64_t *right, unsigned int *measured)
{
	*measured = 0;
	if (prob)
		return judge_stated(pol, c, prob, evals, right, measured);
	return judge_counts(pol, c, expect, evals, right);
}

void lp_wilson(uint64_t k, uint64_t n, double *lo, double *hi)
{
	double z = LP_WILSON_Z, nn = (double)n, p, d, mid, half;

	if (!n) {
		*lo = 0.0;
		*hi = 100.0;
		return;
	}
	p = (double)k / nn;
	d = 1.0 + z * z / nn;
	mid = (p + z * z / (2.0 * nn)) / d;
	half = z / d * sqrt(p * (1.0 - p) / nn + z * z / (4.0 * nn * nn));
	*lo = 100.0 * (mid - half > 0.0 ? mid - half : 0.0);
	*hi = 100.0 * (mid + half < 1.0 ? mid + half : 1.0);
	/* at the ends the interval touches what was seen, not short of it */
	if (!k)
		*lo = 0.0;
	if (k == n)
		*hi = 100.0;
}

enum lp_verdict lp_policy_sampled(const struct lp_policy *pol,
				  const struct lp_counts *total,
				  enum lp_verdict v)
{
	double lo, hi;

	if (!lp_verdict_changes(v))
		return v;
	/* no interval is kept for a stated number: not from samples */
	if (!total->has_samples || v == LP_VERDICT_RESTATE)
		return LP_VERDICT_UNSURE;
	lp_wilson(total->samp_wrong, lp_sat_add(total->samp_right,
						total->samp_wrong), &lo, &hi);
	if (v == LP_VERDICT_FLIP && lo < pol->flip_at)
		v = LP_VERDICT_REMOVE;
	if (v == LP_VERDICT_REMOVE && lo < pol->remove_at)
		v = LP_VERDICT_UNSURE;
	return v;
}

int lp_policy_vote(const struct lp_policy *pol, const struct lp_counts *c,
		   long expect)
{
	return lp_policy_vote_stated(pol, c, expect, 0);
}

int lp_policy_vote_stated(const struct lp_policy *pol,
			  const struct lp_counts *c, long expect,
			  unsigned int prob)
{
	uint64_t evals, right;
	unsigned int measured;
	enum lp_verdict v;

	if (expect == LP_EXPECT_IF)
		return 0;       /* no hint to be right or wrong */
	v = judge_one(pol, c, expect, prob, &evals, &right, &measured);
	/* a profile of samples votes only as far as they can tell */
	if (c->has_samples)
		v = lp_policy_sampled(pol, c, v);
	if (v == LP_VERDICT_FINE)
		return 1;
	return lp_verdict_changes(v) ? -1 : 0;
}

int lp_policy_vote_site(const struct lp_policy *pol,
			const struct lp_prof_site *s)
{
	struct lp_counts c;

	if (s->has_samples) {
		lp_counts_of_site(&c, s);
		return lp_policy_vote_stated(pol, &c, s->expect, s->prob);
	}
	/*
	 * A merge votes on every record it reads: only the fields the
	 * judgement of counts reads are filled, not the whole struct.
	 */
	c.correct = s->correct;
	c.incorrect = s->incorrect;
	c.constant = s->constant;
	c.has_samples = 0;
	return lp_policy_vote_stated(pol, &c, s->expect, s->prob);
}

enum lp_way lp_counts_way(uint64_t correct, uint64_t incorrect,
			  uint64_t constant)
{
	uint64_t right = correct > constant ? correct - constant : 0;

	if (right && incorrect)
		return LP_WAY_BOTH;
	/* a handful of evaluations is no "all through" */
	if (right + incorrect < LP_WAY_MIN_EVALS)
		return LP_WAY_NONE;
	return right ? LP_WAY_RIGHT : LP_WAY_WRONG;
}

/*
 * A remove or flip whose every process went one way from start to end
 * (doc/likelyprof-check.md, "Settings"): the counts say how these
 * processes were run, a flag or a mode, not how the data goes, so the
 * hint is right or wrong by how its users run the program.  With fewer
 * processes than the policy asks for, the verdict stands, marked.
 */
static enum lp_verdict judge_setting(const struct lp_policy *pol,
				     const struct lp_counts *per, size_t n,
				     enum lp_verdict v,
				     struct lp_judgement *out)
{
	size_t i, known = 0;

	for (i = 0; i < n; i++) {
		enum lp_way w;

		if (per[i].has_procs) {
			out->procs_right += per[i].procs_right;
			out->procs_wrong += per[i].procs_wrong;
			out->procs_both += per[i].procs_both;
			known++;
			continue;
		}
		if (!per[i].one_process)
			continue;
		w = lp_counts_way(per[i].correct, per[i].incorrect,
				  per[i].constant);
		out->procs_right += w == LP_WAY_RIGHT;
		out->procs_wrong += w == LP_WAY_WRONG;
		out->procs_both += w == LP_WAY_BOTH;
		known++;
	}
	out->procs_known = n && known == n;
	if (!out->procs_known || out->procs_both ||
	    !lp_verdict_changes(v) || !out->procs_wrong)
		return v;
	if (!pol->setting_procs)
		return v;       /* asked never to say it */
	if (out->procs_right + out->procs_wrong < pol->setting_procs) {
		out->one_way_few = 1;
		return v;
	}
	out->setting_of = v;
	return LP_VERDICT_SETTING;
}

enum lp_verdict lp_policy_judge(const struct lp_policy *pol,
				const struct lp_counts *per, size_t n,
				long expect, struct lp_judgement *out)
{
	return lp_policy_judge_stated(pol, per, n, expect, 0, out);
}

enum lp_verdict lp_policy_judge_stated(const struct lp_policy *pol,
				       const struct lp_counts *per, size_t n,
				       long expect, unsigned int prob,
				       struct lp_judgement *out)
{
	size_t i;
	uint64_t flips = 0;
	unsigned int measured;
	enum lp_verdict v;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < n; i++) {
		out->total.correct = lp_sat_add(out->total.correct,
					     per[i].correct);
		out->total.incorrect = lp_sat_add(out->total.incorrect,
					       per[i].incorrect);
		out->total.constant = lp_sat_add(out->total.constant,
					      per[i].constant);
		out->total.samp_right = lp_sat_add(out->total.samp_right,
						per[i].samp_right);
		out->total.samp_wrong = lp_sat_add(out->total.samp_wrong,
						per[i].samp_wrong);
		out->total.has_samples |= per[i].has_samples;
	}
	v = judge_one(pol, &out->total, expect, prob, &out->evals,
		      &out->right, &out->measured_prob);

	/* each profile that saw enough has a say of its own */
	for (i = 0; i < n; i++) {
		uint64_t ev, right;
		enum lp_verdict vi = judge_one(pol, &per[i], expect, prob,
					       &ev, &right, &measured);

		if (per[i].has_votes) {
			/*
			 * A merged profile speaks with its inputs' votes;
			 * its wrong ones are taken as flips where its sum
			 * is one, and any right vote stops a flip.
			 */
			out->profiles_right += per[i].votes_right;
			out->profiles_wrong += per[i].votes_wrong;
			if (vi == LP_VERDICT_FLIP)
				flips += per[i].votes_wrong;
			continue;
		}
		if (vi == LP_VERDICT_FINE)
			out->profiles_right++;
		else if (lp_verdict_changes(vi))
			out->profiles_wrong++;
		flips += vi == LP_VERDICT_FLIP;
	}
	out->disagree = out->profiles_right && out->profiles_wrong;

	/*
	 * A flip must be right everywhere; where one profile only wants the
	 * annotation gone, or one is happy with it, removing it is the
	 * choice that punishes no workload.  For the same reason a site
	 * that is fine on the sum but wrong in one profile goes.
	 */
	if (v == LP_VERDICT_FLIP && flips != out->profiles_right +
	    out->profiles_wrong)
		v = LP_VERDICT_REMOVE;
	if (v == LP_VERDICT_FINE && out->profiles_wrong)
		v = LP_VERDICT_REMOVE;
	/* a number that holds in one workload and not in another */
	if (v == LP_VERDICT_RESTATE && out->profiles_right)
		v = LP_VERDICT_REMOVE;
	v = judge_setting(pol, per, n, v, out);
	out->verdict = v;
	return v;
}

unsigned int lp_prob_restated(unsigned int measured)
{
	unsigned int hundredths = measured ? (measured - 1 + 5000) / 10000 : 0;

	if (hundredths < 1)
		hundredths = 1;
	if (hundredths > 99)
		hundredths = 99;
	return 1 + hundredths * 10000;
}

const char *lp_verdict_name(enum lp_verdict v)
{
	switch (v) {
	case LP_VERDICT_FINE:
		return "fine";
	case LP_VERDICT_REMOVE:
		return "remove";
	case LP_VERDICT_FLIP:
		return "flip";
	case LP_VERDICT_CONSTANT:
		return "constant";
	case LP_VERDICT_FEW:
		return "few";
	case LP_VERDICT_NEVER:
		return "never";
	case LP_VERDICT_UNSURE:
		return "unsure";
	case LP_VERDICT_SETTING:
		return "setting";
	case LP_VERDICT_RESTATE:
		return "restate";
	}
	return "unknown";
}

int lp_verdict_changes(enum lp_verdict v)
{
	return v == LP_VERDICT_REMOVE || v == LP_VERDICT_FLIP ||
	       v == LP_VERDICT_RESTATE;
}

/*-************************************
 *  Folding several profiles
 **************************************/

struct fold_ctx {
	const struct lp_judged_list *sites;
	const char *file;
	const struct lp_prof_site *row;
};

static int site_eq(const void *ctx, size_t id)
{
	const struct fold_ctx *c = ctx;
	const struct lp_judged *s = &c->sites->v[id];

	return s->line == c->row->line && s->expect == c->row->expect &&
	       !strcmp(s->file, c->file) &&
	       !lp_strcmp0(s->func, c->row->func) &&
	       !lp_strcmp0(s->cond, c->row->cond);
}

static int cmp_site(const void *pa, const void *pb)
{
	const struct lp_judged *a = pa, *b = pb;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if ((c = lp_strcmp0(a->func, b->func)))
		return c;
	if (a->expect != b->expect)
		return a->expect < b->expect ? -1 : 1;
	return lp_strcmp0(a->cond, b->cond);
}

void lp_judged_list_release(struct lp_judged_list *s)
{
	size_t i;

	if (!s)
		return;
	for (i = 0; i < s->nr; i++) {
		free(s->v[i].file);
		free(s->v[i].per);
		free(s->v[i].rows);
	}
	free(s->v);
	s->v = NULL;
	s->nr = 0;
}

/* Gives each record its site: a new one or the one of its key. */
static int assign(struct lp_judged_list *out, struct lp_keymap *map,
		  const struct lp_prof_site *row, size_t *site)
{
	struct fold_ctx ctx;
	struct lp_keymap_slot *slot;
	uint64_t h;
	char *file = lp_path_canonical(row->file ? row->file : "");

	if (!file)
		return -LP_ENOMEM;
	h = lp_hash_str(LP_HASH_SEED, file);
	h = lp_hash_u64(h, (uint64_t)row->line);
	h = lp_hash_str(h, row->func);
	h = lp_hash_u64(h, (uint64_t)row->expect);
	h = lp_hash_finish(lp_hash_str(h, row->cond));
	ctx.sites = out;
	ctx.file = file;
	ctx.row = row;
	slot = lp_keymap_find(map, h, site_eq, &ctx);
	if (slot->id) {
		free(file);
		*site = slot->id - 1;
		return 0;
	}
	*site = out->nr;
	slot->hash = h;
	slot->id = ++out->nr;
	memset(&out->v[*site], 0, sizeof(out->v[*site]));
	out->v[*site].file = file;
	out->v[*site].func = row->func;
	out->v[*site].cond = row->cond;
	out->v[*site].line = row->line;
	out->v[*site].expect = row->expect;
	out->v[*site].prob = row->prob;
	out->v[*site].per = calloc(out->nprof, sizeof(struct lp_counts));
	return out->v[*site].per ? 0 : -LP_ENOMEM;
}

/*
 * The copies of one line went their ways in the same processes: the
 * copy with the most processes of each way speaks for the line, as with
 * votes, so that a header inlined into forty units does not count each
 * process forty times.  A line any copy of which went both ways in some
 * process is no setting.
 */
static void add_procs(struct lp_counts *to, const struct lp_counts *from)
{
	if (!from->has_procs)
		return;
	if (from->procs_right > to->procs_right)
		to->procs_right = from->procs_right;
	if (from->procs_wrong > to->procs_wrong)
		to->procs_wrong = from->procs_wrong;
	if (from->procs_both > to->procs_both)
		to->procs_both = from->procs_both;
	to->has_procs = 1;
}

/*
 * The copies of one line (a static inline in many units) were each
 * voted on by the same profiles: their votes are not added, or a header
 * used by forty units would count each machine forty times.  The copy
 * with the most votes speaks for the line.
 */
static void add_votes(struct lp_counts *to, const struct lp_counts *from)
{
	if (!from->has_votes)
		return;
	if (!to->has_votes || from->votes_right + from->votes_wrong >
			      to->votes_right + to->votes_wrong) {
		to->votes_right = from->votes_right;
		to->votes_wrong = from->votes_wrong;
	}
	to->has_votes = 1;
}

/* Samples of two copies are samples of two jumps: they add. */
static void add_samples(struct lp_counts *to, const struct lp_counts *from)
{
	to->samp_right = lp_sat_add(to->samp_right, from->samp_right);
	to->samp_wrong = lp_sat_add(to->samp_wrong, from->samp_wrong);
	to->has_samples |= from->has_samples;
}

/*
 * lz4's "lz4.c" and "../lib/lz4.c" are one file (lp_fold_spellings()):
 * @into[k] names the site each folds into, itself when it stays.
 */
static int fold_path_spellings(struct lp_judged_list *out, size_t *into)
{
	struct lp_spelling_key *keys = malloc((out->nr ? out->nr : 1) *
					      sizeof(*keys));
	size_t i;
	int ret;

	if (!keys)
		return -LP_ENOMEM;
	for (i = 0; i < out->nr; i++) {
		const struct lp_judged *s = &out->v[i];

		keys[i] = (struct lp_spelling_key){ s->file, s->func, s->cond,
						    s->line, s->expect };
	}
	ret = lp_fold_spellings(keys, out->nr, into);
	free(keys);
	return ret;
}

/*
 * Applies fold_path_spellings(): sums the counts of each folded site into
 * the one it joins, drops it, and renumbers @of (record -> site).
 */
static int fold_copies(struct lp_judged_list *out, size_t *of, size_t nof)
{
	size_t *into = malloc((out->nr ? out->nr : 1) * sizeof(*into));
	size_t *renum = malloc((out->nr ? out->nr : 1) * sizeof(*renum));
	size_t k, p, kept = 0;
	int ret = -LP_ENOMEM;

	if (!into || !renum || fold_path_spellings(out, into) < 0)
		goto out;
	for (k = 0; k < out->nr; k++) {
		struct lp_judged *from = &out->v[k], *to = &out->v[into[k]];

		if (into[k] == k)
			continue;
		for (p = 0; p < out->nprof; p++) {
			to->per[p].correct = lp_sat_add(to->per[p].correct,
						     from->per[p].correct);
			to->per[p].incorrect = lp_sat_add(to->per[p].incorrect,
						       from->per[p].incorrect);
			to->per[p].constant = lp_sat_add(to->per[p].constant,
						      from->per[p].constant);
			add_samples(&to->per[p], &from->per[p]);
			add_votes(&to->per[p], &from->per[p]);
			add_procs(&to->per[p], &from->per[p]);
		}
		to->nrows += from->nrows;
		if (from->sure > to->sure)
			to->sure = from->sure;
	}
	for (k = 0; k < out->nr; k++) {
		if (into[k] != k) {
			free(out->v[k].file);
			free(out->v[k].per);
			continue;
		}
		renum[k] = kept;
		out->v[kept++] = out->v[k];
	}
	for (k = 0; k < nof; k++)
		if (of[k] != (size_t)-1)
			of[k] = renum[into[of[k]]];
	out->nr = kept;
	ret = 0;
out:
	free(into);
	free(renum);
	return ret;
}

void lp_counts_of_site(struct lp_counts *c, const struct lp_prof_site *s)
{
	*c = (struct lp_counts)LP_COUNTS_INIT;
	c->correct = s->correct;
	c->incorrect = s->incorrect;
	c->constant = s->constant;
	c->votes_right = s->votes_right;
	c->votes_wrong = s->votes_wrong;
	c->has_votes = s->has_votes;
	c->samp_right = s->samp_right;
	c->samp_wrong = s->samp_wrong;
	c->has_samples = s->has_samples;
	c->procs_right = s->procs_right;
	c->procs_wrong = s->procs_wrong;
	c->procs_both = s->procs_both;
	c->has_procs = s->has_procs;
}

/* The votes, samples and processes of one record into its site's @c. */
static void add_row_extras(struct lp_counts *c, const struct lp_prof_site *row)
{
	struct lp_counts v;

	lp_counts_of_site(&v, row);
	add_votes(c, &v);
	if (row->has_samples)
		add_samples(c, &v);
	add_procs(c, &v);
}

int lp_judge_profiles(struct lp_judged_list *out, const struct lp_policy *pol,
		   const struct lp_profile *const *profs, size_t n)
{
	struct lp_keymap map = LP_KEYMAP_INIT;
	size_t total = 0, i, k, r, *of = NULL;
	int ret;

	if (lp_policy_check(pol))
		return -LP_EINVAL;
	out->v = NULL;
	out->nr = 0;
	out->nprof = n;
	out->origin = n ? profs[0]->origin : LP_ORIGIN_PROFILE;
	for (i = 0; i < n; i++)
		total += profs[i]->nr;
	ret = lp_keymap_init(&map, total);
	out->v = calloc(total ? total : 1, sizeof(*out->v));
	of = calloc(total ? total : 1, sizeof(*of));
	if (ret || !out->v || !of) {
		ret = -LP_ENOMEM;
		goto out;
	}
	for (i = 0, r = 0; i < n; i++) {
		for (k = 0; k < profs[i]->nr; k++, r++) {
			const struct lp_prof_site *row = &profs[i]->sites[k];
			struct lp_counts *c;

			of[r] = (size_t)-1;
			if (row->expect == LP_EXPECT_IF)
				continue;
			ret = assign(out, &map, row, &of[r]);
			if (ret)
				goto out;
			c = &out->v[of[r]].per[i];
			c->correct = lp_sat_add(c->correct, row->correct);
			c->incorrect = lp_sat_add(c->incorrect, row->incorrect);
			c->constant = lp_sat_add(c->constant, row->constant);
			add_row_extras(c, row);
			out->v[of[r]].nrows++;
			if (row->sure > out->v[of[r]].sure)
				out->v[of[r]].sure = row->sure;
		}
	}
	ret = fold_copies(out, of, total);
	if (ret)
		goto out;
	/* a process that never reached a site went no way with it */
	for (i = 0; i < n; i++) {
		int one = lp_profile_one_process(profs[i]);

		for (k = 0; k < out->nr; k++)
			out->v[k].per[i].one_process = one;
	}
	for (k = 0; k < out->nr; k++) {
		out->v[k].rows = calloc(out->v[k].nrows,
					sizeof(struct lp_site_row));
		if (!out->v[k].rows) {
			ret = -LP_ENOMEM;
			goto out;
		}
		out->v[k].nrows = 0;
	}
	for (i = 0, r = 0; i < n; i++) {
		for (k = 0; k < profs[i]->nr; k++, r++) {
			struct lp_judged *s;

			if (of[r] == (size_t)-1)
				continue;
			s = &out->v[of[r]];
			s->rows[s->nrows].row = &profs[i]->sites[k];
			s->rows[s->nrows++].prof = i;
		}
	}
	for (k = 0; k < out->nr; k++) {
		struct lp_judged *s = &out->v[k];

		lp_policy_judge_stated(pol, s->per, n, s->expect, s->prob,
				       &s->j);
		/*
		 * Counts read from a binary are only worth a verdict where
		 * they are those of the hint's own jump: an ambiguous site
		 * may sum a neighbour's jump or miss evaluations that went
		 * past its own (so even "fine", "too few" or "never ran"
		 * could be false), and an unjudgeable one has no jump at
		 * all.
		 */
		if (s->sure == LP_SURE_UNJUDGEABLE ||
		    s->sure == LP_SURE_AMBIGUOUS)
			s->j.verdict = LP_VERDICT_UNSURE;
		/* estimates are only as good as the samples behind them */
		else if (s->sure == LP_SURE_ESTIMATED)
			s->j.verdict = lp_policy_sampled(pol, &s->j.total,
							 s->j.verdict);
	}
	if (out->nr > 1)
		qsort(out->v, out->nr, sizeof(*out->v), cmp_site);
	ret = 0;
out:
	free(of);
	lp_keymap_release(&map);
	if (ret)
		lp_judged_list_release(out);
	return ret;
}
