/*
 * u-fold.c - folded views and path canonicalisation
 *
 * What is checked: the totals the seeds' authors computed by hand come
 * out of the folds (seed 011: page_mapping() per line and per function;
 * seed 008: fput_light()), the fold's key and row order, and the lexical
 * path rules of lp_path_canonical().
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "ktable.h"
#include "profile.h"
#include "sites.h"
#include "test.h"

static void read_seed(struct lp_profile *p, const char *name)
{
	struct lp_diag diag;
	char path[64];

	snprintf(path, sizeof(path), "tests/data/seeds/%s.txt", name);
	if (lp_profile_read_file(p, path, &diag))
		LP_FAIL_("%s", diag.msg);
}

static const struct lp_prof_site *find(const struct lp_profile *p,
				       long line)
{
	size_t i;

	for (i = 0; i < p->nr; i++)
		if (p->sites[i].line == line)
			return &p->sites[i];
	LP_FAIL_("no row for line %ld", line);
	return NULL;
}

/* "The unlikely in page_mapping() was correct a total of 1909540379 ..." */
static void test_fold__seed_011(void)
{
	struct lp_profile in = LP_PROFILE_INIT, lines = LP_PROFILE_INIT;
	struct lp_profile funcs = LP_PROFILE_INIT;
	const struct lp_prof_site *s;

	read_seed(&in, "011");
	LP_CHECK_INT(lp_profile_fold(&lines, &in, LP_GROUP_LINE), 0);
	LP_CHECK_INT(lines.nr, 2);
	/* first appearance: line 659 is the table's first row */
	LP_CHECK_INT(lines.nr ? lines.sites[0].line : 0, 659);
	if ((s = find(&lines, 657))) {
		LP_CHECK_U64(s->correct, 1589900639);
		LP_CHECK_U64(s->incorrect, 267477);
		LP_CHECK_INT(lp_kernel_percent(s->correct, s->incorrect), 0);
	}
	if ((s = find(&lines, 659))) {
		LP_CHECK_U64(s->correct, 319639740);
		LP_CHECK_U64(s->incorrect, 1270265646);
		LP_CHECK_INT(lp_kernel_percent(s->correct, s->incorrect), 79);
	}
	LP_CHECK_INT(lp_profile_fold(&funcs, &in, LP_GROUP_FUNCTION), 0);
	LP_CHECK_INT(funcs.nr, 1);
	if (funcs.nr == 1) {
		s = &funcs.sites[0];
		LP_CHECK_STR(s->func, "page_mapping");
		LP_CHECK_INT(s->line, 657);     /* the smallest line */
		LP_CHECK_U64(s->correct, 1909540379);
		LP_CHECK_U64(s->incorrect, 1270533123);
		LP_CHECK_INT(lp_kernel_percent(s->correct, s->incorrect), 39);
	}
	lp_profile_release(&in);
	lp_profile_release(&lines);
	lp_profile_release(&funcs);
}

/*
 * Seed 008 says "1032903812 times it was correct and 6203351846 times it
 * was incorrect, or 85% incorrect", but the nine rows it quotes add up to
 * 1029878071 and 6196445154 (the mail's total must include rows it did
 * not paste); both are 85%.  The fold can only sum the rows it is given.
 */
static void test_fold__seed_008(void)
{
	struct lp_profile in = LP_PROFILE_INIT, funcs = LP_PROFILE_INIT;

	read_seed(&in, "008");
	LP_CHECK_INT(lp_profile_fold(&funcs, &in, LP_GROUP_FUNCTION), 0);
	LP_CHECK_INT(funcs.nr, 1);
	if (funcs.nr == 1) {
		const struct lp_prof_site *s = &funcs.sites[0];

		LP_CHECK_STR(s->func, "fput_light");
		LP_CHECK_U64(s->correct, 1029878071);
		LP_CHECK_U64(s->incorrect, 6196445154ULL);
		LP_CHECK_INT(lp_kernel_percent(s->correct, s->incorrect), 85);
		LP_CHECK_INT(lp_kernel_percent(1032903812, 6203351846ULL), 85);
	}
	lp_profile_release(&in);
	lp_profile_release(&funcs);
}

/*
 * One header reached under two spellings folds into one row; the unit
 * goes; a different condition or expect on the same line stays apart in
 * the line view and joins in the function view.
 */
static void test_fold__keys(void)
{
	struct lp_profile in = LP_PROFILE_INIT, out = LP_PROFILE_INIT;

	add_site(&in, "lib//common/x.h", 10, "f", 0, "a.c", "c1", 1, 2, 1);
	add_site(&in, "lib/decompress/../common/x.h", 10, "f", 0, "b.c", "c1",
		 10, 20, 1);
	add_site(&in, "lib/common/x.h", 10, "f", 0, "a.c", "c2", 100, 200, 1);
	add_site(&in, "lib/common/x.h", 12, "f", 1, "a.c", "c3", 1000, 2000, 1);
	add_site(&in, "lib/common/x.h", 8, "g", 1, "a.c", "c4", 5, 5, 1);
	LP_CHECK_INT(lp_profile_fold(&out, &in, LP_GROUP_LINE), 0);
	LP_CHECK_INT(out.nr, 4);
	if (out.nr == 4) {
		LP_CHECK_STR(out.sites[0].file, "lib/common/x.h");
		LP_CHECK_STR(out.sites[0].unit, "");
		LP_CHECK_STR(out.sites[0].cond, "c1");
		LP_CHECK_U64(out.sites[0].correct, 11);
		LP_CHECK_U64(out.sites[0].constant, 2);
		LP_CHECK_STR(out.sites[1].cond, "c2");
	}
	lp_profile_release(&out);
	LP_CHECK_INT(lp_profile_fold(&out, &in, LP_GROUP_FUNCTION), 0);
	LP_CHECK_INT(out.nr, 2);
	if (out.nr == 2) {
		LP_CHECK_STR(out.sites[0].func, "f");
		LP_CHECK_INT(out.sites[0].line, 10);
		LP_CHECK_INT(out.sites[0].expect, LP_EXPECT_UNKNOWN);
		LP_CHECK_STR(out.sites[0].cond, "");
		LP_CHECK_U64(out.sites[0].correct, 1111);
		LP_CHECK_U64(out.sites[0].incorrect, 2222);
		LP_CHECK_INT(out.sites[1].expect, 1);
	}
	lp_profile_release(&out);
	LP_CHECK_INT(lp_profile_fold(&out, &in, LP_GROUP_SITE), 0);
	LP_CHECK_INT(out.nr, 5);
	LP_CHECK_STR(out.nr ? out.sites[1].file : "",
		     "lib/decompress/../common/x.h");
	lp_profile_release(&out);
	lp_profile_release(&in);
}

static void test_fold__saturates(void)
{
	struct lp_profile in = LP_PROFILE_INIT, out = LP_PROFILE_INIT;

	add_site(&in, "a.c", 1, "f", 1, "", "", UINT64_MAX, 1, 1);
	add_site(&in, "a.c", 1, "f", 1, "u", "", 1, UINT64_MAX, 1);
	LP_CHECK_INT(lp_profile_fold(&out, &in, LP_GROUP_LINE), 0);
	LP_CHECK_U64(out.sites[0].correct, UINT64_MAX);
	LP_CHECK_U64(out.sites[0].incorrect, UINT64_MAX);
	lp_profile_release(&out);
	lp_profile_release(&in);
}

static void test_path__canonical(void)
{
	static const char *const cases[][2] = {
		{ "lib//decompress/../common/x.h", "lib/common/x.h" },
		{ "lib//common/x.h", "lib/common/x.h" },
		{ "./a.c", "a.c" },
		{ "a/./b/./c.c", "a/b/c.c" },
		{ "a/b/../../c.c", "c.c" },
		{ "../a.c", "../a.c" },
		{ "../../a/../b.c", "../../b.c" },
		{ "a/../../b.c", "../b.c" },
		{ "/usr/../include/x.h", "/include/x.h" },
		{ "/../x.h", "/x.h" },
		{ "//x.h", "/x.h" },
		{ "a/..", "." },
		{ ".", "." },
		{ "/", "/" },
		{ "a/b/", "a/b" },
		{ "", "" },
		{ "..a/b..c/...", "..a/b..c/..." },
	};
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *got = lp_path_canonical(cases[i][0]);

		if (!got || strcmp(got, cases[i][1]))
			LP_FAIL_("'%s' gives '%s', want '%s'", cases[i][0],
				 got ? got : "(null)", cases[i][1]);
		free(got);
	}
	LP_CHECK_STR(lp_path_base("arch/x86/kernel/process_64.c"),
		     "process_64.c");
	LP_CHECK_STR(lp_path_base("mm.h"), "mm.h");
	LP_CHECK_STR(lp_path_base("dir/"), "");
}

int main(void)
{
	LP_TEST(test_fold__seed_011);
	LP_TEST(test_fold__seed_008);
	LP_TEST(test_fold__keys);
	LP_TEST(test_fold__saturates);
	LP_TEST(test_path__canonical);
	return lp_test_done();
}
