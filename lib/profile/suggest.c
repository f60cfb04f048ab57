/*
 * suggest.c - unannotated branches that go one way almost always
 *
 * The records are few next to a profile's hints in practice (branch_all
 * of a kernel holds tens of thousands), so one sort of pointers does the
 * folding: records of one key end up side by side.
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "suggest.h"

/* (file, line, func): where a record is, whatever its kind. */
static int cmp_place(const struct lp_prof_site *a,
		     const struct lp_prof_site *b)
{
	int c = lp_strcmp0(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return lp_strcmp0(a->func, b->func);
}

/* Places first, then `if` records before hints, then the condition. */
static int cmp_row(const void *pa, const void *pb)
{
	const struct lp_prof_site *a = *(const struct lp_prof_site *const *)pa;
	const struct lp_prof_site *b = *(const struct lp_prof_site *const *)pb;
	int c = cmp_place(a, b), ia, ib;

	if (c)
		return c;
	ia = a->expect == LP_EXPECT_IF;
	ib = b->expect == LP_EXPECT_IF;
	if (ia != ib)
		return ib - ia;
	return lp_strcmp0(a->cond, b->cond);
}

/*
 * Whether @part is at least @at percent of @whole, exactly: thresholds
 * are kept to 1/10000 of a percent, as the policy keeps them.
 */
static int at_least(uint64_t part, uint64_t whole, double at)
{
	unsigned __int128 lhs = (unsigned __int128)part * 1000000;
	unsigned __int128 rhs = (unsigned __int128)whole *
				(uint64_t)(at * 10000 + 0.5);

	return lhs >= rhs;
}

int lp_suggest(struct lp_suggestions *out,
	       const struct lp_profile *const *profs,
	       size_t n, double at, uint64_t min)
{
	const struct lp_prof_site **rows;
	size_t total = 0, nr = 0, i, k, j;

	out->v = NULL;
	out->nr = 0;
	out->branches = 0;
	if (!(at > 50.0 && at <= 100.0))
		return -LP_EINVAL;
	for (i = 0; i < n; i++)
		total += profs[i]->nr;
	rows = malloc((total ? total : 1) * sizeof(*rows));
	if (!rows)
		return -LP_ENOMEM;
	for (i = 0; i < n; i++)
		for (k = 0; k < profs[i]->nr; k++)
			rows[nr++] = &profs[i]->sites[k];
	if (nr > 1)
		qsort(rows, nr, sizeof(*rows), cmp_row);
	for (i = 0; i < nr; i = j) {
		const struct lp_prof_site *r = rows[i];
		uint64_t taken = 0, not_taken = 0, constant = 0, evals;
		int hinted = 0;
		size_t e;

		for (j = i; j < nr && !cmp_place(rows[j], r); j++)
			hinted |= rows[j]->expect != LP_EXPECT_IF;
		/* rows[i..j) share a place; its if records come first */
		for (k = i; k < j && rows[k]->expect == LP_EXPECT_IF; k = e) {
			for (e = k; e < j && rows[e]->expect == LP_EXPECT_IF &&
			     !lp_strcmp0(rows[e]->cond, rows[k]->cond); e++) {
				/* correct counts false, incorrect true */
				not_taken = lp_sat_add(not_taken,
						    rows[e]->correct);
				taken = lp_sat_add(taken, rows[e]->incorrect);
				constant = lp_sat_add(constant,
						      rows[e]->constant);
			}
			out->branches++;
			evals = lp_sat_add(taken, not_taken);
			/* one the compiler folded everywhere needs none */
			if (!hinted && evals >= min && evals &&
			    constant < evals &&
			    (at_least(taken, evals, at) ||
			     at_least(not_taken, evals, at))) {
				struct lp_suggestion *s, *v = realloc(out->v,
					(out->nr + 1) * sizeof(*v));

				if (!v) {
					free(rows);
					lp_suggestions_release(out);
					return -LP_ENOMEM;
				}
				out->v = v;
				s = &v[out->nr++];
				s->file = rows[k]->file;
				s->func = rows[k]->func;
				s->cond = rows[k]->cond;
				s->line = rows[k]->line;
				s->taken = taken;
				s->not_taken = not_taken;
				s->likely = taken > not_taken;
			}
			taken = not_taken = constant = 0;
		}
	}
	free(rows);
	return 0;
}

void lp_suggestions_release(struct lp_suggestions *s)
{
	free(s->v);
	s->v = NULL;
	s->nr = 0;
	s->branches = 0;
}
