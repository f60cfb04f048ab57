/*
 * overlap.c - how alike two profiles are
 */
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "overlap.h"

static uint64_t evals(const struct lp_prof_site *s)
{
	return lp_sat_add(s->correct, s->incorrect);
}

static uint64_t total(const struct lp_profile *p)
{
	uint64_t t = 0;
	size_t i;

	for (i = 0; i < p->nr; i++)
		t = lp_sat_add(t, evals(&p->sites[i]));
	return t;
}

static double share(uint64_t c, uint64_t t)
{
	return t ? (double)c / (double)t : 0.0;
}

static double min2(double x, double y)
{
	return x < y ? x : y;
}

static double spread(const struct lp_overlap_site *d)
{
	double x = d->wrong_a - d->wrong_b;

	return x < 0 ? -x : x;
}

/* Worst first; of two alike, the one with more evaluations. */
static int cmp_diff(const void *pa, const void *pb)
{
	const struct lp_overlap_site *a = pa, *b = pb;
	double da = spread(a), db = spread(b);
	uint64_t ea = a->evals_a < a->evals_b ? a->evals_a : a->evals_b;
	uint64_t eb = b->evals_a < b->evals_b ? b->evals_a : b->evals_b;

	if (da != db)
		return da < db ? 1 : -1;
	if (ea != eb)
		return ea < eb ? 1 : -1;
	return lp_site_cmp(a->a, b->a);
}

/* Adds the pair's shared share to the score, and notes it if both ran. */
static void pair(struct lp_overlap *o, const struct lp_prof_site *a,
		 const struct lp_prof_site *b, long double *score)
{
	*score += min2(share(a->correct, o->total_a),
		       share(b->correct, o->total_b));
	*score += min2(share(a->incorrect, o->total_a),
		       share(b->incorrect, o->total_b));
	o->both++;
	if (!evals(a) || !evals(b))
		return;
	o->diff[o->diff_nr].a = a;
	o->diff[o->diff_nr].b = b;
	o->diff[o->diff_nr].evals_a = evals(a);
	o->diff[o->diff_nr].evals_b = evals(b);
	o->diff[o->diff_nr].wrong_a = share(a->incorrect, evals(a));
	o->diff[o->diff_nr].wrong_b = share(b->incorrect, evals(b));
	o->diff_nr++;
}

int lp_overlap(struct lp_profile *a, struct lp_profile *b,
	       struct lp_overlap *out)
{
	long double score = 0;
	size_t i = 0, j = 0;

	memset(out, 0, sizeof(*out));
	lp_profile_sort(a);
	lp_profile_sort(b);
	out->diff = malloc((a->nr < b->nr ? a->nr : b->nr) * sizeof(*out->diff)
			   + 1);
	if (!out->diff)
		return -LP_ENOMEM;
	out->total_a = total(a);
	out->total_b = total(b);
	out->sites_a = a->nr;
	out->sites_b = b->nr;
	/* the k-th record of a key in one pairs with the k-th in the other */
	while (i < a->nr && j < b->nr) {
		int c = lp_site_cmp(&a->sites[i], &b->sites[j]);

		if (c < 0)
			i++;
		else if (c > 0)
			j++;
		else
			pair(out, &a->sites[i++], &b->sites[j++], &score);
	}
	/* two profiles that never ran anything are alike */
	out->score = !out->total_a && !out->total_b ? 1.0 : (double)score;
	if (out->score > 1.0)
		out->score = 1.0;       /* rounding of the shares */
	qsort(out->diff, out->diff_nr, sizeof(*out->diff), cmp_diff);
	return 0;
}

void lp_overlap_release(struct lp_overlap *o)
{
	if (!o)
		return;
	free(o->diff);
	memset(o, 0, sizeof(*o));
}
