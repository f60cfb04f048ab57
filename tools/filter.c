/*
 * filter.c - --file, --function and --verdict, as llvm-cov takes files
 * and -name-regex, and perf report --symbols: a look at one part of a
 * big profile without a script around the output
 */
#include <fnmatch.h>
#include <stdlib.h>
#include <string.h>

#include "filter.h"
#include "usage.h"

static void push(const char ***v, size_t *n, const char *s)
{
	*v = lp_xrealloc(*v, (*n + 1) * sizeof(**v));
	(*v)[(*n)++] = s;
}

static unsigned parse_verdicts(const char *list, const char *usage)
{
	static const enum lp_verdict all[] = {
		LP_VERDICT_FINE, LP_VERDICT_REMOVE, LP_VERDICT_FLIP,
		LP_VERDICT_CONSTANT, LP_VERDICT_FEW, LP_VERDICT_NEVER,
		LP_VERDICT_UNSURE, LP_VERDICT_SETTING, LP_VERDICT_RESTATE,
	};
	unsigned bits = 0;
	const char *p = list;

	while (*p) {
		size_t n = strcspn(p, ","), k;
		unsigned found = 0;

		if (n == 6 && !strncmp(p, "change", 6))
			found = 1u << LP_VERDICT_REMOVE |
				1u << LP_VERDICT_FLIP |
				1u << LP_VERDICT_RESTATE;
		for (k = 0; k < sizeof(all) / sizeof(all[0]) && !found; k++)
			if (strlen(lp_verdict_name(all[k])) == n &&
			    !strncmp(p, lp_verdict_name(all[k]), n))
				found = 1u << all[k];
		if (!found)
			lp_usage_error(usage, "unknown verdict '%.*s' in "
				       "--verdict (fine, remove, flip, change, "
				       "restate, setting, few, constant, "
				       "never, unsure)",
				       (int)n, p);
		bits |= found;
		p += n + (p[n] == ',');
	}
	return bits;
}

int lp_filter_option(struct lp_filter *f, int argc, const char **argv,
		     int *i, const char *usage, int verdicts)
{
	const char *v;

	if ((v = lp_option_value(argc, argv, i, "--file", usage))) {
		push(&f->files, &f->nfiles, v);
	} else if ((v = lp_option_value(argc, argv, i, "--function",
					usage))) {
		push(&f->funcs, &f->nfuncs, v);
	} else if ((v = lp_option_value(argc, argv, i, "--verdict", usage))) {
		if (!verdicts)
			lp_usage_error(usage, "--verdict is check's and fix's: "
				       "report shows counts, not verdicts");
		f->verdicts |= parse_verdicts(v, usage);
	} else {
		return 0;
	}
	return 1;
}

int lp_filter_active(const struct lp_filter *f)
{
	return f->nfiles || f->nfuncs || f->verdicts;
}

static int any_match(const char **globs, size_t n, const char *s)
{
	const char *base;
	size_t k;

	if (!n)
		return 1;
	s = s ? s : "";
	base = strrchr(s, '/');
	base = base ? base + 1 : s;
	for (k = 0; k < n; k++)
		if (!fnmatch(globs[k], s, 0) || !fnmatch(globs[k], base, 0))
			return 1;
	return 0;
}

static int site_matches(const struct lp_filter *f, const char *file,
			const char *func)
{
	return any_match(f->files, f->nfiles, file) &&
	       any_match(f->funcs, f->nfuncs, func);
}

void lp_filter_profile(struct lp_profile *p, const struct lp_filter *f)
{
	size_t i, k = 0;

	if (!lp_filter_active(f))
		return;
	for (i = 0; i < p->nr; i++)
		if (site_matches(f, p->sites[i].file, p->sites[i].func))
			p->sites[k++] = p->sites[i];
	p->nr = k;      /* the strings stay in the pool, freed with it */
}

void lp_filter_judged(struct lp_judged_list *s, const struct lp_filter *f)
{
	size_t i, k = 0;

	if (!lp_filter_active(f))
		return;
	for (i = 0; i < s->nr; i++) {
		struct lp_judged *j = &s->v[i];

		if (site_matches(f, j->file, j->func) &&
		    (!f->verdicts || (f->verdicts & (1u << j->j.verdict)))) {
			s->v[k++] = *j;
			continue;
		}
		free(j->file);
		free(j->per);
		free(j->rows);
	}
	s->nr = k;
}

void lp_filter_release(struct lp_filter *f)
{
	free(f->files);
	free(f->funcs);
	f->files = f->funcs = NULL;
	f->nfiles = f->nfuncs = 0;
}
