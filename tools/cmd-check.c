/*
 * cmd-check.c - `likelyprof check`: which annotations the profiles say
 * are wrong, as compiler warnings
 *
 * One line per site that needs a change, in the form gcc and clang use
 * (PATH:LINE: warning: ... [likelyprof-remove]), so editors jump to it and
 * CI annotates it, then a summary.  The exit status says whether anything
 * needs a change, so `likelyprof check prof.lprof` can gate a merge.
 * doc/likelyprof-check.md gives the policy and its reasons.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/hintmacro.h"
#include "builtin.h"
#include "color.h"
#include "filter.h"
#include "output.h"
#include "fix/inputs.h"
#include "fix/locate.h"
#include "fix/rewrite.h"
#include "json.h"
#include "ktable.h"
#include "suggest.h"
#include "progress.h"
#include "report/html.h"
#include "usage.h"
#include "verdict.h"
#include "fix/quote.h"

static const char check_usage[] =
	"usage: likelyprof check [--flip-at PCT] [--remove-at PCT] "
	"[--min-hits N] [--no-flip]\n"
	"                        [--setting-processes N] [--restate-at PTS]\n"
	"                        [--src DIR] [--format text|json|sarif|html] "
	"[--all]\n"
	"                        [--link URL] [--rows N] [-o OUT] FILE...\n"
	"\n"
	"Judges every annotated site of the profiles (one per machine or\n"
	"workload; kernel tables too) and prints a warning for each that\n"
	"should be removed or flipped.  Exit status: 0 nothing to change,\n"
	"1 something to change, 2 error.\n"
	"\n"
	LP_POLICY_USAGE
	"   --src DIR         find the sites in the source tree DIR: its\n"
	"                     paths, current lines and spellings\n"
	"   --hint-macro NAME[=1|0]\n"
	"                     with --src: a call of NAME is a hint, as\n"
	"                     likelyprof cc --hint-macro counted it\n"
	"   --format json     one JSON object with every site and a summary\n"
	"   --format sarif    SARIF 2.1.0, for code scanning\n"
	"   --format html     one page to decide from: every site, sorting,\n"
	"                     filters, views by function and file, a chart\n"
	"   --link URL        html: the link of a site, {file} and {line}\n"
	"                     replaced (default: the file's path)\n"
	"   --rows N          html: rows a page of the table, and the\n"
	"                     worst N in the markup (default 250)\n"
	"   --all             also list the sites that need no change\n"
	"   --file GLOB       only sites of files that match (path or base\n"
	"                     name; may repeat)\n"
	"   --function GLOB   only sites of functions that match\n"
	"   --verdict LIST    only these verdicts, commas between (remove,\n"
	"                     flip, change, setting, fine, few, ...)\n"
	"   -o, --output OUT  write to OUT (replaced whole at the end)\n"
	"                     instead of standard output\n"
	"                     (html: to a folder DIR/, as DIR/index.html\n"
	"                     and with --src a page per source file)\n"
	"   --color[=WHEN]    gcc's colours: auto (on a terminal, without\n"
	"                     NO_COLOR), always or never; GCC_COLORS\n"
	"   --suggest-at PCT  with all-branches profiles: suggest a hint for\n"
	"                     an unannotated if that went one way at least\n"
	"                     PCT% of the time (default 99.9)\n"
	"   --suggest-min N   ... and ran at least N times "
	"(default 1000000)\n"
	"   --progress        say what it is doing on stderr even when that\n"
	"                     is no terminal\n";

static int cmp_entry(const void *pa, const void *pb)
{
	const struct lp_check_entry *a = pa, *b = pb;
	int c = strcmp(a->path, b->path);

	if (c)
		return c;
	return (a->line > b->line) - (a->line < b->line);
}

/* The direction the profile's expected value gives, or NULL. */
static const char *direction(long expect)
{
	return expect == 1 ? "likely" : expect == 0 ? "unlikely" : NULL;
}

static void json_str_or_null(const char *s)
{
	if (s)
		lp_json_str(s);
	else
		printf("null");
}

/*
 * One diagnostic as gcc prints it, in gcc's colours where they are on:
 * "PATH:LINE: KIND: MESSAGE [TAG]", the tag in the kind's colour.
 */
static void print_diagnostic(const char *path, long line, int warning,
			     const char *msg, const char *tag)
{
	enum lp_color_part kind = warning ? LP_COLOR_WARNING : LP_COLOR_NOTE;

	printf("%s%s:%ld:%s %s%s:%s %s", lp_color_start(LP_COLOR_LOCUS),
	       path, line, lp_color_end(LP_COLOR_LOCUS), lp_color_start(kind),
	       warning ? "warning" : "note", lp_color_end(kind), msg);
	if (tag)
		printf(" [%s%s%s]", lp_color_start(kind), tag,
		       lp_color_end(kind));
	putchar('\n');
}

static void print_text(const struct lp_check_entry *e,
		       const struct lp_tree *tree)
{
	char *msg = lp_site_message(e, tree);
	char *tag = lp_xstrfmt("likelyprof-%s",
			       lp_verdict_name(e->s->j.verdict));

	print_diagnostic(e->path, e->line, lp_verdict_changes(e->s->j.verdict),
			 msg, tag);
	/* as gcc follows a warning with its notes */
	if (e->pl && !e->pl->placed && e->pl->reason) {
		char *why = lp_xstrfmt("not found in the tree: %s",
				       e->pl->reason);

		print_diagnostic(e->path, e->line, 0, why, NULL);
		free(why);
	}
	free(tag);
	free(msg);
}

/*
 * "condition": as the source spells it where --src placed the site, with
 * the whole "call" and the compiler's "expansion" beside it; else the
 * profile's text (a kernel table has none: null).
 */
static void print_json_condition(const struct lp_check_entry *e)
{
	const char *cond = e->s->cond && *e->s->cond ? e->s->cond : NULL;
	char *arg = lp_place_arg_text(e->pl);
	char *call = lp_place_call_text(e->pl);

	json_str_or_null(arg ? arg : cond);
	if (call) {
		printf(", \"call\": ");
		lp_json_str(call);
	}
	if (arg) {
		printf(", \"expansion\": ");
		json_str_or_null(cond);
	}
	free(arg);
	free(call);
}

static void print_json(const struct lp_check_entry *e, int first)
{
	const struct lp_judged *s = e->s;
	const struct lp_judgement *j = &s->j;
	double pct = j->evals ? 100.0 * (double)s->j.total.incorrect /
				(double)j->evals : 0.0;

	printf("%s\n    {\"file\": ", first ? "" : ",");
	lp_json_str(e->path);
	printf(", \"line\": %ld, \"function\": ", e->line);
	lp_json_str(s->func);
	/* the source's spelling, else the one the expected value names */
	printf(", \"annotation\": ");
	json_str_or_null(e->pl && e->pl->placed ? e->pl->hint->name :
			 direction(s->expect));
	printf(", \"direction\": ");
	json_str_or_null(direction(s->expect));
	printf(", \"verdict\": \"%s\", \"correct\": %llu, \"incorrect\": "
	       "%llu, \"constant\": %llu, \"evaluations\": %llu, "
	       "\"percent_incorrect\": %.2f, \"profiles_right\": %llu, "
	       "\"profiles_wrong\": %llu, \"profile_file\": ",
	       lp_verdict_name(j->verdict),
	       (unsigned long long)j->total.correct,
	       (unsigned long long)j->total.incorrect,
	       (unsigned long long)j->total.constant,
	       (unsigned long long)j->evals, pct,
	       (unsigned long long)j->profiles_right,
	       (unsigned long long)j->profiles_wrong);
	lp_json_str(s->file);
	printf(", \"profile_line\": %ld, \"condition\": ", s->line);
	print_json_condition(e);
	if (s->sure != LP_SURE_MEASURED)
		printf(", \"sure\": \"%s\"", lp_sure_name(s->sure));
	/* the processes' ways, where the profiles say them */
	if (j->procs_known)
		printf(", \"processes_right\": %llu, \"processes_wrong\": "
		       "%llu, \"processes_both\": %llu",
		       (unsigned long long)j->procs_right,
		       (unsigned long long)j->procs_wrong,
		       (unsigned long long)j->procs_both);
	if (j->verdict == LP_VERDICT_SETTING)
		printf(", \"setting_of\": \"%s\"",
		       lp_verdict_name(j->setting_of));
	/* a stated probability, and how often the value came */
	if (s->prob)
		printf(", \"stated_probability\": %.6g, "
		       "\"measured_probability\": %.6g",
		       (double)(s->prob - 1) / 1e6, j->measured_prob ?
		       (double)(j->measured_prob - 1) / 1e6 : 0.0);
	if (j->total.has_samples) {
		double lo, hi;

		lp_wilson(j->total.samp_wrong, j->total.samp_right +
			  j->total.samp_wrong, &lo, &hi);
		printf(", \"samples\": %llu, \"wrong_low\": %.4f, "
		       "\"wrong_high\": %.4f",
		       (unsigned long long)(j->total.samp_right +
					    j->total.samp_wrong), lo, hi);
	}
	if (e->pl && !e->pl->placed && e->pl->reason) {
		printf(", \"not_found\": ");
		lp_json_str(e->pl->reason);
	}
	printf("}");
}

/* A condition on one line, control characters as spaces. */
static void put_cond(FILE *m, const char *c)
{
	for (; c && *c; c++)
		fputc((unsigned char)*c < 0x20 ? ' ' : *c, m);
}

/* What a suggestion says, between "note: " and its tag; malloc'd. */
static char *suggestion_message(const struct lp_suggestion *s)
{
	uint64_t evals = s->taken + s->not_taken;
	unsigned long long h = (unsigned long long)
		((unsigned __int128)(s->likely ? s->taken : s->not_taken) *
		 10000 / evals);
	char *msg = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&msg, &len);

	if (!m)
		lp_die("out of memory");
	fputs("if", m);
	if (s->cond && *s->cond) {      /* kernel tables do not say */
		fputc(' ', m);
		put_cond(m, s->cond);
	}
	if (s->func && *s->func)
		fprintf(m, " in %s()", s->func);
	/* hundredths of a percent, rounded down: 99.95% never reads 100% */
	fprintf(m, " was %s %llu.%02llu%% of %llu times; consider %s()",
		s->likely ? "true" : "false", h / 100, h % 100,
		(unsigned long long)evals, s->likely ? "likely" : "unlikely");
	if (fclose(m) || !msg)
		lp_die("out of memory");
	return msg;
}

static void print_suggestion_text(const struct lp_suggestion *s)
{
	char *msg = suggestion_message(s);

	print_diagnostic(s->file, s->line, 0, msg, "likelyprof-suggest");
	free(msg);
}

static void print_suggestion_json(const struct lp_suggestion *s, int first)
{
	printf("%s\n    {\"suggest\": \"%s\", \"file\": ", first ? "" : ",",
	       s->likely ? "likely" : "unlikely");
	lp_json_str(s->file);
	printf(", \"line\": %ld, \"function\": ", s->line);
	lp_json_str(s->func);
	printf(", \"condition\": ");
	lp_json_str(s->cond);
	printf(", \"true\": %llu, \"false\": %llu}",
	       (unsigned long long)s->taken,
	       (unsigned long long)s->not_taken);
}

/*-************************************
 *  SARIF, for code scanning
 **************************************/
static const char *const sarif_rules[][2] = {
	{ "remove", "The annotation is wrong too often to help: remove it" },
	{ "flip", "The annotation is backwards in every profile: flip it" },
	{ "fine", "The annotation is right often enough" },
	{ "few", "Too few evaluations to judge the annotation" },
	{ "constant", "The annotation only saw a constant condition" },
	{ "never", "The annotation never ran" },
	{ "suggest", "An unannotated branch went one way almost always" },
	{ "unsure", "The binary's jumps or its samples cannot tell how the "
		    "hint did" },
	{ "setting", "The hint went one way all through each of several "
		     "processes: it follows how the program is run, not the "
		     "data" },
	{ "restate", "The probability the hint states is far from the "
		     "measured one: write the measured" },
};

/*
 * The unsure and setting rules are listed only where a result uses them,
 * so the output of other profiles stays as it was.
 */
/*
 * Paths are relative to SRCROOT: the tree of --src when given, else the
 * folder the compiler ran in, which check cannot know, so the consumer
 * (code scanning: the checkout) supplies it.
 */
static void print_sarif_base(const struct lp_tree *tree)
{
	printf("    \"originalUriBaseIds\": {\"SRCROOT\": {");
	if (tree) {
		printf("\"uri\": \"file://");
		lp_uri_put(stdout, lp_tree_root(tree));
		printf("/\"");
	} else {
		printf("\"description\": {\"text\": \"The folder the "
		       "profile's relative paths start from, where the "
		       "compiler ran; check --src DIR names it\"}");
	}
	printf("}},\n");
}

static void print_sarif_head(int unsure, int setting, int restate,
			     const struct lp_tree *tree)
{
	size_t i, k = 0, nrules = sizeof(sarif_rules) / sizeof(sarif_rules[0]);

	printf("{\n  \"$schema\": \"https://json.schemastore.org/"
	       "sarif-2.1.0.json\",\n  \"version\": \"2.1.0\",\n"
	       "  \"runs\": [{\n    \"tool\": {\"driver\": {\"name\": "
	       "\"likelyprof\", \"version\": \"%s\", \"rules\": [",
	       LP_VERSION_STRING);
	for (i = 0; i < nrules; i++) {
		if ((!unsure && !strcmp(sarif_rules[i][0], "unsure")) ||
		    (!setting && !strcmp(sarif_rules[i][0], "setting")) ||
		    (!restate && !strcmp(sarif_rules[i][0], "restate")))
			continue;
		printf("%s\n      {\"id\": \"likelyprof-%s\", "
		       "\"shortDescription\": {\"text\": \"%s\"}}",
		       k++ ? "," : "", sarif_rules[i][0], sarif_rules[i][1]);
	}
	printf("\n    ]}},\n");
	print_sarif_base(tree);
	printf("    \"results\": [");
}

static void print_sarif_result(int first, const char *rule, int warning,
			       const char *msg, const char *path, long line,
			       const char *dir)
{
	printf("%s\n      {\"ruleId\": \"likelyprof-%s\", \"level\": "
	       "\"%s\", \"message\": {\"text\": ", first ? "" : ",", rule,
	       warning ? "warning" : "note");
	lp_json_str(msg);
	printf("}, \"locations\": [{\"physicalLocation\": "
	       "{\"artifactLocation\": {\"uri\": ");
	/* an absolute path is a file: URI, a relative one SRCROOT's */
	printf("\"%s", path[0] == '/' ? "file://" : "");
	lp_uri_put(stdout, path);
	printf(path[0] == '/' ? "\"" : "\", \"uriBaseId\": \"SRCROOT\"");
	printf("}, \"region\": {\"startLine\": %ld}}}]", line);
	if (dir)
		printf(", \"properties\": {\"direction\": \"%s\"}", dir);
	printf("}");
}

/* What the command line asks of check. */
struct check_opts {
	struct lp_policy pol;
	const char **files;
	size_t nfiles;
	const char *src, *link;
	const char *pages;      /* -o DIR/: the page's folder */
	unsigned long long rows;
	int all, json, sarif, html;
	double suggest_at;
	unsigned long long suggest_min;
	struct lp_filter filt;  /* --file, --function, --verdict */
	struct lp_hint_macros macros;   /* --hint-macro, for --src */
};

static void parse_format(struct check_opts *o, const char *v)
{
	if (!strcmp(v, "json"))
		o->json = 1;
	else if (!strcmp(v, "sarif"))
		o->sarif = 1;
	else if (!strcmp(v, "html"))
		o->html = 1;
	else if (strcmp(v, "text"))
		lp_usage_error(check_usage, "unknown format '%s'", v);
}

static void parse_check_args(int argc, const char **argv,
			     struct check_opts *o)
{
	const char *v;
	int k;

	for (k = 1; k < argc; k++) {
		if (lp_policy_option(&o->pol, argc, argv, &k, check_usage)) {
		} else if (lp_progress_option(argv[k])) {
		} else if (lp_output_option(argc, argv, &k, check_usage)) {
		} else if (lp_color_option(argv[k], check_usage)) {
		} else if (lp_filter_option(&o->filt, argc, argv, &k,
					    check_usage, 1)) {
		} else if (lp_hint_macro_option(&o->macros, argc, argv, &k,
						check_usage)) {
		} else if ((v = lp_option_value(argc, argv, &k, "--src",
						check_usage))) {
			o->src = v;
		} else if ((v = lp_option_value(argc, argv, &k, "--format",
						check_usage))) {
			parse_format(o, v);
		} else if ((v = lp_option_value(argc, argv, &k,
						"--suggest-at", check_usage))) {
			o->suggest_at = lp_parse_percent("--suggest-at", v,
							 check_usage);
			if (o->suggest_at <= 50.0)
				lp_usage_error(check_usage, "--suggest-at must "
					       "be above 50");
		} else if ((v = lp_option_value(argc, argv, &k, "--suggest-min",
						check_usage))) {
			o->suggest_min = lp_parse_count("--suggest-min", v,
							check_usage);
		} else if ((v = lp_option_value(argc, argv, &k, "--link",
						check_usage))) {
			o->link = v;
		} else if ((v = lp_option_value(argc, argv, &k, "--rows",
						check_usage))) {
			o->rows = lp_parse_count("--rows", v, check_usage);
		} else if (!strcmp(argv[k], "--all")) {
			o->all = 1;
		} else if (!strcmp(argv[k], "--")) {
			while (++k < argc)
				o->files[o->nfiles++] = argv[k];
		} else if (argv[k][0] == '-' && argv[k][1]) {
			lp_usage_error(check_usage, "unknown option '%s'",
				       argv[k]);
		} else {
			o->files[o->nfiles++] = argv[k];
		}
	}
	if (!o->nfiles)
		lp_usage_error(check_usage, "no profile given");
}

/* The judged sites, placed or not, and what check says of them. */
struct check_run {
	struct lp_inputs in;
	struct lp_tree *tree;
	struct lp_place *places;
	struct lp_check_entry *e;
	size_t n;                       /* entries to print */
	size_t count[LP_VERDICT_RESTATE + 1];
	size_t nstale;                  /* changed in the tree since */
	const char *last_change;        /* the commit that changed one */
	struct lp_suggestions sug;
	char *workload;                 /* lp_workload_text(), or NULL */
};

/*
 * The entries to print: the sites to change, settings, and with --all
 * every other; a change the tree already made is counted, not printed.
 */
static void collect_entries(struct check_run *r, int all)
{
	size_t i;

	r->e = lp_xcalloc(r->in.sites.nr + 1, sizeof(*r->e));
	for (i = 0; i < r->in.sites.nr; i++) {
		const struct lp_judged *s = &r->in.sites.v[i];
		const struct lp_place *pl = r->places ? &r->places[i] : NULL;
		struct lp_check_entry *e = &r->e[r->n];

		if (lp_verdict_changes(s->j.verdict) && lp_place_stale(pl)) {
			r->nstale++;
			if (!r->last_change && pl->quoted)
				r->last_change = pl->quoted;
			continue;
		}
		r->count[s->j.verdict]++;
		/* a setting is said, as a note: the counts cannot decide it */
		if (!all && !lp_verdict_changes(s->j.verdict) &&
		    s->j.verdict != LP_VERDICT_SETTING)
			continue;
		e->s = s;
		e->pl = pl;
		e->workload = r->workload;
		if (pl && pl->placed) {
			e->path = lp_tree_path(r->tree, pl->call_file);
			e->line = pl->line;
		} else {
			e->path = lp_xstrdup(s->file);
			e->line = s->line;
		}
		r->n++;
	}
	if (r->n > 1)
		qsort(r->e, r->n, sizeof(*r->e), cmp_entry);
}

static void print_sarif(const struct check_run *r)
{
	size_t unsure = 0, i;

	for (i = 0; i < r->n; i++)
		unsure += r->e[i].s->j.verdict == LP_VERDICT_UNSURE;
	print_sarif_head(unsure > 0, r->count[LP_VERDICT_SETTING] > 0,
			 r->count[LP_VERDICT_RESTATE] > 0, r->tree);
	for (i = 0; i < r->n; i++) {
		char *msg = lp_site_message(&r->e[i], r->tree);
		enum lp_verdict verdict = r->e[i].s->j.verdict;
		const struct lp_place *pl = r->e[i].pl;
		const char *uri = pl && pl->placed ? pl->call_file->rel
						   : r->e[i].path;

		print_sarif_result(!i, lp_verdict_name(verdict),
				   lp_verdict_changes(verdict), msg, uri,
				   r->e[i].line, direction(r->e[i].s->expect));
		free(msg);
	}
	for (i = 0; i < r->sug.nr; i++) {
		char *msg = suggestion_message(&r->sug.v[i]);

		print_sarif_result(!r->n && !i, "suggest", 0, msg,
				   r->sug.v[i].file, r->sug.v[i].line,
				   r->sug.v[i].likely ? "likely" : "unlikely");
		free(msg);
	}
	printf("%s    ]\n  }]\n}\n", r->n + r->sug.nr ? "\n" : "");
}

/* The labels the verdicts rest on (run --label), where there are any. */
static void print_json_workloads(const struct check_run *r)
{
	const char **labels;
	long n = lp_profiles_labels(r->in.profs, r->in.n, &labels), i;

	if (n < 0)
		lp_die("out of memory");
	if (n) {
		printf("  \"workloads\": [");
		for (i = 0; i < n; i++) {
			printf(i ? ", " : "");
			lp_json_str(labels[i]);
		}
		printf("],\n");
	}
	free(labels);
}

static void print_json_all(const struct check_run *r)
{
	const size_t *count = r->count;
	size_t i;

	printf("{\n  \"sites\": [");
	for (i = 0; i < r->n; i++)
		print_json(&r->e[i], !i);
	printf("%s  ],\n", r->n ? "\n" : "");
	/* only all-branches profiles have branches to speak of */
	if (r->sug.branches) {
		printf("  \"suggestions\": [");
		for (i = 0; i < r->sug.nr; i++)
			print_suggestion_json(&r->sug.v[i], !i);
		printf("%s  ],\n", r->sug.nr ? "\n" : "");
	}
	print_json_workloads(r);
	printf("  \"summary\": {\"sites\": %zu, \"remove\": "
	       "%zu, \"flip\": %zu, \"fine\": %zu, \"few\": %zu, "
	       "\"constant\": %zu, \"never\": %zu",
	       r->in.sites.nr, count[LP_VERDICT_REMOVE],
	       count[LP_VERDICT_FLIP], count[LP_VERDICT_FINE],
	       count[LP_VERDICT_FEW], count[LP_VERDICT_CONSTANT],
	       count[LP_VERDICT_NEVER]);
	if (r->sug.branches)
		printf(", \"branches\": %zu, \"suggestions\": %zu",
		       r->sug.branches, r->sug.nr);
	if (count[LP_VERDICT_UNSURE])
		printf(", \"unsure\": %zu", count[LP_VERDICT_UNSURE]);
	if (count[LP_VERDICT_SETTING])
		printf(", \"setting\": %zu", count[LP_VERDICT_SETTING]);
	if (count[LP_VERDICT_RESTATE])
		printf(", \"restate\": %zu", count[LP_VERDICT_RESTATE]);
	printf("}\n}\n");
}

static void print_text_all(const struct check_run *r)
{
	const size_t *count = r->count;
	size_t i;

	for (i = 0; i < r->n; i++)
		print_text(&r->e[i], r->tree);
	for (i = 0; i < r->sug.nr; i++)
		print_suggestion_text(&r->sug.v[i]);
	/*
	 * A summary, not a result: stdout stays the warnings.  They go out
	 * first, so that 2>&1 keeps the summary last.
	 */
	fflush(stdout);
	fprintf(stderr, "likelyprof: %zu of %zu site%s to change "
		"(%zu remove, %zu flip", count[LP_VERDICT_REMOVE] +
		count[LP_VERDICT_FLIP] + count[LP_VERDICT_RESTATE],
		r->in.sites.nr, lp_plural(r->in.sites.nr),
		count[LP_VERDICT_REMOVE], count[LP_VERDICT_FLIP]);
	if (count[LP_VERDICT_RESTATE])
		fprintf(stderr, ", %zu restate", count[LP_VERDICT_RESTATE]);
	fprintf(stderr, "); %zu fine, %zu too few "
		"evaluations, %zu constant, %zu never run",
		count[LP_VERDICT_FINE], count[LP_VERDICT_FEW],
		count[LP_VERDICT_CONSTANT], count[LP_VERDICT_NEVER]);
	if (count[LP_VERDICT_UNSURE])
		fprintf(stderr, ", %zu not judged from the binary",
			count[LP_VERDICT_UNSURE]);
	if (count[LP_VERDICT_SETTING])
		fprintf(stderr, ", %zu following a setting",
			count[LP_VERDICT_SETTING]);
	if (r->sug.branches)
		fprintf(stderr, "; %zu of %zu unannotated branches "
			"could take a hint", r->sug.nr, r->sug.branches);
	fputc('\n', stderr);
}

static void check_run_release(struct check_run *r)
{
	size_t i;

	for (i = 0; i < r->n; i++)
		free(r->e[i].path);
	free(r->e);
	lp_suggestions_release(&r->sug);
	if (r->places)
		lp_place_release(r->places, r->in.sites.nr);
	free(r->places);
	lp_tree_free(r->tree);
	lp_inputs_release(&r->in);
	free(r->workload);
}

int cmd_check(int argc, const char **argv)
{
	struct check_opts o;
	struct check_run r;
	int ret;

	if (lp_wants_help(argc, argv)) {
		fputs(check_usage, stdout);
		return LP_EXIT_OK;
	}
	memset(&o, 0, sizeof(o));
	memset(&r, 0, sizeof(r));
	o.pol = (struct lp_policy)LP_POLICY_INIT;
	o.rows = LP_HTML_ROWS;
	o.suggest_at = LP_SUGGEST_AT;
	o.suggest_min = LP_SUGGEST_MIN;
	o.files = lp_xcalloc((size_t)argc, sizeof(char *));
	parse_check_args(argc, argv, &o);
	o.pages = lp_output_folder(o.html, check_usage);
	ret = LP_EXIT_ERROR;
	if (lp_inputs_read(&r.in, &o.pol, o.files, o.nfiles))
		goto out;
	lp_filter_judged(&r.in.sites, &o.filt);
	r.workload = lp_workload_text(r.in.profs, r.in.n);
	if (o.src)
		lp_progress(0, "placing %zu site%s in '%s'", r.in.sites.nr,
			    lp_plural(r.in.sites.nr), o.src);
	if (o.src && lp_place_sites(o.src, &o.macros, &r.in.sites, &r.tree,
				    &r.places))
		goto out;
	if (lp_suggest(&r.sug, r.in.ptrs, r.in.n, o.suggest_at,
		       o.suggest_min) < 0)
		lp_die("out of memory");
	lp_progress_end();
	/* asking for verdicts by name asks to see them */
	collect_entries(&r, o.all || o.filt.verdicts);
	if (o.html) {
		struct lp_html_opts h = { "likelyprof check", o.link, o.rows,
					  0, &o.pol, o.files, o.nfiles,
					  r.workload, o.pages };

		lp_html_write(stdout, &r.in.sites, r.places, r.tree, &h);
		if (lp_html_views(&r.in.sites, r.places, r.tree, &h))
			goto out;
	} else if (o.sarif) {
		print_sarif(&r);
	} else if (o.json) {
		print_json_all(&r);
	} else {
		print_text_all(&r);
	}
	if (!o.html && !o.sarif && r.nstale)
		lp_note("the profile is older than the tree: %zu site%s "
			"changed since%s%s", r.nstale, r.nstale == 1 ? "" : "s",
			r.last_change ? ", by " : "",
			r.last_change ? r.last_change : "");
	ret = r.count[LP_VERDICT_REMOVE] + r.count[LP_VERDICT_FLIP] +
	      r.count[LP_VERDICT_RESTATE] ? LP_EXIT_FINDINGS : LP_EXIT_OK;
out:
	check_run_release(&r);
	lp_filter_release(&o.filt);
	lp_hint_macros_release(&o.macros);
	free(o.files);
	return ret;
}
