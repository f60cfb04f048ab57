/*
 * verdict.c - what check says of a site, in the words all its outputs use
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/quote.h"
#include "fix/rewrite.h"
#include "format.h"
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

/*
 * The condition's value when the hint went the way @right says: a hint
 * expecting 1 was right when its condition was true.
 */
static const char *cond_value(long expect, int right)
{
	if (expect != 0 && expect != 1)
		return right ? "as hinted" : "against the hint";
	return (expect == 1) == right ? "true" : "false";
}

/* "all through its 1 process", "all through each of 6 processes" */
static void all_through(FILE *m, const char *value, uint64_t n)
{
	if (n == 1)
		fprintf(m, "%s all through its 1 process", value);
	else
		fprintf(m, "%s all through each of %llu processes", value,
			(unsigned long long)n);
}

/*
 * What a setting rests on.  Processes that went different ways, each one
 * way from start to end, show a setting: the way follows how a process
 * is run.  All of them one way may be a setting too (glib's tests all
 * set G_DEBUG=gc-friendly), or data these runs never varied: the counts
 * cannot tell, and the note says so.
 */
static void setting_note(FILE *m, const struct lp_judged *s,
			 const char *workload)
{
	const struct lp_judgement *j = &s->j;
	const char *change = j->setting_of == LP_VERDICT_FLIP ? "flip" :
		j->setting_of == LP_VERDICT_RESTATE ? "restate" : "remove";
	char *in = workload ? lp_xstrfmt(" in %s", workload) : lp_xstrdup("");

	if (j->procs_right) {
		fprintf(m, "followed a setting%s: ", in);
		all_through(m, cond_value(s->expect, 0), j->procs_wrong);
		fputs(" and ", m);
		all_through(m, cond_value(s->expect, 1), j->procs_right);
		fprintf(m, "; right or wrong by how each process is run (fix "
			"--settings would %s it)", change);
		free(in);
		return;
	}
	fprintf(m, "may follow a setting%s: ", in);
	free(in);
	all_through(m, cond_value(s->expect, 0), j->procs_wrong);
	fprintf(m, ", a flag or mode of these runs or data they never "
		"varied; wrong unless your users run otherwise (fix "
		"--settings would %s it)", change);
}

char *lp_workload_text(const struct lp_profile *p, size_t n)
{
	const char **labels;
	long nr = lp_profiles_labels(p, n, &labels), i;
	char *text = NULL;
	size_t len = 0;
	FILE *m;

	if (nr < 0)
		lp_die("out of memory");
	if (!nr) {
		free(labels);
		return NULL;
	}
	if (!(m = open_memstream(&text, &len)))
		lp_die("out of memory");
	fprintf(m, "workload%s", nr > 1 ? "s" : "");
	for (i = 0; i < nr; i++)
		fprintf(m, "%s'%s'", !i ? " " : i + 1 < nr ? ", " : " and ",
			labels[i]);
	if (fclose(m))
		lp_die("out of memory");
	free(labels);
	return text;
}

char *lp_rests_on(const struct lp_judgement *j, const char *workload)
{
	uint64_t nprocs = j->procs_known ? j->procs_right + j->procs_wrong +
					   j->procs_both : 0;

	if (nprocs > 1)
		return lp_xstrfmt("%llu processes%s%s",
				  (unsigned long long)nprocs,
				  workload ? " of " : "",
				  workload ? workload : "");
	return workload ? lp_xstrdup(workload) : NULL;
}

/* A stated probability as the profile spells it: "0.9". */
static void put_prob(FILE *m, unsigned int prob)
{
	char buf[LP_PROB_MAX];

	fputs(lp_prob_text(buf, prob), m);
}

/*
 * What a hint that states a probability said against what its value did:
 * "stated 0.9, and its value came 10% of 100000 times".
 */
static void stated_against(FILE *m, const struct lp_judged *s)
{
	const struct lp_judgement *j = &s->j;

	fputs("stated ", m);
	put_prob(m, s->prob);
	fprintf(m, ", and its value came %.0f%% of %llu time%s",
		j->measured_prob ? (double)(j->measured_prob - 1) / 1e4 : 0.0,
		(unsigned long long)j->evals, lp_plural(j->evals));
}

/* The reason of lp_site_message(), after the site's name. */
static void put_reason(FILE *m, const struct lp_check_entry *e,
		       const struct lp_tree *tree)
{
	const struct lp_judged *s = e->s;
	const struct lp_judgement *j = &s->j;
	const char *name = e->pl && e->pl->placed ? e->pl->hint->name : NULL;
	const char *partner = name && tree ?
		lp_flip_partner(tree, e->pl->hint) : NULL;
	long pct = j->evals ? lp_kernel_percent(j->right, s->j.total.incorrect)
			    : 0;
	char *rests;

	if (s->prob && (j->verdict == LP_VERDICT_FINE ||
			j->verdict == LP_VERDICT_RESTATE ||
			j->verdict == LP_VERDICT_REMOVE)) {
		stated_against(m, s);
		if ((rests = lp_rests_on(j, e->workload)))
			fprintf(m, " in %s", rests);
		free(rests);
		if (j->verdict == LP_VERDICT_RESTATE) {
			fputs("; make it ", m);
			put_prob(m, lp_prob_restated(j->measured_prob));
		} else if (j->verdict == LP_VERDICT_REMOVE) {
			fprintf(m, "; no one number holds: remove it (off in "
				"%llu of %llu %s)",
				(unsigned long long)j->profiles_wrong,
				(unsigned long long)(j->profiles_right +
						     j->profiles_wrong),
				j->procs_known ? "processes" : "profiles");
		}
		return;
	}
	switch (j->verdict) {
	case LP_VERDICT_REMOVE:
	case LP_VERDICT_FLIP:
		fprintf(m, "was wrong %ld%% of %llu time%s", pct,
		       (unsigned long long)j->evals, lp_plural(j->evals));
		if ((rests = lp_rests_on(j, e->workload)))
			fprintf(m, " in %s", rests);
		free(rests);
		fputs("; ", m);
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
			fprintf(m, " (wrong in %llu of %llu %s)",
				(unsigned long long)j->profiles_wrong,
				(unsigned long long)(j->profiles_right +
						     j->profiles_wrong),
				j->procs_known ? "processes" : "profiles");
		if (j->one_way_few)
			fprintf(m, " (%s all through its %llu process%s: too "
				"few to tell a setting from the data)",
				cond_value(s->expect, 0),
				(unsigned long long)j->procs_wrong,
				j->procs_wrong == 1 ? "" : "es");
		break;
	case LP_VERDICT_SETTING:
		setting_note(m, s, e->workload);
		break;
	case LP_VERDICT_RESTATE:
		break;          /* a stated probability's, above */
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
}

char *lp_site_message(const struct lp_check_entry *e,
		      const struct lp_tree *tree)
{
	const struct lp_judged *s = e->s;
	char *spell = lp_site_quote(s, e->pl);
	char *where = s->func && *s->func ?
		lp_xstrfmt(" in %s()", s->func) : lp_xstrdup("");
	/* a quote of the macro's call names the macro already */
	char *macro = e->pl && e->pl->placed && e->pl->macro &&
		      strncmp(spell, e->pl->macro, strlen(e->pl->macro)) ?
		lp_xstrfmt(" (macro %s)", e->pl->macro) : lp_xstrdup("");
	char *msg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&msg, &len);

	if (!m)
		lp_die("out of memory");
	fprintf(m, "%s%s%s ", spell, macro, where);
	put_reason(m, e, tree);
	if (fclose(m) || !msg)
		lp_die("out of memory");
	free(spell);
	free(where);
	free(macro);
	return msg;
}

char *lp_site_reason(const struct lp_check_entry *e,
		     const struct lp_tree *tree)
{
	char *msg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&msg, &len);

	if (!m)
		lp_die("out of memory");
	put_reason(m, e, tree);
	if (fclose(m) || !msg)
		lp_die("out of memory");
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


int lp_place_sites(const char *src, const struct lp_hint_macros *macros,
		   const struct lp_judged_list *sites, struct lp_tree **tree,
		   struct lp_place **places)
{
	char *err = NULL;

	*tree = lp_tree_open(src, macros, &err);
	if (!*tree) {
		lp_error("%s", err);
		free(err);
		return -1;
	}
	*places = lp_xcalloc(sites->nr + 1, sizeof(**places));
	lp_tree_place(*tree, sites, *places);
	return 0;
}
