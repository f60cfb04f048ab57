/*
 * u-mrec.c - a merge's records read in place (lib/profile/mrec.c)
 *
 * What is checked: a record lp_mrec_parse() accepts is the record the
 * reader (lp_profile_read_buf()) gives, counts, key and the rest; the
 * spellings the writer never makes (a number of 20 digits, a negative
 * expect, an escape of a byte that needs none, a control byte) are left
 * to the reader; two records of one key compare equal whichever way
 * each was read, and records of different keys in lp_site_cmp()'s order.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mrec.h"
#include "profile.h"
#include "test.h"

static const char *const lines[] = {
	"site\t12\t0\t0\t1\tprog.c\t88\tmain\tprog.c\t!!(argc > 1)",
	"site\t0\t7\t3\t?\ta.h\t1\t\t\t",
	"site\t5\t5\t0\tif\ta.h\t2\tf\tu.c\tx",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\tc == '\\\\'",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\ttab\\there\\x01\\x7f",
	"site\t1\t2\t0\t0\ta\\\\b.h\t3\tf\\n\tu.c\tc",
	"site\t19800\t200\t0\t0\tp.c\t19\tmain\tp.c\tc\testimated\t\t\t990\t10",
	"site\t90003\t9\t0\t0\tp.c\t408\ts\tp.c\tc\t\t1\t3",
	"site\t0\t800000\t0\t0\tm.c\t15\tmain\tm.c\tg\t\t0\t4\t\t\t0\t4\t0",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\tc\texact",
	"site\t9\t1\t0\t1@0.9\tp.c\t11\tf\tp.c\tx",
	"site\t5\t5\t0\t?@0.05\tp.c\t12\tf\tp.c\ty",
	"site\t1\t2\t0\t-1\ta.h\t3\tf\tu.c\tc",
	"site\t5\t5\t0\tif@0.5\ta.h\t2\tf\tu.c\tx",
	"site\t5\t5\t0\t1@0.50\ta.h\t2\tf\tu.c\tx",
	"site\t18446744073709551615\t2\t0\t0\ta.h\t3\tf\tu.c\tc",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\t\\x41",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\t\\x09",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\t\\q",
	"site\t01\t2\t0\t0\ta.h\t3\tf\tu.c\tc",
	"site\t1\t2\t0\t0\ta.h\t0\tf\tu.c\tc",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\tc\t\t1",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\tc\x01",
	"site\t1\t2\t0\t0\ta.h\t3\tf\tu.c\tc\r",
};

/* The reader's reading of @line as a profile's one site, or -1. */
static int read_line(struct lp_profile *p, const char *line)
{
	char text[512];
	struct lp_diag diag;

	snprintf(text, sizeof(text), "likelyprof-profile\t1\n%s\nend\t1\n",
		 line);
	return lp_profile_read_buf(p, "t", text, strlen(text), &diag);
}

static int same_text(const char *a, size_t an, const char *b)
{
	return an == strlen(b) && !memcmp(a, b, an);
}

static void test_mrec__as_the_reader(void)
{
	size_t i, accepted = 0;

	for (i = 0; i < sizeof(lines) / sizeof(lines[0]); i++) {
		struct lp_profile p = LP_PROFILE_INIT, pool = LP_PROFILE_INIT;
		struct lp_mrec m, r;
		size_t len = strlen(lines[i]);
		char *copy = malloc(len + 16);
		int ok, err;

		memcpy(copy, lines[i], len);
		memset(copy + len, '\n', 16);
		ok = lp_mrec_parse(&m, copy, len, copy + len + 16, &pool);
		err = read_line(&p, lines[i]);
		if (ok) {
			accepted++;
			LP_CHECK_INT(err, 0);
			LP_CHECK_INT(p.nr, 1);
		}
		if (ok && !err && p.nr == 1) {
			const struct lp_prof_site *s = &p.sites[0];

			LP_CHECK(m.s.correct == s->correct &&
				 m.s.incorrect == s->incorrect &&
				 m.s.constant == s->constant &&
				 m.s.expect == s->expect &&
				 m.s.prob == s->prob &&
				 m.s.line == s->line && m.s.sure == s->sure);
			LP_CHECK(m.s.has_votes == s->has_votes &&
				 m.s.votes_right == s->votes_right &&
				 m.s.has_samples == s->has_samples &&
				 m.s.samp_wrong == s->samp_wrong &&
				 m.s.has_procs == s->has_procs &&
				 m.s.procs_wrong == s->procs_wrong);
			LP_CHECK(same_text(m.s.file, m.file_n, s->file) &&
				 same_text(m.s.func, m.func_n, s->func) &&
				 same_text(m.s.unit, m.unit_n, s->unit) &&
				 same_text(m.s.cond, m.cond_n, s->cond));
			lp_mrec_of_site(&r, s);
			LP_CHECK_INT(lp_mrec_cmp(&m, &r), 0);
			LP_CHECK_INT(lp_mrec_cmp(&r, &m), 0);
		}
		/* from the twelfth line on: none in the writer's spelling */
		if (i >= 12)
			LP_CHECK_INT(ok, 0);
		lp_profile_release(&p);
		lp_profile_release(&pool);
		free(copy);
	}
	LP_CHECK_INT(accepted, 12);
}

/* Records of different keys: lp_site_cmp()'s order, either way read. */
static void test_mrec__order(void)
{
	static const char *const sorted[] = {
		"site\t1\t0\t0\t1\ta.h\t9\tf\tu.c\tc",
		"site\t1\t0\t0\t1\ta.h\t10\tf\tu.c\tc",
		"site\t1\t0\t0\t0\ta.h\t10\tg\tu.c\tc",
		"site\t1\t0\t0\t1\ta.h\t10\tg\tu.c\tc",
		"site\t1\t0\t0\t1\ta.h\t10\tg\tu.c\tc\\t",
		"site\t1\t0\t0\t1\ta.h\t10\tg\tu.c\tc\\\\",
		"site\t1\t0\t0\t1\ta.h\t10\tg\tu.c\tcc",
		"site\t1\t0\t0\t1\ta.hh\t1\tf\tu.c\tc",
	};
	struct lp_profile pool = LP_PROFILE_INIT;
	struct lp_mrec m[8];
	size_t i, j, n = sizeof(sorted) / sizeof(sorted[0]);

	for (i = 0; i < n; i++)
		LP_CHECK_INT(lp_mrec_parse(&m[i], sorted[i], strlen(sorted[i]),
					   sorted[i] + strlen(sorted[i]),
					   &pool), 1);
	for (i = 0; i < n; i++)
		for (j = 0; j < n; j++) {
			int c = lp_mrec_cmp(&m[i], &m[j]);

			LP_CHECK_INT((c > 0) - (c < 0), (i > j) - (i < j));
		}
	lp_profile_release(&pool);
}

int main(void)
{
	LP_TEST(test_mrec__as_the_reader);
	LP_TEST(test_mrec__order);
	return lp_test_done();
}
