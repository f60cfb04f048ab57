/*
 * policy.h - the verdict on each annotated site: fine, remove or flip
 *
 * check prints these verdicts and fix acts on them; neither decides
 * anything itself.  A site is judged after folding: the copies of one
 * source line (one per translation unit that inlines it) are summed, and
 * with several profiles (machines, workloads) each profile is also judged
 * on its own, because a site that is right on one machine and wrong on
 * another must be removed, never flipped (seed 007: a 32-bit userspace
 * makes the segment tests of __switch_to() likely, a 64-bit one unlikely).
 *
 * The default thresholds and the reasons for them are in
 * doc/likelyprof-check.md.  With them, the kernel tables quoted in
 * Steven Rostedt's December 2010 series give the decisions his patches
 * made.
 *
 * Percentages are compared exactly (integer arithmetic on the counts,
 * thresholds to 1/10000 of a percent), never through the kernel's
 * truncated integer percent: 98.996% is not 99%.
 *
 * Nothing here prints or exits; calls return 0 or -LP_E*.
 */
#ifndef LP_POLICY_H
#define LP_POLICY_H

#include <stddef.h>
#include <stdint.h>

#include "profile.h"

struct lp_policy {
	double flip_at;         /* % incorrect at which an annotation flips */
	double remove_at;       /* % incorrect at which it is removed */
	uint64_t min_hits;      /* evaluations below which nothing is said */
	int no_flip;            /* remove where a flip would be due */
	/*
	 * A hint that went one way all through each of at least this many
	 * processes, and never both ways in one, follows a setting of the
	 * process, not the data; 0 never says so.
	 */
	uint64_t setting_procs;
	/*
	 * How far, in points of percent, the measured probability of a
	 * __builtin_expect_with_probability may be from the stated one
	 * before the number is restated.
	 */
	double restate_at;
};

#define LP_POLICY_FLIP_AT 99.0
#define LP_POLICY_REMOVE_AT 30.0
#define LP_POLICY_MIN_HITS 10000
#define LP_POLICY_SETTING_PROCS 3
#define LP_POLICY_RESTATE_AT 10.0
#define LP_POLICY_INIT \
	{ LP_POLICY_FLIP_AT, LP_POLICY_REMOVE_AT, LP_POLICY_MIN_HITS, 0, \
	  LP_POLICY_SETTING_PROCS, LP_POLICY_RESTATE_AT }

enum lp_verdict {
	LP_VERDICT_FINE = 0,    /* right often enough: leave it */
	LP_VERDICT_REMOVE,      /* wrong too often to help: drop it */
	LP_VERDICT_FLIP,        /* backwards in every profile: swap it */
	LP_VERDICT_CONSTANT,    /* only ever saw a compile-time constant */
	LP_VERDICT_FEW,         /* too few evaluations to judge */
	LP_VERDICT_NEVER,       /* the workload never reached it */
	LP_VERDICT_UNSURE,      /* judged from a binary, and the counts
				 * are ambiguous or missing, or too few
				 * samples: no change */
	LP_VERDICT_SETTING,     /* wrong, but one way all through each of
				 * several processes: it follows how the
				 * program is run, not the data */
	LP_VERDICT_RESTATE      /* a stated probability far from the
				 * measured one: write the measured */
};

/* Counts of one site in one profile (or summed). */
struct lp_counts {
	uint64_t correct;       /* includes constant evaluations */
	uint64_t incorrect;
	uint64_t constant;
	/*
	 * A merged profile's votes (doc/FORMAT.md): its original profiles
	 * that judged the site right and wrong, which stand in for its own
	 * judgement of the summed counts.
	 */
	uint64_t votes_right;
	uint64_t votes_wrong;
	int has_votes;
	/* sampled executions of an estimated site (lp_prof_site) */
	uint64_t samp_right;
	uint64_t samp_wrong;
	int has_samples;
	/*
	 * The processes behind the counts that went one way all through
	 * (doc/FORMAT.md, "Ways"): known from a merged profile's fields
	 * (has_procs), or from the counts of one process (one_process).
	 */
	uint64_t procs_right;
	uint64_t procs_wrong;
	uint64_t procs_both;
	int has_procs;
	int one_process;
};

#define LP_COUNTS_INIT { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 }

/* Which way the evaluations of one process went (lp_counts_way()). */
enum lp_way {
	LP_WAY_NONE = 0,        /* none that was not a constant */
	LP_WAY_RIGHT,           /* only as the hint said */
	LP_WAY_WRONG,           /* only against it */
	LP_WAY_BOTH
};

/*! lp_counts_of_site() :
 *  The counts of one site record, with its votes, samples and ways.
 */
void lp_counts_of_site(struct lp_counts *c, const struct lp_prof_site *s);

/*! lp_counts_way() :
 *  Which way one process's counts of a site went (@correct includes the
 *  @constant evaluations, which say nothing of the data).  Fewer than
 *  LP_WAY_MIN_EVALS evaluations, all one way, are no way: a process that
 *  ran a site twice did not go one way "all through" it.
 */
#define LP_WAY_MIN_EVALS 100
enum lp_way lp_counts_way(uint64_t correct, uint64_t incorrect,
			  uint64_t constant);

/* What the policy concluded about one site, and from what. */
struct lp_judgement {
	enum lp_verdict verdict;
	struct lp_counts total;  /* summed over profiles */
	uint64_t evals;          /* evaluations that were not constant */
	uint64_t right;          /* of those, the times it was right */
	uint64_t profiles_right; /* profiles with min_hits that say "fine" */
	uint64_t profiles_wrong; /* ... that say remove or flip */
	int disagree;            /* it was right in one, wrong in another */
	/*
	 * Processes that went only the hint's way all through, only
	 * against it, and both ways; procs_known 0 when some profile cannot
	 * say (a kernel table).  A setting keeps, in setting_of, the remove
	 * or flip its counts alone would get; one_way_few says that every
	 * process went one way but they were too few to call it a setting.
	 */
	uint64_t procs_right;
	uint64_t procs_wrong;
	uint64_t procs_both;
	int procs_known;
	enum lp_verdict setting_of;
	int one_way_few;
	/*
	 * Of a site with a stated probability (lp_prof_site.prob): how
	 * often its value (the hint's second argument) came, in the same
	 * units, 1 + millionths of the evaluations that were not constant;
	 * 0 where nothing ran.
	 */
	unsigned int measured_prob;
};

/*! lp_policy_check() :
 *  @return : 0, or -LP_EINVAL when a threshold is not a percentage.
 */
int lp_policy_check(const struct lp_policy *pol);

/*! lp_policy_judge() :
 *  Judges one site from its counts in each of @n profiles.
 *  @expect : the annotation's expected value, or LP_EXPECT_UNKNOWN; a
 *            value other than 0 or 1 cannot be flipped, only removed.
 *  @return : the verdict, also stored in @out->verdict.
 */
enum lp_verdict lp_policy_judge(const struct lp_policy *pol,
				const struct lp_counts *per, size_t n,
				long expect, struct lp_judgement *out);

/*! lp_policy_judge_stated() :
 *  lp_policy_judge() for a hint with a stated probability @prob (1 +
 *  millionths; 0: none, as lp_policy_judge()): fine while the measured
 *  probability of its value is within restate_at points of the stated
 *  one, LP_VERDICT_RESTATE beyond; never flip.  Where one profile holds
 *  the number and another does not, no one number is right: remove.
 */
enum lp_verdict lp_policy_judge_stated(const struct lp_policy *pol,
				       const struct lp_counts *per, size_t n,
				       long expect, unsigned int prob,
				       struct lp_judgement *out);

/*! lp_policy_vote() :
 *  What one profile's counts of a site say of its hint, as a vote that
 *  `merge` keeps: 1 right (fine), -1 wrong (remove or flip), 0 no vote
 *  (too few evaluations, only constants, never run, or no hint).
 */
int lp_policy_vote(const struct lp_policy *pol, const struct lp_counts *c,
		   long expect);
/* ... of one record, as merge votes on each record it reads */
int lp_policy_vote_site(const struct lp_policy *pol,
			const struct lp_prof_site *s);
/* ... of a hint with a stated probability @prob (0: none) */
int lp_policy_vote_stated(const struct lp_policy *pol,
			  const struct lp_counts *c, long expect,
			  unsigned int prob);

/* The confidence of lp_wilson(): 95%, z = 1.959964. */
#define LP_WILSON_Z 1.959964

/*! lp_wilson() :
 *  The Wilson score interval of the fraction @k / @n at 95%, in percent,
 *  into @lo and @hi (0 and 100 when @n is 0).  Unlike p +- z*sqrt(pq/n)
 *  it stays inside 0..100 and is not empty when k is 0 or n.
 */
void lp_wilson(uint64_t k, uint64_t n, double *lo, double *hi);

/*! lp_policy_sampled() :
 *  The verdict @v of a site whose counts are estimated from branch
 *  samples, held to what its samples can tell: a flip needs the whole
 *  interval of the wrong fraction at flip_at or above (else it is a
 *  remove if the interval is at remove_at or above), a remove needs it
 *  at remove_at or above; otherwise LP_VERDICT_UNSURE.  Other verdicts
 *  change nothing and stay.
 */
enum lp_verdict lp_policy_sampled(const struct lp_policy *pol,
				  const struct lp_counts *total,
				  enum lp_verdict v);

/*! lp_prob_restated() :
 *  The number a restate writes for a measured probability (both 1 +
 *  millionths): two places, as people write them, kept within 0.01 and
 *  0.99 (a hint stating certainty claims more than a run can show).
 */
unsigned int lp_prob_restated(unsigned int measured);

/*! lp_verdict_name() :
 *  @return : "fine", "remove", "flip", "constant", "few", "never",
 *            "unsure", "setting" or "restate".
 */
const char *lp_verdict_name(enum lp_verdict v);

/*! lp_verdict_changes() :
 *  @return : true for the verdicts that ask for a source change.
 */
int lp_verdict_changes(enum lp_verdict v);

/*-************************************
 *  Sites of several profiles
 **************************************/

/* One original record of a site and the profile it came from. */
struct lp_site_row {
	const struct lp_prof_site *row;
	size_t prof;
};

/*
 * One site after folding: the copies of one line in every profile.  The
 * strings but @file point into the profiles, which must outlive it.
 */
struct lp_judged {
	char *file;             /* canonical path, owned */
	const char *func;
	const char *cond;
	long line;
	long expect;
	unsigned int prob;      /* a stated probability (lp_prof_site) */
	enum lp_sure sure;      /* the least sure of its records */
	struct lp_counts *per;  /* counts in each profile, [nprof] */
	struct lp_site_row *rows;
	size_t nrows;
	struct lp_judgement j;
};

struct lp_judged_list {
	struct lp_judged *v;
	size_t nr;
	size_t nprof;
	enum lp_prof_origin origin;   /* of the first profile */
};

#define LP_JUDGED_LIST_INIT { NULL, 0, 0, LP_ORIGIN_PROFILE }

/*! lp_judge_profiles() :
 *  Folds the records of @n profiles by (canonical file, line, func,
 *  expect, cond), judges each site, and fills @out sorted by file and
 *  line.  Records of unannotated branches (expect "if", the kernel's
 *  branch_all) are left out: they carry no annotation to judge.  A site
 *  whose counts are ambiguous never gets remove or flip, and one that is
 *  unjudgeable gets nothing but LP_VERDICT_UNSURE.
 *  @return : 0, -LP_ENOMEM or -LP_EINVAL (bad policy).
 */
int lp_judge_profiles(struct lp_judged_list *out, const struct lp_policy *pol,
		   const struct lp_profile *const *profs, size_t n);
void lp_judged_list_release(struct lp_judged_list *s);

#endif /* LP_POLICY_H */
