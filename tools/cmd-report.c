/*
 * cmd-report.c - `likelyprof report`: the kernel's branch_annotated table
 *
 * The default output is what `cat trace_stat/branch_annotated` prints on a
 * kernel built with CONFIG_PROFILE_ANNOTATED_BRANCHES, byte for byte, so
 * that people who know that table read this one without a manual and can
 * paste it into a patch as Steven Rostedt did.  CSV and JSON carry the
 * same rows, in the same order, with the full path and the counts the
 * kernel's layout leaves out.
 */
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/hintmacro.h"
#include "bigmem.h"
#include "builtin.h"
#include "filter.h"
#include "output.h"
#include "fix/inputs.h"
#include "fold.h"
#include "json.h"
#include "ktable.h"
#include "profile.h"
#include "read-profiles.h"
#include "progress.h"
#include "report/html.h"
#include "usage.h"
#include "verdict.h"

static const char report_usage[] =
	"usage: likelyprof report [--format kernel|csv|json|lcov|html]\n"
	"                         [--group site|line|function] "
	"[--min-hits N] [--top N]\n"
	"                         [--width N] [--src DIR] [--link URL] "
	"[--rows N]\n"
	"                         [-o OUT] FILE...\n"
	"\n"
	"Prints the annotated branches of the profiles (merged when there\n"
	"are several; '-' reads standard input) worst first, in the layout\n"
	"of the kernel's trace_stat/branch_annotated.\n"
	"\n"
	"   --format kernel   the kernel's table (default)\n"
	"   --format csv      file,line,function,expect,correct,incorrect,"
	"constant,condition\n"
	"   --format json     an array of objects with those fields and\n"
	"                     percent_incorrect\n"
	"   --format lcov     branch data (BRDA) of an lcov tracefile, for\n"
	"                     genhtml\n"
	"   --format html     one page to decide from: check's verdicts,\n"
	"                     sorting, filters, views by function and file,\n"
	"                     a chart\n"
	"   --group site      one row per site record (default)\n"
	"   --group line      copies of one source line (static inlines)\n"
	"                     summed\n"
	"   --group function  all annotations of a function summed\n"
	"   --min-hits N      leave out rows with fewer than N evaluations\n"
	"   --top N           print only the first N rows\n"
	"   --width N         kernel: the Function column N wide (default\n"
	"                     30, the kernel's cut; 0: the longest name's)\n"
	"   --src DIR         html: each site's spelling and source line,\n"
	"                     found in the tree DIR\n"
	"   --hint-macro NAME[=1|0]\n"
	"                     with --src: a call of NAME is a hint, as\n"
	"                     likelyprof cc --hint-macro counted it\n"
	"   --link URL        html: the link of a site, {file} and {line}\n"
	"                     replaced (default: the file's path)\n"
	"   --rows N          html: rows a page of the table, and the\n"
	"                     worst N in the markup (default 250)\n"
	"   --file GLOB       only sites of files that match (path or base\n"
	"                     name; may repeat)\n"
	"   --function GLOB   only sites of functions that match\n"
	"   -o, --output OUT  write to OUT (replaced whole at the end)\n"
	"                     instead of standard output\n"
	"                     (html: to a folder DIR/, as DIR/index.html\n"
	"                     and with --src a page per source file)\n"
	"   --progress        say what it is doing on stderr even when that\n"
	"                     is no terminal\n";

enum format { FMT_KERNEL, FMT_CSV, FMT_JSON, FMT_LCOV, FMT_HTML };

struct report_opts {
	enum format format;
	enum lp_group group;
	unsigned long long min_hits;
	unsigned long long top;
	int have_top;
	unsigned long long width;       /* of the kernel table's Function */
	const char *src;        /* html only, as link, rows and pages */
	const char *link;
	const char *pages;      /* -o DIR/: the page's folder */
	unsigned long long rows;
	struct lp_filter filt;  /* --file, --function */
	struct lp_hint_macros macros;   /* --hint-macro, with --src */
};

/*-************************************
 *  Output formats
 **************************************/
static void csv_field(const char *s)
{
	if (!strpbrk(s, ",\"\r\n")) {
		fputs(s, stdout);
		return;
	}
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

static void expect_text(char *buf, size_t size, long expect)
{
	if (expect == LP_EXPECT_UNKNOWN)
		buf[0] = '\0';
	else if (expect == LP_EXPECT_IF)
		snprintf(buf, size, "if");
	else
		snprintf(buf, size, "%ld", expect);
}

static void print_csv(const struct lp_kernel_key *rows, size_t nr)
{
	size_t i;

	fputs("file,line,function,expect,correct,incorrect,constant,"
	      "condition\n", stdout);
	for (i = 0; i < nr; i++) {
		const struct lp_prof_site *s = rows[i].site;
		char expect[32];

		expect_text(expect, sizeof(expect), s->expect);
		csv_field(s->file);
		printf(",%ld,", s->line);
		csv_field(s->func);
		printf(",%s,%llu,%llu,%llu,", expect,
		       (unsigned long long)s->correct,
		       (unsigned long long)s->incorrect,
		       (unsigned long long)s->constant);
		csv_field(s->cond);
		putchar('\n');
	}
}

static void print_json(const struct lp_kernel_key *rows, size_t nr)
{
	size_t i;

	if (!nr) {
		fputs("[]\n", stdout);
		return;
	}
	fputs("[\n", stdout);
	for (i = 0; i < nr; i++) {
		const struct lp_prof_site *s = rows[i].site;
		long pct = lp_kernel_percent(s->correct, s->incorrect);

		fputs("  {\"file\": ", stdout);
		lp_json_str(s->file);
		printf(", \"line\": %ld, \"function\": ", s->line);
		lp_json_str(s->func);
		fputs(", \"expect\": ", stdout);
		if (s->expect == LP_EXPECT_UNKNOWN)
			fputs("null", stdout);
		else if (s->expect == LP_EXPECT_IF)
			fputs("\"if\"", stdout);
		else
			printf("%ld", s->expect);
		printf(", \"correct\": %llu, \"incorrect\": %llu, "
		       "\"constant\": %llu, \"condition\": ",
		       (unsigned long long)s->correct,
		       (unsigned long long)s->incorrect,
		       (unsigned long long)s->constant);
		lp_json_str(s->cond);
		/* which way each process went, where the profile says it */
		if (s->has_procs)
			printf(", \"processes_right\": %llu, "
			       "\"processes_wrong\": %llu, "
			       "\"processes_both\": %llu",
			       (unsigned long long)s->procs_right,
			       (unsigned long long)s->procs_wrong,
			       (unsigned long long)s->procs_both);
		if (pct < 0)
			fputs(", \"percent_incorrect\": null}", stdout);
		else
			printf(", \"percent_incorrect\": %ld}", pct);
		fputs(i + 1 < nr ? ",\n" : "\n", stdout);
	}
	fputs("]\n", stdout);
}

/* Counts saturate, as the library's do. */
static uint64_t sat_add(uint64_t a, uint64_t b)
{
	return a + b < a ? UINT64_MAX : a + b;
}

/*
 * lcov's tracefile, for genhtml: per source file (SF:), per site a block
 * of two branches, the condition true and false (BRDA:line,block,branch,
 * taken), '-' for a site that never ran.  True and false come from the
 * expected value: correct is true for likely (1), false for unlikely (0)
 * and for an if (the kernel's overlay); a site whose expected value is
 * neither (a kernel table's) says nothing of the direction, and is left
 * out.  Sorted by file and line: the order lcov writes.
 */
static int cmp_lcov(const void *pa, const void *pb)
{
	const struct lp_prof_site *a = ((const struct lp_kernel_key *)pa)->site;
	const struct lp_prof_site *b = ((const struct lp_kernel_key *)pb)->site;
	int c = strcmp(a->file, b->file);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	return (a > b) - (a < b);       /* the profile's order */
}

/* What lcov says of one source file, counted as its rows go by. */
struct lcov_file {
	const char *name;       /* NULL before the first */
	long line;              /* the line being written, 0 before one */
	uint64_t line_evals;    /* its most evaluated site's count */
	size_t brf, brh, lf, lh;
};

/* DA: of the line just written; a line's count is its busiest site's. */
static void lcov_line_end(struct lcov_file *lf)
{
	if (!lf->line)
		return;
	printf("DA:%ld,%llu\n", lf->line,
	       (unsigned long long)lf->line_evals);
	lf->lf++;
	lf->lh += lf->line_evals != 0;
}

static void lcov_file_end(struct lcov_file *lf)
{
	if (!lf->name)
		return;
	lcov_line_end(lf);
	printf("BRF:%zu\nBRH:%zu\nLF:%zu\nLH:%zu\nend_of_record\n",
	       lf->brf, lf->brh, lf->lf, lf->lh);
}

static void print_lcov(struct lp_kernel_key *rows, size_t nr)
{
	struct lcov_file lf = { NULL, 0, 0, 0, 0, 0, 0 };
	size_t i, block = 0;

	if (nr > 1)
		qsort(rows, nr, sizeof(*rows), cmp_lcov);
	fputs("TN:\n", stdout);
	for (i = 0; i < nr; i++) {
		const struct lp_prof_site *s = rows[i].site;
		uint64_t t, f, evals;
		const char *p;

		if (s->expect != 0 && s->expect != 1 &&
		    s->expect != LP_EXPECT_IF)
			continue;
		t = s->expect == 1 ? s->correct : s->incorrect;
		f = s->expect == 1 ? s->incorrect : s->correct;
		if (!lf.name || strcmp(lf.name, s->file)) {
			lcov_file_end(&lf);
			lf = (struct lcov_file){ s->file, 0, 0, 0, 0, 0, 0 };
			fputs("SF:", stdout);
			/* the format is a line per record */
			for (p = s->file; *p; p++)
				putchar((unsigned char)*p < 0x20 ? '?' : *p);
			putchar('\n');
		}
		if (s->line != lf.line) {
			lcov_line_end(&lf);
			lf.line = s->line;
			lf.line_evals = 0;
			block = 0;
		} else {
			block++;
		}
		evals = sat_add(t, f);
		if (evals > lf.line_evals)
			lf.line_evals = evals;
		if (!t && !f) {
			printf("BRDA:%ld,%zu,0,-\nBRDA:%ld,%zu,1,-\n", s->line,
			       block, s->line, block);
		} else {
			printf("BRDA:%ld,%zu,0,%llu\nBRDA:%ld,%zu,1,%llu\n",
			       s->line, block, (unsigned long long)t, s->line,
			       block, (unsigned long long)f);
			lf.brh += (t != 0) + (f != 0);
		}
		lf.brf += 2;
	}
	lcov_file_end(&lf);
}

/*
 * branch_all tables count unannotated branches; their header says miss and
 * hit.  A profile is one when every row is such a branch.
 */
static int all_branches(const struct lp_profile *p)
{
	size_t i;

	if (p->origin == LP_ORIGIN_KERNEL_ALL)
		return 1;
	for (i = 0; i < p->nr; i++)
		if (p->sites[i].expect != LP_EXPECT_IF)
			return 0;
	return p->nr > 0;
}

/*
 * Sorted rows visit the sites and their strings in no useful order, and
 * at a million rows each visit is a cache miss; asking for them a few
 * rows ahead overlaps the misses (twice as fast here).
 */
#define AHEAD 8

/*
 * Formats rows from *@i on into @buf, as many as @cap bytes hold for
 * certain; returns the bytes written and moves *@i past those rows.
 */
static size_t kernel_rows(char *buf, size_t cap,
			  const struct lp_kernel_key *rows, size_t nr,
			  size_t *i)
{
	size_t len = 0;

	for (; *i < nr && len + LP_KERNEL_ROW_MAX <= cap; (*i)++) {
		size_t k = *i;

		if (k + 2 * AHEAD < nr)
			__builtin_prefetch(rows[k + 2 * AHEAD].site);
		if (k + AHEAD < nr) {
			__builtin_prefetch(rows[k + AHEAD].site->func);
			__builtin_prefetch(rows[k + AHEAD].site->file);
		}
		len += lp_kernel_row(buf + len, rows[k].site);
	}
	return len;
}

/* Prints @nr rows through a buffer of its own. */
static void print_rows(const struct lp_kernel_key *rows, size_t nr)
{
	char buf[1 << 16];
	size_t i = 0;

	while (i < nr)
		fwrite(buf, 1, kernel_rows(buf, sizeof(buf), rows, nr, &i),
		       stdout);
}

/*
 * From PARALLEL_ROWS rows on, the keys are made and the rows formatted
 * by two threads; below, a thread costs more than it saves.
 */
#define PARALLEL_ROWS 65536

/*
 * A million rows take a tenth of a second to format.  A helper thread
 * formats every other block of rows into one of a few buffers, which the
 * main thread prints in turn between its own blocks: two cores format,
 * and the memory stays that of a few blocks (the whole half of the table
 * in memory was 45 MiB to fault in).
 */
#define BLOCK_ROWS 4096
#define BLOCK_BYTES (BLOCK_ROWS * LP_KERNEL_ROW_MAX)
#define SLOTS 4

struct helper_rows {
	const struct lp_kernel_key *rows;
	size_t nr;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	char *buf[SLOTS];
	size_t len[SLOTS];
	int full[SLOTS];        /* formatted, not yet printed */
};

/* Waits under h->lock until slot @k's fullness is @want. */
static void slot_wait(struct helper_rows *h, size_t k, int want)
{
	pthread_mutex_lock(&h->lock);
	while (h->full[k] != want)
		pthread_cond_wait(&h->cond, &h->lock);
	pthread_mutex_unlock(&h->lock);
}

static void slot_set(struct helper_rows *h, size_t k, int full)
{
	pthread_mutex_lock(&h->lock);
	h->full[k] = full;
	pthread_cond_broadcast(&h->cond);
	pthread_mutex_unlock(&h->lock);
}

/* The helper: the odd blocks, in order, into the slots in turn. */
static void *format_blocks(void *arg)
{
	struct helper_rows *h = arg;
	size_t b, k;

	for (b = 1, k = 0; b * BLOCK_ROWS < h->nr; b += 2) {
		size_t i = b * BLOCK_ROWS, end = i + BLOCK_ROWS;

		slot_wait(h, k, 0);
		h->len[k] = kernel_rows(h->buf[k], BLOCK_BYTES, h->rows,
					end < h->nr ? end : h->nr, &i);
		slot_set(h, k, 1);
		k = (k + 1) % SLOTS;
	}
	return NULL;
}

/* The main thread's side: its even blocks, and the helper's between. */
static void print_blocks(struct helper_rows *h)
{
	size_t b, k = 0;

	for (b = 0; b * BLOCK_ROWS < h->nr; b++) {
		size_t i = b * BLOCK_ROWS, n = h->nr - i;

		if (!(b & 1)) {
			print_rows(h->rows + i,
				   n < BLOCK_ROWS ? n : BLOCK_ROWS);
			continue;
		}
		slot_wait(h, k, 1);
		fwrite(h->buf[k], 1, h->len[k], stdout);
		slot_set(h, k, 0);
		k = (k + 1) % SLOTS;
	}
}

static void print_parallel(const struct lp_kernel_key *rows, size_t nr)
{
	struct helper_rows h;
	pthread_t helper;
	size_t k, ok = 1;

	memset(&h, 0, sizeof(h));
	h.rows = rows;
	h.nr = nr;
	for (k = 0; k < SLOTS; k++)
		ok &= (h.buf[k] = malloc(BLOCK_BYTES)) != NULL;
	pthread_mutex_init(&h.lock, NULL);
	pthread_cond_init(&h.cond, NULL);
	if (ok && !pthread_create(&helper, NULL, format_blocks, &h)) {
		print_blocks(&h);
		pthread_join(helper, NULL);
	} else {
		print_rows(rows, nr);
	}
	pthread_cond_destroy(&h.cond);
	pthread_mutex_destroy(&h.lock);
	for (k = 0; k < SLOTS; k++)
		free(h.buf[k]);
}

/* --width 0: as wide as the longest name of both tables, and "Function". */
static unsigned long long longest_func(const struct lp_kernel_key *rows,
				       size_t nr)
{
	size_t i, width = 8;

	for (i = 0; i < nr; i++) {
		size_t n = strlen(rows[i].site->func);

		width = n > width ? n : width;
	}
	return width;
}

/* The kernel's table with a Function column other than its 30 (--width). */
static void print_kernel_width(const struct lp_kernel_key *rows, size_t nr,
			       int all, size_t width)
{
	char *buf;
	size_t i;

	width = width < 8 ? 8 : width;  /* "Function" itself */
	buf = lp_xmalloc(2 * width + LP_KERNEL_ROW_MAX + 160);
	lp_kernel_header_width(buf, width, all);
	fputs(buf, stdout);
	for (i = 0; i < nr; i++)
		fwrite(buf, 1, lp_kernel_row_width(buf, rows[i].site, width),
		       stdout);
	free(buf);
}

static void print_kernel(const struct lp_kernel_key *rows, size_t nr,
			 int all, unsigned long long width)
{
	if (width != LP_KERNEL_FUNC_WIDTH) {
		print_kernel_width(rows, nr, all, (size_t)width);
		return;
	}
	fputs(all ? LP_KERNEL_ALL_HEADER : LP_KERNEL_HEADER, stdout);
	if (nr >= PARALLEL_ROWS)
		print_parallel(rows, nr);
	else
		print_rows(rows, nr);
}

/*
 * A profile of the all-branches mode holds both kinds of site; the kernel
 * shows them in two files, branch_annotated and branch_all, so the report
 * prints two tables.  Moves the rows of unannotated branches behind the
 * others, each part in its order; returns how many rows come first.
 */
static size_t annotated_first(struct lp_kernel_key *rows, size_t nr)
{
	struct lp_kernel_key *tail = lp_xmalloc((nr ? nr : 1) * sizeof(*tail));
	size_t i, head = 0, ntail = 0;

	for (i = 0; i < nr; i++) {
		if (rows[i].site->expect == LP_EXPECT_IF)
			tail[ntail++] = rows[i];
		else
			rows[head++] = rows[i];
	}
	memcpy(rows + head, tail, ntail * sizeof(*tail));
	free(tail);
	return head;
}

/*-************************************
 *  Options and main
 **************************************/
/*
 * Option values come as "--name VALUE" or "--name=VALUE"; a mistake is
 * one line on stderr (the usage given to the parsers is empty).
 */
/* The value of option @name at argv[*@i], as lp_option_value() gives it. */
static const char *opt(int argc, const char **argv, int *i, const char *name)
{
	return lp_option_value(argc, argv, i, name, report_usage);
}

static int parse_options(int argc, const char **argv,
			 struct report_opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;

		if (!strcmp(arg, "--"))
			return i + 1;
		if (arg[0] != '-' || !strcmp(arg, "-"))
			return i;
		if (lp_progress_option(arg)) {
		} else if (lp_output_option(argc, argv, &i, report_usage)) {
		} else if (lp_filter_option(&o->filt, argc, argv, &i,
					    report_usage, 0)) {
		} else if (lp_hint_macro_option(&o->macros, argc, argv, &i,
						report_usage)) {
		} else if ((v = opt(argc, argv, &i, "--format"))) {
			if (!strcmp(v, "kernel"))
				o->format = FMT_KERNEL;
			else if (!strcmp(v, "csv"))
				o->format = FMT_CSV;
			else if (!strcmp(v, "json"))
				o->format = FMT_JSON;
			else if (!strcmp(v, "lcov"))
				o->format = FMT_LCOV;
			else if (!strcmp(v, "html"))
				o->format = FMT_HTML;
			else
				lp_usage_error(report_usage, "unknown format "
					       "'%s' (kernel, csv, json, lcov or "
					       "html)", v);
		} else if ((v = opt(argc, argv, &i, "--group")) != NULL) {
			if (!strcmp(v, "site"))
				o->group = LP_GROUP_SITE;
			else if (!strcmp(v, "line"))
				o->group = LP_GROUP_LINE;
			else if (!strcmp(v, "function"))
				o->group = LP_GROUP_FUNCTION;
			else
				lp_usage_error(report_usage, "unknown group "
					       "'%s' (site, line or function)",
					       v);
		} else if ((v = opt(argc, argv, &i, "--min-hits")) != NULL) {
			o->min_hits = lp_parse_count("--min-hits", v,
						 report_usage);
		} else if ((v = opt(argc, argv, &i, "--top"))) {
			o->top = lp_parse_count("--top", v, report_usage);
			o->have_top = 1;
		} else if ((v = opt(argc, argv, &i, "--width"))) {
			o->width = lp_parse_count("--width", v, report_usage);
			if (o->width > 4096)
				lp_usage_error(report_usage, "--width %s: "
					       "at most 4096", v);
		} else if ((v = opt(argc, argv, &i, "--src"))) {
			o->src = v;
		} else if ((v = opt(argc, argv, &i, "--link")) != NULL) {
			o->link = v;
		} else if ((v = opt(argc, argv, &i, "--rows")) != NULL) {
			o->rows = lp_parse_count("--rows", v, report_usage);
		} else {
			lp_usage_error(report_usage, "unknown option '%s'",
				       arg);
		}
	}
	return i;
}

/*
 * The page speaks of verdicts, so it is made from the profiles as check
 * judges them (each its own machine), not from their merged rows.
 */
static int print_html(const struct report_opts *o, const char **files,
		      size_t n)
{
	struct lp_policy pol = LP_POLICY_INIT;
	struct lp_html_opts h = { "likelyprof report", o->link, o->rows,
				  o->min_hits, &pol, files, n, NULL,
				  o->pages };
	struct lp_inputs in;
	struct lp_tree *tree = NULL;
	struct lp_place *places = NULL;
	char *workload = NULL;
	int ret = LP_EXIT_ERROR;

	if (o->have_top && o->top < h.rows)
		h.rows = o->top;
	if (lp_inputs_read(&in, &pol, files, n))
		goto out;
	lp_filter_judged(&in.sites, &o->filt);
	if (o->src && lp_place_sites(o->src, &o->macros, &in.sites, &tree,
				     &places))
		goto out;
	h.workload = workload = lp_workload_text(in.profs, in.n);
	lp_html_write(stdout, &in.sites, places, tree, &h);
	ret = lp_html_views(&in.sites, places, tree, &h) ? LP_EXIT_ERROR :
		LP_EXIT_OK;
	if (places)
		lp_place_release(places, in.sites.nr);
out:
	free(workload);
	free(places);
	lp_tree_free(tree);
	lp_inputs_release(&in);
	return ret;
}

/* The keys of sites[0..n) with at least @min_hits evaluations. */
/*
 * One thread's half of the sites: first how many keys each bucket gets
 * (@count), then the keys, each at its bucket's next place (@at).
 */
struct key_job {
	struct lp_kernel_key *rows;
	const struct lp_prof_site *sites;
	size_t n;
	unsigned long long min_hits;
	int place;              /* 0: count, 1: make the keys */
	size_t count[LP_KERNEL_BUCKETS], at[LP_KERNEL_BUCKETS];
};

static int shown(const struct key_job *job, const struct lp_prof_site *s)
{
	/* saturating: a sum past 2^64-1 has certainly enough hits */
	return !job->min_hits || s->correct + s->incorrect >= job->min_hits ||
	       s->correct + s->incorrect < s->correct;
}

static void *key_job(void *arg)
{
	struct key_job *job = arg;
	size_t i;

	for (i = 0; i < job->n; i++) {
		const struct lp_prof_site *s = &job->sites[i];

		if (!shown(job, s))
			continue;
		if (job->place)
			lp_kernel_key_init(&job->rows[job->at[
						lp_kernel_bucket(s)]++], s);
		else
			job->count[lp_kernel_bucket(s)]++;
	}
	return NULL;
}

/* Runs both jobs, the second in a thread where @threaded. */
static void key_jobs(struct key_job *first, struct key_job *second,
		     int threaded)
{
	pthread_t helper;

	threaded = threaded && !pthread_create(&helper, NULL, key_job, second);
	key_job(first);
	if (threaded)
		pthread_join(helper, NULL);
	else
		key_job(second);
}

/*
 * Makes the keys of @n sites into @rows (room for @n) in the order of
 * their buckets, where @end[b] receives the end of bucket b, and returns
 * how many; a big profile's halves in two threads, each putting its keys
 * in its part of each bucket, so that the sort need not move them there.
 */
static size_t make_keys(struct lp_kernel_key *rows,
			const struct lp_prof_site *sites, size_t n,
			unsigned long long min_hits, size_t *end)
{
	size_t half = n >= PARALLEL_ROWS ? n / 2 : n, b, nr = 0;
	struct key_job first = { .rows = rows, .sites = sites, .n = half,
				 .min_hits = min_hits };
	struct key_job second = { .rows = rows, .sites = sites + half,
				  .n = n - half, .min_hits = min_hits };

	key_jobs(&first, &second, half < n);
	for (b = 0; b < LP_KERNEL_BUCKETS; b++) {
		first.at[b] = nr;
		second.at[b] = nr + first.count[b];
		nr += first.count[b] + second.count[b];
		end[b] = nr;
	}
	first.place = second.place = 1;
	key_jobs(&first, &second, half < n);
	return nr;
}

/* --top N: how many of @nr rows a table shows. */
static size_t top(const struct report_opts *o, size_t nr)
{
	return o->have_top && o->top < nr ? (size_t)o->top : nr;
}

int cmd_report(int argc, const char **argv)
{
	struct report_opts o = { FMT_KERNEL, LP_GROUP_SITE, 0, 0, 0,
				 LP_KERNEL_FUNC_WIDTH, NULL, NULL, NULL,
				 LP_HTML_ROWS, LP_FILTER_INIT,
				 LP_HINT_MACROS_INIT };
	struct lp_profile all = LP_PROFILE_INIT, folded = LP_PROFILE_INIT;
	const struct lp_profile *view = &all;
	struct lp_kernel_key *rows;
	size_t nr, head, end[LP_KERNEL_BUCKETS];
	int first, j;

	for (j = 1; j < argc && strcmp(argv[j], "--"); j++) {
		if (!strcmp(argv[j], "-h") || !strcmp(argv[j], "--help")) {
			fputs(report_usage, stdout);
			return LP_EXIT_OK;
		}
	}
	first = parse_options(argc, argv, &o);
	if (first >= argc)
		lp_usage_error(report_usage, "no profile given");
	o.pages = lp_output_folder(o.format == FMT_HTML, report_usage);
	if (o.format == FMT_HTML) {
		int ret = print_html(&o, argv + first, (size_t)(argc - first));

		lp_filter_release(&o.filt);
		lp_hint_macros_release(&o.macros);
		return ret;
	}
	if (lp_read_profiles(&all, argv + first, argc - first) < 0) {
		lp_profile_release(&all);
		lp_filter_release(&o.filt);
		lp_hint_macros_release(&o.macros);
		return LP_EXIT_ERROR;
	}
	lp_progress_end();
	if (all.nr && lp_filter_active(&o.filt)) {
		lp_filter_profile(&all, &o.filt);
		if (!all.nr) {
			lp_error("no site matches --file and --function");
			lp_profile_release(&all);
			lp_filter_release(&o.filt);
			lp_hint_macros_release(&o.macros);
			return LP_EXIT_ERROR;
		}
	}
	if (!all.nr) {
		if (argc - first == 1)
			lp_error("%s: no sites in profile",
				 strcmp(argv[first], "-") ? argv[first] :
				 "<stdin>");
		else
			lp_error("no sites in the profiles");
		lp_profile_release(&all);
		lp_filter_release(&o.filt);
		lp_hint_macros_release(&o.macros);
		return LP_EXIT_ERROR;
	}
	if (o.group != LP_GROUP_SITE) {
		if (lp_profile_fold(&folded, &all, o.group) < 0)
			lp_die("out of memory");
		view = &folded;
	}
	rows = lp_xmalloc(view->nr * sizeof(*rows));
	lp_big_hint(rows, view->nr * sizeof(*rows));
	nr = make_keys(rows, view->sites, view->nr, o.min_hits, end);
	lp_kernel_sort_bucketed(rows, nr, end, LP_KERNEL_SORT_PAR_MIN);
	if (o.format == FMT_KERNEL && !o.width)
		o.width = longest_func(rows, nr);
	if (o.format == FMT_KERNEL && !all_branches(&all) &&
	    (head = annotated_first(rows, nr)) < nr) {
		size_t tail = nr - head;

		print_kernel(rows, top(&o, head), 0, o.width);
		fputs("\n", stdout);
		print_kernel(rows + head, top(&o, tail), 1, o.width);
		goto out;
	}
	nr = top(&o, nr);
	switch (o.format) {
	case FMT_KERNEL:
		print_kernel(rows, nr, all_branches(&all), o.width);
		break;
	case FMT_CSV:
		print_csv(rows, nr);
		break;
	case FMT_JSON:
		print_json(rows, nr);
		break;
	case FMT_LCOV:
		print_lcov(rows, nr);
		break;
	case FMT_HTML:
		break;          /* written above, from check's verdicts */
	}
out:
	free(rows);
	lp_profile_release(&folded);
	lp_profile_release(&all);
	lp_filter_release(&o.filt);
	lp_hint_macros_release(&o.macros);
	return LP_EXIT_OK;
}
