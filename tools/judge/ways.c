/*
 * ways.c - what each process of a judged run did at each exact site
 *
 * run's merge keeps, per site, how many processes found the hint right
 * and how many wrong (votes), and how many went one way all through,
 * only the other, or both (ways: doc/FORMAT.md): what tells a hint that
 * follows a setting of the process from one that follows the data.
 * judge reads every process into one sum, so each callgrind file (one a
 * process) is read again here, keeping only the jumps that the exact
 * sites sum, and each site's terms are summed with that process's
 * counts.  Where the processes' sums are not the site's (a count the
 * files do not give alike), the site is left without them: unknown, as
 * an older profile's.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "policy.h"
#include "usage.h"

void lp_terms_add(struct lp_terms *t, size_t insn, int taken, int right)
{
	if (t->nr == t->alloc) {
		t->alloc = t->alloc ? 2 * t->alloc : 4;
		t->v = lp_xrealloc(t->v, t->alloc * sizeof(*t->v));
	}
	t->v[t->nr].insn = insn;
	t->v[t->nr].taken = (unsigned char)!!taken;
	t->v[t->nr++].right = (unsigned char)!!right;
}

/* An instruction whose counts a process's sums need. */
struct need {
	const char *obj;
	uint64_t addr;
};

static int cmp_need(const void *pa, const void *pb)
{
	const struct need *a = pa, *b = pb;
	int c = strcmp(a->obj, b->obj);

	return c ? c : (a->addr > b->addr) - (a->addr < b->addr);
}

/* One process's counts of the needed instructions. */
struct pass {
	const struct need *v;
	size_t nr;
	uint64_t *exe, *taken, *called;
};

static long need_at(const struct pass *p, const char *obj, uint64_t addr)
{
	struct need key = { obj, addr };
	const struct need *n = bsearch(&key, p->v, p->nr, sizeof(*p->v),
				       cmp_need);

	return n ? (long)(n - p->v) : -1;
}

static void sink(void *ctx, const struct lp_insn *ins)
{
	struct pass *p = ctx;
	long k = need_at(p, ins->obj, ins->addr);

	if (k < 0)
		return;
	p->exe[k] += ins->exe;
	p->taken[k] += ins->taken;
	p->called[k] += ins->called;
}

/* The jumps the terms name, and the instruction after each inferred one. */
static struct need *needs_of(const struct lp_insns *in,
			     const struct lp_terms *terms, size_t nsites,
			     size_t *nr)
{
	struct need *v = NULL;
	size_t n = 0, alloc = 0, i, k;

	for (i = 0; i < nsites; i++) {
		for (k = 0; k < terms[i].nr; k++) {
			const struct lp_insn *j = &in->v[terms[i].v[k].insn];

			if (n + 2 > alloc) {
				alloc = alloc ? 2 * alloc : 64;
				v = lp_xrealloc(v, alloc * sizeof(*v));
			}
			v[n].obj = j->obj;
			v[n++].addr = j->addr;
			if (j->inferred) {
				v[n].obj = j->obj;
				v[n++].addr = j->next;
			}
		}
	}
	if (n > 1)
		qsort(v, n, sizeof(*v), cmp_need);
	for (i = k = 0; i < n; i++)
		if (!k || cmp_need(&v[k - 1], &v[i]))
			v[k++] = v[i];
	*nr = k;
	return v;
}

/*
 * The count of one term in process @p, as jumps.c counts the whole: the
 * taken count its records give, or its executions less those of the
 * instruction after it where no record counts it.  0 where the jump
 * did not run in @p.
 */
static uint64_t term_count(const struct pass *p, const struct lp_insn *j,
			   const struct lp_term *t)
{
	long k = need_at(p, j->obj, j->addr), n;
	uint64_t exe, taken, fall;

	if (k < 0)
		return 0;
	exe = p->exe[k];
	taken = p->taken[k] > p->called[k] ? p->taken[k] : p->called[k];
	if (j->inferred) {
		n = need_at(p, j->obj, j->next);
		fall = n < 0 ? 0 : p->exe[n];
		taken = fall <= exe ? exe - fall : 0;
	}
	if (taken > exe)
		taken = exe;
	return t->taken ? taken : exe - taken;
}

/* One process's sums of each site, voted and sorted into ways. */
static void add_process(const struct pass *p, const struct lp_insns *in,
			const struct lp_terms *terms, struct lp_profile *prof,
			uint64_t *right, uint64_t *wrong)
{
	const struct lp_policy pol = LP_POLICY_INIT;
	size_t i, k;

	for (i = 0; i < prof->nr; i++) {
		struct lp_prof_site *s = &prof->sites[i];
		struct lp_prof_site one = *s;
		struct lp_counts c;
		uint64_t r = 0, w = 0;
		int vote, way;

		if (!terms[i].nr)
			continue;
		for (k = 0; k < terms[i].nr; k++) {
			const struct lp_term *t = &terms[i].v[k];
			uint64_t n = term_count(p, &in->v[t->insn], t);

			if (t->right)
				r += n;
			else
				w += n;
		}
		right[i] += r;
		wrong[i] += w;
		one.correct = r;
		one.incorrect = w;
		one.constant = 0;
		one.has_votes = one.has_procs = one.has_samples = 0;
		lp_counts_of_site(&c, &one);
		vote = lp_policy_vote_stated(&pol, &c, s->expect, s->prob);
		s->votes_right += vote > 0;
		s->votes_wrong += vote < 0;
		way = lp_counts_way(r, w, 0);
		s->procs_right += way == LP_WAY_RIGHT;
		s->procs_wrong += way == LP_WAY_WRONG;
		s->procs_both += way == LP_WAY_BOTH;
	}
}

int lp_judge_ways(struct lp_profile *prof, const struct lp_insns *in,
		  const struct lp_terms *terms)
{
	struct pass p;
	uint64_t *right, *wrong;
	size_t i;
	int ret = 0;

	if (!terms || !in->dumps_nr)
		return 0;
	memset(&p, 0, sizeof(p));
	p.v = needs_of(in, terms, prof->nr, &p.nr);
	p.exe = lp_xcalloc(p.nr + 1, sizeof(*p.exe));
	p.taken = lp_xcalloc(p.nr + 1, sizeof(*p.taken));
	p.called = lp_xcalloc(p.nr + 1, sizeof(*p.called));
	right = lp_xcalloc(prof->nr + 1, sizeof(*right));
	wrong = lp_xcalloc(prof->nr + 1, sizeof(*wrong));
	for (i = 0; i < in->dumps_nr && !ret; i++) {
		memset(p.exe, 0, p.nr * sizeof(*p.exe));
		memset(p.taken, 0, p.nr * sizeof(*p.taken));
		memset(p.called, 0, p.nr * sizeof(*p.called));
		ret = lp_callgrind_each(in->dumps[i], sink, &p);
		if (!ret)
			add_process(&p, in, terms, prof, right, wrong);
	}
	for (i = 0; i < prof->nr; i++) {
		struct lp_prof_site *s = &prof->sites[i];
		/* the processes' sums must be the reading's, or say nothing */
		int known = !ret && terms[i].nr && right[i] == s->correct &&
			    wrong[i] == s->incorrect;

		s->has_votes = s->has_procs = (unsigned char)known;
		if (!known)
			s->votes_right = s->votes_wrong = s->procs_right =
				s->procs_wrong = s->procs_both = 0;
	}
	free((void *)p.v);
	free(p.exe);
	free(p.taken);
	free(p.called);
	free(right);
	free(wrong);
	return ret;
}
