/*
 * u-policy.c - the verdicts: the seeds' tables give the decisions of the
 * seeds' patches, and the rules for constants, few hits and profiles
 * that disagree hold
 */
#include <stdlib.h>
#include <string.h>

#include "policy.h"
#include "test.h"

static const struct lp_policy defaults = LP_POLICY_INIT;

/* Reads tests/data/seeds/NNN.txt and judges it with the defaults. */
static void judge_seed(const char *name, struct lp_profile *p,
		       struct lp_judged_list *out)
{
	const struct lp_profile *ptr = p;
	struct lp_diag diag;
	char path[128];

	snprintf(path, sizeof(path), "tests/data/seeds/%s.txt", name);
	lp_profile_init(p);
	if (lp_profile_read_file(p, path, &diag))
		LP_FAIL_("cannot read %s: %s", path, diag.msg);
	if (lp_judge_profiles(out, &defaults, &ptr, 1))
		LP_FAIL_("cannot judge %s", path);
}

/* The verdict on @func:@line of a seed, or -1 when it has no such site. */
static int verdict(const char *seed, const char *func, long line)
{
	struct lp_profile p;
	struct lp_judged_list J = LP_JUDGED_LIST_INIT;
	size_t i;
	int v = -1;

	judge_seed(seed, &p, &J);
	for (i = 0; i < J.nr; i++)
		if (!strcmp(J.v[i].func, func) && J.v[i].line == line)
			v = (int)J.v[i].j.verdict;
	lp_judged_list_release(&J);
	lp_profile_release(&p);
	return v;
}

#define CHECK_VERDICT(seed, func, line, want) \
	LP_CHECK_STR(lp_verdict_name(verdict(seed, func, line)), \
		     lp_verdict_name(want))

/* The cover letter: patch 01 flipped pre_schedule_rt; few hits ignored. */
static void test_seed__001_cover_letter(void)
{
	CHECK_VERDICT("001", "pre_schedule_rt", 1476, LP_VERDICT_FLIP);
	CHECK_VERDICT("001", "signal_pending", 2313, LP_VERDICT_FEW);
	CHECK_VERDICT("001", "trylock_page", 316, LP_VERDICT_FEW);
}

/* 98.996% wrong is not 99%: removed, not flipped */
static void test_seed__002_mapping_unevictable(void)
{
	CHECK_VERDICT("002", "mapping_unevictable", 51, LP_VERDICT_REMOVE);
	CHECK_VERDICT("002", "page_mapping", 659, LP_VERDICT_REMOVE);
	CHECK_VERDICT("002", "page_mapping", 657, LP_VERDICT_FINE);
}

static void test_seed__003_workqueue_flips(void)
{
	CHECK_VERDICT("003", "wq_worker_sleeping", 703, LP_VERDICT_FLIP);
	CHECK_VERDICT("003", "wq_worker_waking_up", 677, LP_VERDICT_FLIP);
}

static void test_seed__004_pick_next_task_rt_flips(void)
{
	CHECK_VERDICT("004", "_pick_next_task_rt", 1064, LP_VERDICT_FLIP);
}

static void test_seed__005_to_010_removals(void)
{
	CHECK_VERDICT("005", "grab_cache_page_write_begin", 2206,
		      LP_VERDICT_REMOVE);
	CHECK_VERDICT("006", "rt_policy", 126, LP_VERDICT_REMOVE);
	CHECK_VERDICT("007", "__switch_to", 408, LP_VERDICT_REMOVE);
	CHECK_VERDICT("007", "__switch_to", 412, LP_VERDICT_REMOVE);
	CHECK_VERDICT("007", "__switch_to", 464, LP_VERDICT_REMOVE);
	CHECK_VERDICT("008", "fput_light", 26, LP_VERDICT_REMOVE);
	CHECK_VERDICT("009", "fget_light", 315, LP_VERDICT_REMOVE);
	CHECK_VERDICT("010", "ttwu_post_activation", 2309, LP_VERDICT_REMOVE);
}

/* The nine rows of fput_light fold into one site with their sum. */
static void test_seed__008_folds_copies(void)
{
	struct lp_profile p;
	struct lp_judged_list J = LP_JUDGED_LIST_INIT;

	judge_seed("008", &p, &J);
	LP_CHECK_INT(J.nr, 1);
	if (J.nr == 1) {
		LP_CHECK_INT(J.v[0].nrows, 9);
		LP_CHECK_U64(J.v[0].j.total.correct, 1029878071ULL);
		LP_CHECK_U64(J.v[0].j.total.incorrect, 6196445154ULL);
	}
	lp_judged_list_release(&J);
	lp_profile_release(&p);
}

/* Line 659 folded is 79.9% wrong (the function as a whole, 39%). */
static void test_seed__011_page_mapping(void)
{
	CHECK_VERDICT("011", "page_mapping", 659, LP_VERDICT_REMOVE);
	CHECK_VERDICT("011", "page_mapping", 657, LP_VERDICT_FINE);
}

static enum lp_verdict judge(const struct lp_policy *pol,
			     const struct lp_counts *c, size_t n, long expect,
			     struct lp_judgement *j)
{
	return lp_policy_judge(pol, c, n, expect, j);
}

/*
 * A stated probability is judged by its number: the measured one (how
 * often the value came) within restate_at points is fine, beyond is a
 * restate, both exactly at the bound; a number held in one profile and
 * not in another is removed; below one half "right" counts the times
 * the value did not come; few evaluations stay few; never a flip.
 */
static void test_rules__stated_probability(void)
{
	struct lp_policy pol = LP_POLICY_INIT;
	struct lp_judgement j;
	struct lp_counts c = { .correct = 10000, .incorrect = 90000 };
	struct lp_counts two[2] = {
		{ .correct = 50000, .incorrect = 50000 },
		{ .correct = 90000, .incorrect = 10000 },
	};

	/* stated 0.9, came 10% */
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, 1, 1 + 900000, &j),
		     LP_VERDICT_RESTATE);
	LP_CHECK_INT(j.measured_prob, 1 + 100000);
	LP_CHECK_INT(lp_prob_restated(j.measured_prob), 1 + 100000);
	/* stated 0.6, came 55%: within 10 points */
	c.correct = 55000;
	c.incorrect = 45000;
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, 1, 1 + 600000, &j),
		     LP_VERDICT_FINE);
	/* exactly 10 points off is still within; one evaluation less not */
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, 1, 1 + 650000, &j),
		     LP_VERDICT_FINE);
	c.correct = 54999;
	c.incorrect = 45001;
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, 1, 1 + 650000, &j),
		     LP_VERDICT_RESTATE);
	/* below one half: right was "not the value", 30000 of 100000 */
	c.correct = 30000;
	c.incorrect = 70000;
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, LP_EXPECT_UNKNOWN,
					    1 + 300000, &j),
		     LP_VERDICT_RESTATE);
	LP_CHECK_INT(j.measured_prob, 1 + 700000);
	/* a number that held in one profile only */
	LP_CHECK_INT(lp_policy_judge_stated(&pol, two, 2, 1, 1 + 500000, &j),
		     LP_VERDICT_REMOVE);
	LP_CHECK_INT(j.profiles_right, 1);
	LP_CHECK_INT(j.profiles_wrong, 1);
	/* right on the sum (0.3 came 30%), off in each profile: remove */
	LP_CHECK_INT(lp_policy_judge_stated(&pol, two, 2, 1, 1 + 300000, &j),
		     LP_VERDICT_REMOVE);
	/* 0.9 off in both (20% and 30%): restate, never flip, to 0.25 */
	two[0].correct = 20000;
	two[0].incorrect = 80000;
	two[1].correct = 30000;
	two[1].incorrect = 70000;
	LP_CHECK_INT(lp_policy_judge_stated(&pol, two, 2, 1, 1 + 900000, &j),
		     LP_VERDICT_RESTATE);
	LP_CHECK_INT(lp_prob_restated(j.measured_prob), 1 + 250000);
	/* few stays few, a wider bound makes it fine */
	c.correct = 10;
	c.incorrect = 90;
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, 1, 1 + 900000, &j),
		     LP_VERDICT_FEW);
	pol.restate_at = 85.0;
	c.correct = 10000;
	c.incorrect = 90000;
	LP_CHECK_INT(lp_policy_judge_stated(&pol, &c, 1, 1, 1 + 900000, &j),
		     LP_VERDICT_FINE);
	pol.restate_at = 101.0;
	LP_CHECK_INT(lp_policy_check(&pol), -LP_EINVAL);
	/* two places, kept off certainty */
	LP_CHECK_INT(lp_prob_restated(1), 1 + 10000);
	LP_CHECK_INT(lp_prob_restated(1 + 1000000), 1 + 990000);
	LP_CHECK_INT(lp_prob_restated(1 + 454999), 1 + 450000);
	LP_CHECK_INT(lp_prob_restated(1 + 455000), 1 + 460000);
}

static void test_rules__thresholds_are_exact(void)
{
	struct lp_judgement j;
	struct lp_counts c = { .correct = 10000, .incorrect = 990000 };

	/* exactly 99%: flips, the bound is inclusive */
	LP_CHECK_INT(judge(&defaults, &c, 1, 1, &j), LP_VERDICT_FLIP);
	c.correct = 10001;
	LP_CHECK_INT(judge(&defaults, &c, 1, 1, &j), LP_VERDICT_REMOVE);
	/* 30% removes, 29.9999% does not */
	c.correct = 700000;
	c.incorrect = 300000;
	LP_CHECK_INT(judge(&defaults, &c, 1, 1, &j), LP_VERDICT_REMOVE);
	c.correct = 700001;
	LP_CHECK_INT(judge(&defaults, &c, 1, 1, &j), LP_VERDICT_FINE);
}

static void test_rules__counts_near_2_64(void)
{
	struct lp_judgement j;
	struct lp_counts c = { .correct = 1,
			       .incorrect = 18446744073709551000ULL };

	LP_CHECK_INT(judge(&defaults, &c, 1, 0, &j), LP_VERDICT_FLIP);
}

static void test_rules__constant_never_few(void)
{
	struct lp_judgement j;
	struct lp_counts konst = { .correct = 500000, .constant = 500000 };
	struct lp_counts never = { .correct = 0 };
	struct lp_counts few = { .incorrect = 9999 };

	LP_CHECK_INT(judge(&defaults, &konst, 1, 1, &j), LP_VERDICT_CONSTANT);
	LP_CHECK_INT(judge(&defaults, &never, 1, 1, &j), LP_VERDICT_NEVER);
	LP_CHECK_INT(judge(&defaults, &few, 1, 1, &j), LP_VERDICT_FEW);
}

/* Constant evaluations say nothing about the annotation. */
static void test_rules__constants_left_out_of_the_ratio(void)
{
	struct lp_judgement j;
	struct lp_counts c = { .correct = 1000000, .incorrect = 99000,
			       .constant = 990000 };

	/* 990000 of the correct ones were constants: 10000 right, 99000
	 * wrong */
	LP_CHECK_INT(judge(&defaults, &c, 1, 1, &j), LP_VERDICT_REMOVE);
	LP_CHECK_U64(j.evals, 109000);
	LP_CHECK_U64(j.right, 10000);
}

/* Counts of one profile without votes, for arrays of them. */
#define COUNTS(c, i, k) { .correct = c, .incorrect = i, .constant = k }

/* Seed 007's lesson: right on one machine, wrong on another: remove. */
static void test_profiles__disagreement_removes(void)
{
	struct lp_judgement j;
	struct lp_counts two[2] = {
		COUNTS(10, 2000000, 0), COUNTS(20000, 10, 0)
	};

	LP_CHECK_INT(judge(&defaults, two, 2, 0, &j), LP_VERDICT_REMOVE);
	LP_CHECK(j.disagree);
	LP_CHECK_INT(j.profiles_right, 1);
	LP_CHECK_INT(j.profiles_wrong, 1);
}

/*
 * A merged profile speaks with its inputs' votes: one right vote among
 * its wrong ones makes a flip a remove, as the profiles themselves would;
 * with every vote wrong its sum decides, and the votes are counted.
 */
static void test_profiles__votes_of_a_merge(void)
{
	struct lp_judgement j;
	struct lp_counts merged = { .correct = 10, .incorrect = 2000000,
				    .votes_right = 1, .votes_wrong = 3,
				    .has_votes = 1 };
	struct lp_counts all_wrong = { .correct = 10, .incorrect = 2000000,
				       .votes_wrong = 200, .has_votes = 1 };

	LP_CHECK_INT(judge(&defaults, &merged, 1, 1, &j), LP_VERDICT_REMOVE);
	LP_CHECK(j.disagree);
	LP_CHECK_INT(j.profiles_right, 1);
	LP_CHECK_INT(j.profiles_wrong, 3);
	LP_CHECK_INT(judge(&defaults, &all_wrong, 1, 1, &j), LP_VERDICT_FLIP);
	LP_CHECK_INT(j.profiles_wrong, 200);
}

static void test_profiles__flip_needs_every_profile(void)
{
	struct lp_judgement j;
	struct lp_counts both[2] = {
		COUNTS(1, 2000000, 0), COUNTS(0, 500000, 0)
	};
	struct lp_counts mostly[2] = {
		COUNTS(10, 2000000, 0), COUNTS(1000, 20000, 0)
	};
	struct lp_counts small[2] = {
		COUNTS(10, 2000000, 0), COUNTS(50, 10, 0)
	};

	LP_CHECK_INT(judge(&defaults, both, 2, 1, &j), LP_VERDICT_FLIP);
	/* the second is only 95% wrong: a flip would hurt it */
	LP_CHECK_INT(judge(&defaults, mostly, 2, 1, &j), LP_VERDICT_REMOVE);
	/* a profile with too few evaluations has no say */
	LP_CHECK_INT(judge(&defaults, small, 2, 1, &j), LP_VERDICT_FLIP);
}

/*
 * Counts read from a binary: an ambiguous or unjudgeable site gets only
 * "unsure" (an ambiguous one's counts may miss evaluations, so even its
 * "fine" could be false), an exact one is judged as usual.
 */
static void test_sure__no_change_from_unsure_sites(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	const struct lp_profile *ptr = &p;
	struct lp_judged_list J = LP_JUDGED_LIST_INIT;
	struct lp_prof_site s;
	enum lp_sure sure[4] = { LP_SURE_EXACT, LP_SURE_AMBIGUOUS,
				 LP_SURE_UNJUDGEABLE, LP_SURE_AMBIGUOUS };
	enum lp_verdict want[4] = { LP_VERDICT_FLIP, LP_VERDICT_UNSURE,
				    LP_VERDICT_UNSURE, LP_VERDICT_UNSURE };
	long i;

	memset(&s, 0, sizeof(s));
	s.file = "a.c";
	s.func = s.unit = s.cond = "";
	s.expect = 1;
	for (i = 0; i < 4; i++) {
		s.line = i + 1;
		s.correct = i == 3 ? 1000000 : 10;
		s.incorrect = i == 3 ? 10 : 1000000;
		s.sure = sure[i];
		LP_CHECK_INT(lp_profile_add(&p, &s), 0);
	}
	LP_CHECK_INT(lp_judge_profiles(&J, &defaults, &ptr, 1), 0);
	LP_CHECK_INT(J.nr, 4);
	for (i = 0; i < 4 && J.nr == 4; i++)
		LP_CHECK_STR(lp_verdict_name(J.v[i].j.verdict),
			     lp_verdict_name(want[i]));
	lp_judged_list_release(&J);
	lp_profile_release(&p);
}

/* Fine on the sum, but one workload suffers: remove. */
static void test_profiles__fine_sum_wrong_in_one(void)
{
	struct lp_judgement j;
	struct lp_counts c[2] = {
		COUNTS(100000000, 1000, 0), COUNTS(1000, 50000, 0)
	};

	LP_CHECK_INT(judge(&defaults, c, 2, 1, &j), LP_VERDICT_REMOVE);
}

static void test_options__no_flip_and_values(void)
{
	struct lp_policy pol = LP_POLICY_INIT;
	struct lp_judgement j;
	struct lp_counts c = { .incorrect = 1000000 };

	pol.no_flip = 1;
	LP_CHECK_INT(judge(&pol, &c, 1, 1, &j), LP_VERDICT_REMOVE);
	/* __builtin_expect(x, 5) has no opposite */
	LP_CHECK_INT(judge(&defaults, &c, 1, 5, &j), LP_VERDICT_REMOVE);
	pol.flip_at = 101;
	LP_CHECK_INT(lp_policy_check(&pol), -LP_EINVAL);
}

/*
 * Processes that each went one way all through: three or more make a
 * remove or flip a setting, that keeps the verdict it replaces; fewer
 * leave the verdict, marked; one process that went both ways, a kernel
 * table (no process known) or --setting-processes 0 leave it as it is.
 */
static void test_settings__one_way_processes(void)
{
	struct lp_policy pol = LP_POLICY_INIT;
	struct lp_judgement j;
	struct lp_counts per[4];
	size_t i;

	memset(per, 0, sizeof(per));
	for (i = 0; i < 4; i++) {
		per[i].incorrect = 50000;       /* unlikely(flag), flag set */
		per[i].one_process = 1;
	}
	LP_CHECK_INT(judge(&pol, per, 4, 0, &j), LP_VERDICT_SETTING);
	LP_CHECK_INT(j.setting_of, LP_VERDICT_FLIP);
	LP_CHECK_INT(j.procs_wrong, 4);
	LP_CHECK_INT(judge(&pol, per, 2, 0, &j), LP_VERDICT_FLIP);
	LP_CHECK_INT(j.one_way_few, 1);
	/* set in two, not in two: right in some processes, wrong in others */
	per[2].incorrect = per[3].incorrect = 0;
	per[2].correct = per[3].correct = 50000;
	LP_CHECK_INT(judge(&pol, per, 4, 0, &j), LP_VERDICT_SETTING);
	LP_CHECK_INT(j.setting_of, LP_VERDICT_REMOVE);
	LP_CHECK_INT(j.procs_right, 2);
	/* one process went both ways: the data decides there */
	per[3].incorrect = 10;
	LP_CHECK_INT(judge(&pol, per, 4, 0, &j), LP_VERDICT_REMOVE);
	LP_CHECK_INT(j.procs_both, 1);
	/* a profile that cannot say (a kernel table) */
	per[3].incorrect = 0;
	per[3].one_process = 0;
	LP_CHECK_INT(judge(&pol, per, 4, 0, &j), LP_VERDICT_REMOVE);
	LP_CHECK_INT(j.procs_known, 0);
	/* a merged profile says it in its fields; constants are no way */
	memset(per, 0, sizeof(per));
	per[0].incorrect = 900000;
	per[0].correct = per[0].constant = 7;
	per[0].has_procs = 1;
	per[0].procs_wrong = 6;
	LP_CHECK_INT(judge(&pol, per, 1, 0, &j), LP_VERDICT_SETTING);
	pol.setting_procs = 0;
	LP_CHECK_INT(judge(&pol, per, 1, 0, &j), LP_VERDICT_FLIP);
	LP_CHECK_INT(j.one_way_few, 0);
	LP_CHECK_INT(lp_counts_way(7, 0, 7), LP_WAY_NONE);
	LP_CHECK_INT(lp_counts_way(107, 0, 7), LP_WAY_RIGHT);
	LP_CHECK_INT(lp_counts_way(7, 100, 7), LP_WAY_WRONG);
	LP_CHECK_INT(lp_counts_way(8, 1, 7), LP_WAY_BOTH);
	/* a process that ran it a few times did not go one way all through */
	LP_CHECK_INT(lp_counts_way(106, 0, 7), LP_WAY_NONE);
	LP_CHECK_INT(lp_counts_way(0, 99, 0), LP_WAY_NONE);
}

int main(void)
{
	LP_TEST(test_seed__001_cover_letter);
	LP_TEST(test_seed__002_mapping_unevictable);
	LP_TEST(test_seed__003_workqueue_flips);
	LP_TEST(test_seed__004_pick_next_task_rt_flips);
	LP_TEST(test_seed__005_to_010_removals);
	LP_TEST(test_seed__008_folds_copies);
	LP_TEST(test_seed__011_page_mapping);
	LP_TEST(test_rules__thresholds_are_exact);
	LP_TEST(test_rules__counts_near_2_64);
	LP_TEST(test_rules__constant_never_few);
	LP_TEST(test_rules__constants_left_out_of_the_ratio);
	LP_TEST(test_profiles__disagreement_removes);
	LP_TEST(test_profiles__flip_needs_every_profile);
	LP_TEST(test_profiles__votes_of_a_merge);
	LP_TEST(test_profiles__fine_sum_wrong_in_one);
	LP_TEST(test_sure__no_change_from_unsure_sites);
	LP_TEST(test_options__no_flip_and_values);
	LP_TEST(test_settings__one_way_processes);
	LP_TEST(test_rules__stated_probability);
	return lp_test_done();
}
