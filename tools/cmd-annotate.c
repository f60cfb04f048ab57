/*
 * cmd-annotate.c - `likelyprof annotate`: the source with each hint's
 * counts and verdict beside its line
 *
 * The terminal form of what gcov -b, llvm-cov show -show-branches and
 * perf annotate give, with what they do not: which way the hint points
 * and check's verdict on it.  Sites are judged as check judges them
 * (fix/inputs.c), placed in the tree as fix places them (fix/locate.c),
 * and each file is printed around its hinted lines, --context lines each
 * side, a gap marked by "--" as grep marks it.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/hintmacro.h"
#include "builtin.h"
#include "color.h"
#include "filter.h"
#include "marks.h"
#include "fix/inputs.h"
#include "fix/quote.h"
#include "output.h"
#include "usage.h"
#include "verdict.h"

static const char annotate_usage[] =
	"usage: likelyprof annotate [--src DIR] [--context N] [-o OUT]\n"
	"                           [--file GLOB] [--function GLOB] "
	"[--verdict LIST]\n"
	"                           PROFILE [FILE...]\n"
	"\n"
	"Prints the source files of the profile's hints, each hinted line\n"
	"with its counts (right, wrong, percent wrong) and check's verdict\n"
	"beside it, and N lines of context each side; with FILEs, only\n"
	"those (by path in the tree or base name).\n"
	"\n"
	"   --src DIR         the source tree (default: the current folder)\n"
	"   --hint-macro NAME[=1|0]\n"
	"                     a call of NAME is a hint, as likelyprof cc\n"
	"                     --hint-macro counted it\n"
	"   --context N       lines of context each side of a hint "
	"(default 3)\n"
	"   --file GLOB, --function GLOB, --verdict LIST\n"
	"                     only the sites that match, as for check\n"
	"   -o, --output OUT  write to OUT instead of standard output\n"
	"   --color[=WHEN]    colour the verdicts: auto, always or never\n"
	LP_POLICY_USAGE;

/* The gutter of a hinted line: right, wrong, % wrong, verdict. */
static void put_gutter(const struct lp_mark *m)
{
	const struct lp_judgement *j = &m->s->j;
	int change = lp_verdict_changes(j->verdict);
	enum lp_color_part part = change ? LP_COLOR_WARNING : LP_COLOR_NOTE;

	if (j->evals)
		printf("%10llu %10llu %5.1f%% ",
		       (unsigned long long)j->right,
		       (unsigned long long)(j->evals - j->right),
		       100.0 * (double)(j->evals - j->right) /
		       (double)j->evals);
	else
		printf("%10s %10s %6s ", "-", "-", "-");
	printf("%s%-8s%s", lp_color_start(part), lp_verdict_name(j->verdict),
	       lp_color_end(part));
}

/* Prints lines [from, to] of @f (from 1), the marks among them beside. */
static void put_lines(const struct lp_srcfile *f, unsigned from, unsigned to,
		      const struct lp_mark *m, size_t nm)
{
	unsigned line;
	size_t k = 0;

	for (line = from; line <= to && line <= f->lx.nlines; line++) {
		size_t start, end;
		int marked = 0;

		lp_src_line(f, line - 1, &start, &end);
		for (; k < nm && m[k].line <= line; k++) {
			if (m[k].line != line)
				continue;
			/* a second site on one line gets a line of its own */
			if (marked)
				printf("\n");
			put_gutter(&m[k]);
			marked = 1;
		}
		if (!marked)
			printf("%10s %10s %6s %-8s", "", "", "", "");
		printf(" %6u| %.*s\n", line, (int)(end - start),
		       f->buf + start);
	}
}

/* One file: its hinted lines with @context lines around, gaps marked. */
static void put_file(const struct lp_tree *tree, const struct lp_mark *m,
		     size_t nm, unsigned context)
{
	const struct lp_srcfile *f = m[0].file;
	char *path = lp_tree_path(tree, f);
	size_t i, k;

	printf("%s%s%s\n", lp_color_start(LP_COLOR_LOCUS), path,
	       lp_color_end(LP_COLOR_LOCUS));
	printf("%10s %10s %6s %-8s %6s|\n", "right", "wrong", "%wrong",
	       "verdict", "line");
	for (i = 0; i < nm; i = k) {
		unsigned from = m[i].line > context ? m[i].line - context : 1;
		unsigned to = m[i].line + context;

		/* hints whose context meets print as one stretch */
		for (k = i + 1; k < nm && m[k].line <= to + context + 1; k++)
			to = m[k].line + context;
		if (i)
			printf("--\n");
		put_lines(f, from, to, m + i, k - i);
	}
	printf("\n");
	free(path);
}

static int wanted(const struct lp_srcfile *f, const char **only, size_t n)
{
	const char *base = strrchr(f->rel, '/');
	size_t i;

	if (!n)
		return 1;
	base = base ? base + 1 : f->rel;
	for (i = 0; i < n; i++)
		if (!strcmp(only[i], f->rel) || !strcmp(only[i], base))
			return 1;
	return 0;
}

struct annotate_opts {
	struct lp_policy pol;
	struct lp_filter filt;
	struct lp_hint_macros macros;   /* --hint-macro */
	const char *src;
	unsigned long long context;
	const char **profiles, **only;
	size_t nprofiles, nonly;
};

static void parse_annotate_args(int argc, const char **argv,
				struct annotate_opts *o)
{
	const char *v;
	int k, operands = 0;

	for (k = 1; k < argc; k++) {
		if (operands || (argv[k][0] != '-' || !argv[k][1])) {
			/* the profile, then the files to show */
			if (o->nprofiles)
				o->only[o->nonly++] = argv[k];
			else
				o->profiles[o->nprofiles++] = argv[k];
		} else if (!strcmp(argv[k], "--")) {
			operands = 1;
		} else if (lp_policy_option(&o->pol, argc, argv, &k,
					    annotate_usage) ||
			   lp_output_option(argc, argv, &k, annotate_usage) ||
			   lp_color_option(argv[k], annotate_usage) ||
			   lp_filter_option(&o->filt, argc, argv, &k,
					    annotate_usage, 1) ||
			   lp_hint_macro_option(&o->macros, argc, argv, &k,
						annotate_usage)) {
		} else if ((v = lp_option_value(argc, argv, &k, "--src",
						annotate_usage))) {
			o->src = v;
		} else if ((v = lp_option_value(argc, argv, &k, "--context",
						annotate_usage))) {
			o->context = lp_parse_count("--context", v,
						    annotate_usage);
		} else {
			lp_usage_error(annotate_usage, "unknown option '%s'",
				       argv[k]);
		}
	}
	if (!o->nprofiles)
		lp_usage_error(annotate_usage, "no profile given");
	if (o->context > 1000)
		o->context = 1000;
}

int cmd_annotate(int argc, const char **argv)
{
	struct annotate_opts o;
	struct lp_inputs in;
	struct lp_tree *tree = NULL;
	struct lp_place *places = NULL;
	struct lp_mark *m;
	size_t i, k, n = 0, nm;
	int ret = LP_EXIT_ERROR;

	if (lp_wants_help(argc, argv)) {
		fputs(annotate_usage, stdout);
		return LP_EXIT_OK;
	}
	memset(&o, 0, sizeof(o));
	o.pol = (struct lp_policy)LP_POLICY_INIT;
	o.src = ".";
	o.context = 3;
	o.profiles = lp_xcalloc((size_t)argc, sizeof(char *));
	o.only = lp_xcalloc((size_t)argc, sizeof(char *));
	parse_annotate_args(argc, argv, &o);
	lp_output_folder(0, annotate_usage);
	if (lp_inputs_read(&in, &o.pol, o.profiles, o.nprofiles))
		goto out;
	lp_filter_judged(&in.sites, &o.filt);
	if (lp_place_sites(o.src, &o.macros, &in.sites, &tree, &places))
		goto out;
	m = lp_marks_make(tree, &in.sites, places, 0, &nm);
	for (i = 0; i < nm; i++)
		if (wanted(m[i].file, o.only, o.nonly))
			m[n++] = m[i];
	for (i = 0; i < n; i = k) {
		k = i + lp_marks_run(m + i, n - i);
		put_file(tree, m + i, k - i, (unsigned)o.context);
	}
	if (n < in.sites.nr)
		lp_note("%zu of %zu site%s placed in '%s'; the others are "
			"not shown (likelyprof check --src says why)", n,
			in.sites.nr, lp_plural(in.sites.nr), o.src);
	free(m);
	ret = LP_EXIT_OK;
out:
	if (places)
		lp_place_release(places, in.sites.nr);
	free(places);
	lp_tree_free(tree);
	lp_inputs_release(&in);
	lp_filter_release(&o.filt);
	lp_hint_macros_release(&o.macros);
	free(o.profiles);
	free(o.only);
	return ret;
}
