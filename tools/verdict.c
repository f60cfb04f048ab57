/*
 * verdict.c - what check says of a site, in the words all its outputs use
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/rewrite.h"
#include "ktable.h"
#include "usage.h"
#include "verdict.h"

/* " (estimated from N samples: wrong LO% to HI%)", the 95% interval */
static void sampled_note(FILE *m, const struct lp_counts *c)
{
	uint64_t n = c->samp_right + c->samp_wrong;
	double lo, hi;

	if (!c->has_samples) {
		fprintf(m, " (estimated)");
		return;
	}
	lp_wilson(c->samp_wrong, n, &lo, &hi);
	fprintf(m, " (estimated from %llu sample%s: wrong %.1f%% to %.1f%%)",
		(unsigned long long)n, lp_plural(n), lo, hi);
}

/* Why the samples of a site stop check from changing it. */
static void sampled_unsure(FILE *m, const struct lp_counts *c)
{
	uint64_t n = c->samp_right + c->samp_wrong;
	double lo, hi;

	if (!c->has_samples) {
		fprintf(m, "has estimated counts with no samples to bound "
			"them; not judged");
		return;
	}
	lp_wilson(c->samp_wrong, n, &lo, &hi);
	fprintf(m, "was wrong %.1f%% to %.1f%% of the time by its %llu "
		"sample%s, which does not settle it; not judged", lo, hi,
		(unsigned long long)n, lp_plural(n));
}

char *lp_site_message(const struct lp_check_entry *e,
		      const struct lp_tree *tree)
{
	const struct lp_judged *s = e->s;
	const struct lp_judgement *j = &s->j;
	const char *name = e->pl && e->pl->placed ? e->pl->hint->name : NULL;
	const char *partner = name && tree ?
		lp_flip_partner(tree, e->pl->hint) : NULL;
	char *spell = lp_spelling(s, name, NULL, 0);
	char *where = s->func && *s->func ?
		lp_xstrfmt(" in %s()", s->func) : lp_xstrdup("");
	char *macro = e->pl && e->pl->placed && e->pl->macro ?
		lp_xstrfmt(" (macro %s)", e->pl->macro) : lp_xstrdup("");
	long pct = j->evals ? lp_kernel_percent(j->right, s->j.total.incorrect)
			    : 0;
	char *msg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&msg, &len);

	if (!m)
		lp_die("out of memory");
	fprintf(m, "%s%s%s ", spell, macro, where);
	switch (j->verdict) {
	case LP_VERDICT_REMOVE:
	case LP_VERDICT_FLIP:
		fprintf(m, "was wrong %ld%% of %llu time%s; ", pct,
		       (unsigned long long)j->evals, lp_plural(j->evals));
		if (j->verdict == LP_VERDICT_FLIP) {
			char *to = lp_spelling(s, name, partner, 1);

			if (!strcmp(to, "annotation") ||
			    !strcmp(to, "the opposite"))
				fprintf(m, "flip it");
			else
				fprintf(m, "make it %s", to);
			free(to);
		} else {
			fprintf(m, "remove it");
		}
		/* one profile's say is the verdict itself: not repeated */
		if (j->profiles_right + j->profiles_wrong > 1)
			fprintf(m, " (wrong in %llu of %llu profiles)",
				(unsigned long long)j->profiles_wrong,
				(unsigned long long)(j->profiles_right +
						     j->profiles_wrong));
		break;
	case LP_VERDICT_FINE:
		fprintf(m, "was right %ld%% of %llu time%s", 100 - pct,
		       (unsigned long long)j->evals, lp_plural(j->evals));
		break;
	case LP_VERDICT_FEW:
		fprintf(m, "ran %llu time%s, too few to judge",
		       (unsigned long long)j->evals, lp_plural(j->evals));
		break;
	case LP_VERDICT_CONSTANT:
		fprintf(m, "only saw a constant condition (%llu time%s)",
		       (unsigned long long)j->total.constant,
		       lp_plural(j->total.constant));
		break;
	case LP_VERDICT_NEVER:
		/* no sample is not no run: samples see a fraction */
		if (s->sure == LP_SURE_ESTIMATED)
			fprintf(m, "was in no branch sample (it may have "
				"run between samples)");
		else
			fprintf(m, "never ran");
		break;
	case LP_VERDICT_UNSURE:
		if (s->sure == LP_SURE_ESTIMATED)
			sampled_unsure(m, &j->total);
		else if (s->sure == LP_SURE_UNJUDGEABLE)
			fprintf(m, "has no branch of its own in the binary; "
				"not judged");
		else
			fprintf(m, "is ambiguous in the binary (its "
				"line's jumps ran %llu times, but may be "
				"other tests' or miss some of its own); not "
				"judged", (unsigned long long)j->evals);
		break;
	}
	/* a verdict from samples says so, measured ones do not */
	if (s->sure == LP_SURE_ESTIMATED &&
		 j->verdict != LP_VERDICT_UNSURE &&
		 j->verdict != LP_VERDICT_NEVER)
		sampled_note(m, &j->total);
	if (fclose(m) || !msg)
		lp_die("out of memory");
	free(spell);
	free(where);
	free(macro);
	return msg;
}

int lp_place_stale(const struct lp_place *pl)
{
	return pl && (pl->quoted || (pl->placed && pl->opposite));
}

void lp_uri_put(FILE *f, const char *p)
{
	for (; p && *p; p++) {
		unsigned char c = (unsigned char)*p;

		if ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
		    (c >= '0' && c <= '9') || strchr("-._~/", c))
			fputc(c, f);
		else
			fprintf(f, "%%%02X", c);
	}
}


int lp_place_sites(const char *src, const struct lp_judged_list *sites,
		   struct lp_tree **tree, struct lp_place **places)
{
	char *err = NULL;

	*tree = lp_tree_open(src, &err);
	if (!*tree) {
		lp_error("%s", err);
		free(err);
		return -1;
	}
	*places = lp_xcalloc(sites->nr + 1, sizeof(**places));
	lp_tree_place(*tree, sites, *places);
	return 0;
}
