/*
 * inputs.c - the policy options and the judged profiles of check and fix
 */
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "progress.h"
#include "usage.h"

int lp_policy_option(struct lp_policy *pol, int argc, const char **argv,
		     int *i, const char *usage)
{
	const char *v;

	if ((v = lp_option_value(argc, argv, i, "--flip-at", usage))) {
		pol->flip_at = lp_parse_percent("--flip-at", v, usage);
		return 1;
	}
	if ((v = lp_option_value(argc, argv, i, "--remove-at", usage))) {
		pol->remove_at = lp_parse_percent("--remove-at", v, usage);
		return 1;
	}
	if ((v = lp_option_value(argc, argv, i, "--restate-at", usage))) {
		pol->restate_at = lp_parse_percent("--restate-at", v, usage);
		return 1;
	}
	if ((v = lp_option_value(argc, argv, i, "--min-hits", usage))) {
		pol->min_hits = lp_parse_count("--min-hits", v, usage);
		return 1;
	}
	if ((v = lp_option_value(argc, argv, i, "--setting-processes",
				 usage))) {
		pol->setting_procs = lp_parse_count("--setting-processes", v,
						    usage);
		return 1;
	}
	if (!strcmp(argv[*i], "--no-flip")) {
		pol->no_flip = 1;
		return 1;
	}
	return 0;
}

int lp_inputs_read(struct lp_inputs *in, const struct lp_policy *pol,
		   const char *const *paths, size_t n)
{
	size_t i, stdin_used = 0;
	int err;

	memset(in, 0, sizeof(*in));
	in->profs = lp_xcalloc(n, sizeof(*in->profs));
	in->ptrs = lp_xcalloc(n, sizeof(*in->ptrs));
	for (i = 0; i < n; i++) {
		struct lp_diag diag;

		lp_profile_init(&in->profs[i]);
		in->ptrs[i] = &in->profs[i];
		in->n = i + 1;
		if (!strcmp(paths[i], "-") && stdin_used++)
			return lp_error("standard input ('-') given twice");
		lp_progress(lp_progress_big(lp_progress_file_size(paths[i])),
			    "reading %s (%zu of %zu)", paths[i], i + 1, n);
		err = lp_profile_read_file(&in->profs[i], paths[i], &diag);
		if (err == -LP_ENOMEM)
			lp_die("out of memory");
		if (err)
			return lp_error("%s", diag.msg);
		/* as report says: nothing to judge is an error, not "fine" */
		if (!in->profs[i].nr)
			return lp_error("%s: no sites in profile", paths[i]);
	}
	lp_progress(0, "judging the sites of %zu profile%s", n,
		    lp_plural(n));
	err = lp_judge_profiles(&in->sites, pol, in->ptrs, n);
	if (err == -LP_ENOMEM)
		lp_die("out of memory");
	if (err)
		return lp_error("bad thresholds: %s", lp_strerror(err));
	return 0;
}

void lp_inputs_release(struct lp_inputs *in)
{
	size_t i;

	lp_judged_list_release(&in->sites);
	for (i = 0; i < in->n; i++)
		lp_profile_release(&in->profs[i]);
	free(in->profs);
	free(in->ptrs);
	memset(in, 0, sizeof(*in));
}

/*
 * The spellings of this run that are words, not calls: macros that spell
 * an attribute without taking the condition (slots.c names them as it
 * meets them; a run meets a few).
 */
static char **words;
static size_t nwords;

void lp_word_spelling(const char *name)
{
	if (!name || !lp_call_parens(name)[0])
		return;
	words = lp_xrealloc(words, (nwords + 1) * sizeof(*words));
	words[nwords++] = lp_xstrdup(name);
}

const char *lp_call_parens(const char *name)
{
	size_t k;

	if (!strncmp(name, "[[", 2))
		return "";
	for (k = 0; k < nwords; k++)
		if (!strcmp(words[k], name))
			return "";
	return "()";
}

char *lp_spelling(const struct lp_judged *s, const char *name,
		  const char *partner, int opposite)
{
	long expect = s->expect;

	if (opposite && partner)
		return lp_xstrfmt("%s%s", partner, lp_call_parens(partner));
	if (name && !opposite)
		return lp_xstrfmt("%s%s", name, lp_call_parens(name));
	if (expect != 0 && expect != 1)
		return lp_xstrdup(opposite ? "the opposite" : "annotation");
	if (opposite)
		expect = !expect;
	return lp_xstrdup(expect ? "likely()" : "unlikely()");
}
