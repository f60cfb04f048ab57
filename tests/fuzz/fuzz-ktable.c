/*
 * fuzz-ktable.c - the kernel-table reader, the kernel's row format and
 * order, and the policy's verdicts on what was read
 *
 * The input's first byte chooses the table (bit 0: branch_annotated or
 * branch_all) and the policy (bits 1-3); the rest follows the table's two
 * header lines, so every input reaches the row parser.
 *
 * Properties checked (besides "no crash, no sanitizer report"):
 *  - a failed read returns a documented error with a diagnostic and
 *    leaves the profile empty; a good one has the header's origin and
 *    rows with what a table can say (no unit, no condition, expect "?"
 *    or "if", no constants in branch_all);
 *  - lp_kernel_row() prints a row the reader reads back as the same
 *    counts, line and (cut as the kernel cuts them) names;
 *  - lp_kernel_sort() orders the rows as qsort() with lp_kernel_key_cmp()
 *    does;
 *  - what is read round-trips through the likelyprof format;
 *  - lp_judge_profiles() judges every annotated row once, in file and
 *    line order, with the verdict lp_policy_judge() gives its counts.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "fuzz.h"
#include "ktable.h"
#include "policy.h"
#include "profile.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* Reads @len bytes of table: the header of @kind, then @rows. */
static int read_table(struct lp_profile *p, enum lp_prof_origin kind,
		      const char *rows, size_t len)
{
	const char *head = kind == LP_ORIGIN_KERNEL ? LP_KERNEL_HEADER
						    : LP_KERNEL_ALL_HEADER;
	size_t hl = strlen(head);
	char *buf = malloc(hl + len + 1);
	struct lp_diag diag;
	int err;

	FUZZ_CHECK(buf);
	memcpy(buf, head, hl);
	if (len)
		memcpy(buf + hl, rows, len);
	err = lp_profile_read_buf(p, "table", buf, hl + len, &diag);
	fuzz_check_read(p, err, &diag);
	free(buf);
	return err;
}

static void check_rows(const struct lp_profile *p, enum lp_prof_origin kind)
{
	size_t i;

	FUZZ_CHECK(p->origin == kind);
	for (i = 0; i < p->nr; i++) {
		const struct lp_prof_site *s = &p->sites[i];

		FUZZ_CHECK(!*s->unit && !*s->cond);
		FUZZ_CHECK(*s->func && *s->file);
		FUZZ_CHECK(s->line >= 1);
		if (kind == LP_ORIGIN_KERNEL) {
			FUZZ_CHECK(s->expect == LP_EXPECT_UNKNOWN);
		} else {
			FUZZ_CHECK(s->expect == LP_EXPECT_IF);
			FUZZ_CHECK(!s->constant);
		}
	}
}

/* The first @n bytes of @s, as "%-N.Ns" keeps them before its padding. */
static int same_cut(const char *got, const char *s, size_t n)
{
	size_t k = strlen(s) < n ? strlen(s) : n;

	return strlen(got) == k && !memcmp(got, s, k);
}

/*
 * Prints each row as the kernel does and reads the rows back.  A file
 * whose base name is empty ("dir/") prints as blanks, a row the kernel
 * would not print either: those are left out.
 */
static void check_row_roundtrip(const struct lp_profile *p,
				enum lp_prof_origin kind)
{
	struct lp_profile q = LP_PROFILE_INIT;
	char *rows = malloc(p->nr * LP_KERNEL_ROW_MAX + 1);
	const struct lp_prof_site **from = calloc(p->nr + 1, sizeof(*from));
	size_t i, n = 0, len = 0;

	FUZZ_CHECK(rows && from);
	for (i = 0; i < p->nr; i++) {
		const struct lp_prof_site *s = &p->sites[i];
		size_t l;

		if (!*lp_path_base(s->file))
			continue;
		l = lp_kernel_row(rows + len, s);
		FUZZ_CHECK(l < LP_KERNEL_ROW_MAX && l == strlen(rows + len));
		FUZZ_CHECK(rows[len + l - 1] == '\n');
		len += l;
		from[n++] = s;
	}
	FUZZ_CHECK(read_table(&q, kind, rows, len) == 0);
	FUZZ_CHECK(q.nr == n);
	for (i = 0; i < n; i++) {
		const struct lp_prof_site *a = from[i], *b = &q.sites[i];

		FUZZ_CHECK(a->correct == b->correct);
		FUZZ_CHECK(a->incorrect == b->incorrect);
		FUZZ_CHECK(a->constant == b->constant);
		FUZZ_CHECK(a->line == b->line && a->expect == b->expect);
		FUZZ_CHECK(same_cut(b->func, a->func, 30));
		FUZZ_CHECK(same_cut(b->file, lp_path_base(a->file), 20));
	}
	lp_profile_release(&q);
	free(from);
	free(rows);
}

static void check_sort(const struct lp_profile *p)
{
	struct lp_kernel_key *a = calloc(p->nr + 1, sizeof(*a));
	struct lp_kernel_key *b = calloc(p->nr + 1, sizeof(*b));
	size_t i;

	FUZZ_CHECK(a && b);
	for (i = 0; i < p->nr; i++) {
		lp_kernel_key_init(&a[i], &p->sites[i]);
		b[i] = a[i];
	}
	FUZZ_CHECK(lp_kernel_sort(a, p->nr) == 0);
	if (p->nr)
		qsort(b, p->nr, sizeof(*b), lp_kernel_key_cmp);
	for (i = 0; i < p->nr; i++) {
		/* the order is total: equal keys are equal rows */
		FUZZ_CHECK(lp_kernel_key_cmp(&a[i], &b[i]) == 0);
		FUZZ_CHECK(lp_kernel_cmp(a[i].site, b[i].site) == 0);
		FUZZ_CHECK(!i || lp_kernel_key_cmp(&a[i - 1], &a[i]) <= 0);
	}
	free(a);
	free(b);
}

static void check_judged(const struct lp_judged_list *J,
			 const struct lp_policy *pol,
			 const struct lp_profile *p, size_t nprof)
{
	size_t i, k, rows = 0, annotated = 0;

	for (i = 0; i < p->nr; i++)
		annotated += p->sites[i].expect != LP_EXPECT_IF;
	FUZZ_CHECK(J->nprof == nprof && J->origin == p->origin);
	for (i = 0; i < J->nr; i++) {
		const struct lp_judged *s = &J->v[i];
		struct lp_judgement j;
		struct lp_counts sum = { 0, 0, 0, 0, 0, 0, 0, 0, 0 };

		if (i) {
			const struct lp_judged *r = &J->v[i - 1];
			int c = strcmp(r->file, s->file);

			FUZZ_CHECK(c < 0 || (!c && r->line <= s->line));
		}
		rows += s->nrows;
		for (k = 0; k < s->nrows; k++) {
			const struct lp_prof_site *row = s->rows[k].row;

			FUZZ_CHECK(s->rows[k].prof < nprof);
			FUZZ_CHECK(row >= p->sites && row < p->sites + p->nr);
			FUZZ_CHECK(row->line == s->line);
			sum.correct = fuzz_sat_add(sum.correct, row->correct);
			sum.incorrect = fuzz_sat_add(sum.incorrect,
						     row->incorrect);
			sum.constant = fuzz_sat_add(sum.constant,
						    row->constant);
		}
		FUZZ_CHECK(!memcmp(&sum, &s->j.total, sizeof(sum)));
		lp_policy_judge(pol, s->per, nprof, s->expect, &j);
		FUZZ_CHECK(j.verdict == s->j.verdict);
		FUZZ_CHECK(s->j.right <= s->j.evals);
		FUZZ_CHECK(strcmp(lp_verdict_name(j.verdict), "unknown"));
		FUZZ_CHECK(nprof > 1 || !j.disagree);
	}
	FUZZ_CHECK(rows == nprof * annotated);
}

static void check_judge(const struct lp_profile *p, unsigned char how)
{
	static const uint64_t min_hits[] = { 0, 1, 100, LP_POLICY_MIN_HITS };
	struct lp_policy pol = LP_POLICY_INIT;
	struct lp_judged_list J = LP_JUDGED_LIST_INIT;
	const struct lp_profile *profs[2] = { p, p };
	size_t n;

	pol.min_hits = min_hits[how & 3];
	pol.no_flip = (how >> 2) & 1;
	for (n = 1; n <= 2; n++) {
		FUZZ_CHECK(lp_judge_profiles(&J, &pol, profs, n) == 0);
		check_judged(&J, &pol, p, n);
		lp_judged_list_release(&J);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct lp_profile p = LP_PROFILE_INIT;
	enum lp_prof_origin kind;

	if (!size)
		return 0;
	kind = data[0] & 1 ? LP_ORIGIN_KERNEL_ALL : LP_ORIGIN_KERNEL;
	if (read_table(&p, kind, (const char *)data + 1, size - 1))
		return 0;
	check_rows(&p, kind);
	check_row_roundtrip(&p, kind);
	check_sort(&p);
	check_judge(&p, data[0] >> 1);
	fuzz_check_roundtrip(&p);
	lp_profile_release(&p);
	return 0;
}
