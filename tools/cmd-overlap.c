/*
 * cmd-overlap.c - `likelyprof overlap`: how alike two profiles are
 *
 * Before merging a fleet, or to see which machine is unlike the others:
 * one score (lib/profile/overlap.c, defined in
 * doc/likelyprof-overlap.md) and the sites whose share of wrong
 * evaluations differs most between the two.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "builtin.h"
#include "overlap.h"
#include "policy.h"
#include "usage.h"

static const char overlap_usage[] =
	"usage: likelyprof overlap [-n N] [--min-hits N] A B\n"
	"\n"
	"Prints how alike profiles A and B are, from 0 (nothing in common)\n"
	"to 1 (every branch edge the same share of its profile's\n"
	"evaluations), and the N sites (default 10) whose share of wrong\n"
	"evaluations differs most between them, worst first.\n"
	"\n"
	"   -n N, --top N     how many sites to list (0: none)\n"
	"   --min-hits N      list only sites evaluated N times or more in\n"
	"                     each profile (default 10000)\n";

static void read_one(struct lp_profile *p, const char *path)
{
	struct lp_diag diag;
	int err = lp_profile_read_file(p, path, &diag);

	if (err == -LP_ENOMEM)
		lp_die("out of memory");
	if (err < 0) {
		lp_error("%s", diag.msg);
		exit(LP_EXIT_ERROR);
	}
}

static void print_site(const struct lp_overlap_site *d)
{
	const struct lp_prof_site *s = d->a;

	printf("%s:%ld: %s%s%.2f%% wrong of %llu in A, %.2f%% of %llu in B\n",
	       s->file, s->line, s->func, *s->func ? "(): " : "",
	       d->wrong_a * 100.0, (unsigned long long)d->evals_a,
	       d->wrong_b * 100.0, (unsigned long long)d->evals_b);
}

struct overlap_opts {
	unsigned long long top, min_hits;
};

static void print_overlap(const struct lp_overlap *o, const char *a,
			  const char *b, const struct overlap_opts *opt)
{
	size_t i, shown = 0;

	printf("similarity: %.6f\n", o->score);
	printf("A: %s: %zu site%s, %llu evaluation%s\n", a, o->sites_a,
	       lp_plural(o->sites_a), (unsigned long long)o->total_a,
	       lp_plural(o->total_a));
	printf("B: %s: %zu site%s, %llu evaluation%s\n", b, o->sites_b,
	       lp_plural(o->sites_b), (unsigned long long)o->total_b,
	       lp_plural(o->total_b));
	printf("in both: %zu site%s\n", o->both, lp_plural(o->both));
	for (i = 0; i < o->diff_nr && shown < opt->top; i++) {
		const struct lp_overlap_site *d = &o->diff[i];

		if (d->wrong_a == d->wrong_b)
			break;  /* the rest agree */
		/* a site run a few times differs by chance */
		if (d->evals_a < opt->min_hits || d->evals_b < opt->min_hits)
			continue;
		if (!shown++)
			printf("most different:\n");
		print_site(d);
	}
}

int cmd_overlap(int argc, const char **argv)
{
	struct lp_profile a = LP_PROFILE_INIT, b = LP_PROFILE_INIT;
	struct lp_overlap o = LP_OVERLAP_INIT;
	struct overlap_opts opt = { 10, LP_POLICY_MIN_HITS };
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(overlap_usage, stdout);
			return LP_EXIT_OK;
		}
	}
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !strcmp(arg, "-"))
			break;
		v = lp_option_value(argc, argv, &i, "-n", overlap_usage);
		if (v || (v = lp_option_value(argc, argv, &i, "--top",
					      overlap_usage)))
			opt.top = lp_parse_count(arg, v, overlap_usage);
		else if ((v = lp_option_value(argc, argv, &i, "--min-hits",
					      overlap_usage)))
			opt.min_hits = lp_parse_count(arg, v, overlap_usage);
		else
			lp_usage_error(overlap_usage, "unknown option '%s'",
				       arg);
	}
	if (argc - i != 2)
		lp_usage_error(overlap_usage, "give two profiles, A and B");
	if (!strcmp(argv[i], "-") && !strcmp(argv[i + 1], "-"))
		lp_die("standard input ('-') given twice");
	read_one(&a, argv[i]);
	read_one(&b, argv[i + 1]);
	if (lp_overlap(&a, &b, &o) < 0)
		lp_die("out of memory");
	print_overlap(&o, argv[i], argv[i + 1], &opt);
	lp_overlap_release(&o);
	lp_profile_release(&a);
	lp_profile_release(&b);
	return LP_EXIT_OK;
}
