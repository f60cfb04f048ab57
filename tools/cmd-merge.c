/*
 * cmd-merge.c - `likelyprof merge`: sum profiles from runs and machines
 *
 * Merging adds the counts of each site, so a fleet's profiles can be
 * merged in any order or tree and give the same bytes.  lib/profile/merge.c
 * merges sorted profiles in one pass; this file gathers the inputs
 * (operands, --files-from, folders) and hands them to merge-files.c,
 * which merges any number of them and replaces OUT atomically: a reader
 * never sees half a profile, and a failed merge leaves the old OUT as it
 * was.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "builtin.h"
#include "merge.h"
#include "merge-files.h"
#include "progress.h"
#include "usage.h"
#include "write-file.h"

static const char merge_usage[] =
	"usage: likelyprof merge -o OUT [options] FILE|FOLDER...\n"
	"\n"
	"Sums the counts of every site of the profiles (or kernel tables)\n"
	"and writes one profile to OUT, atomically; '-o -' writes standard\n"
	"output and a FILE of '-' reads standard input.  A FOLDER stands for\n"
	"its *.lprof files, in the order of their names.\n"
	"\n"
	"   -o, --output OUT      where to write the merged profile\n"
	"   --files-from LIST     read more input paths from LIST, one a\n"
	"                         line ('-': standard input)\n"
	"   --weight N FILE       merge FILE with its counts times N\n"
	"   --weighted-input=N,FILE\n"
	"                         the same, as llvm-profdata spells it\n"
	"   --normalize           scale each input to the evaluations of the\n"
	"                         longest, so that every input counts as much\n"
	"   --allow-different-builds\n"
	"                         merge profiles of different builds of one\n"
	"                         program (refused otherwise), sites by key\n"
	"   --label NAME          name the workload (replaces the inputs'\n"
	"                         labels; without it, each is kept once)\n"
	"   --progress            say what it is doing on stderr even when\n"
	"                         that is no terminal\n";

struct inputs {
	struct lp_merge_input *v;
	size_t nr, alloc;
	int stdin_seen;
};

static void add_input(struct inputs *in, const char *path, uint64_t weight)
{
	struct lp_merge_input *x;

	if (!strcmp(path, "-") && in->stdin_seen++)
		lp_die("standard input ('-') given twice");
	if (in->nr == in->alloc) {
		in->alloc = in->alloc ? in->alloc * 2 : 16;
		in->v = lp_xrealloc(in->v, in->alloc * sizeof(*in->v));
	}
	x = &in->v[in->nr++];
	memset(x, 0, sizeof(*x));
	x->path = lp_xstrdup(path);
	x->weight = weight;
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static int is_lprof(const char *name)
{
	size_t n = strlen(name);

	return n > 6 && !strcmp(name + n - 6, ".lprof") && name[0] != '.';
}

/* The *.lprof files of @dir, sorted by name. */
static void add_folder(struct inputs *in, const char *dir, uint64_t weight)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	char **names = NULL;
	size_t n = 0, alloc = 0, i;

	if (!d)
		lp_die("cannot read folder '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		if (!is_lprof(e->d_name))
			continue;
		if (n == alloc) {
			alloc = alloc ? alloc * 2 : 64;
			names = lp_xrealloc(names, alloc * sizeof(*names));
		}
		names[n++] = lp_xstrfmt("%s/%s", dir, e->d_name);
	}
	closedir(d);
	if (!n)
		lp_die("no *.lprof file in folder '%s'", dir);
	qsort(names, n, sizeof(*names), cmp_names);
	for (i = 0; i < n; i++) {
		add_input(in, names[i], weight);
		free(names[i]);
	}
	free(names);
}

static void add_operand(struct inputs *in, const char *path, uint64_t weight)
{
	struct stat st;

	if (strcmp(path, "-") && !stat(path, &st) && S_ISDIR(st.st_mode))
		add_folder(in, path, weight);
	else
		add_input(in, path, weight);
}

/* One path a line; an empty line is no path. */
static void add_files_from(struct inputs *in, const char *list)
{
	FILE *f = strcmp(list, "-") ? fopen(list, "r") : stdin;
	char *line = NULL;
	size_t cap = 0;
	ssize_t n;

	if (!f)
		lp_die("cannot read '%s': %s", list, strerror(errno));
	if (f == stdin && in->stdin_seen++)
		lp_die("standard input ('-') given twice");
	while ((n = getline(&line, &cap, f)) >= 0) {
		if (n && line[n - 1] == '\n')
			line[--n] = '\0';
		if (n)
			add_operand(in, line, 1);
	}
	if (ferror(f))
		lp_die("cannot read '%s': %s", list, strerror(errno));
	free(line);
	if (f != stdin)
		fclose(f);
}

static uint64_t parse_weight(const char *s)
{
	unsigned long long w = lp_parse_count("--weight", s, merge_usage);

	if (!w)
		lp_usage_error(merge_usage, "--weight must be at least 1");
	return w;
}

/* llvm-profdata's spelling: --weighted-input=N,FILE */
static void add_weighted(struct inputs *in, const char *v)
{
	const char *comma = strchr(v, ',');
	char *n;

	if (!comma || comma == v || !comma[1])
		lp_usage_error(merge_usage, "--weighted-input takes N,FILE, "
			       "not '%s'", v);
	n = lp_xstrfmt("%.*s", (int)(comma - v), v);
	add_operand(in, comma + 1, parse_weight(n));
	free(n);
}

struct opts {
	const char *out;
	int normalize;
	unsigned flags;         /* LP_MERGE_* */
	const char *label;      /* --label */
};

static void parse_args(int argc, const char **argv, struct opts *o,
		       struct inputs *in)
{
	int i, operands_only = 0;

	for (i = 1; i < argc; i++) {
		const char *arg = argv[i], *v;

		if (operands_only || arg[0] != '-' || !strcmp(arg, "-")) {
			add_operand(in, arg, 1);
		} else if (!strcmp(arg, "--")) {
			operands_only = 1;
		} else if (!strcmp(arg, "-o") || !strcmp(arg, "--output")) {
			if (i + 1 >= argc)
				lp_usage_error(merge_usage, "option '%s' needs "
					       "a file", arg);
			o->out = argv[++i];
		} else if (!strncmp(arg, "--output=", 9)) {
			o->out = arg + 9;
		} else if (!strncmp(arg, "-o", 2) && strncmp(arg, "--", 2)) {
			o->out = arg + 2;
		} else if ((v = lp_option_value(argc, argv, &i, "--files-from",
						merge_usage))) {
			add_files_from(in, v);
		} else if ((v = lp_option_value(argc, argv, &i, "--weight",
						merge_usage))) {
			if (i + 1 >= argc)
				lp_usage_error(merge_usage, "--weight %s needs "
					       "a file", v);
			add_operand(in, argv[++i], parse_weight(v));
		} else if ((v = lp_option_value(argc, argv, &i,
						"--weighted-input",
						merge_usage))) {
			add_weighted(in, v);
		} else if (!strcmp(arg, "--normalize")) {
			o->normalize = 1;
		} else if (!strcmp(arg, "--allow-different-builds")) {
			o->flags |= LP_MERGE_ANY_BUILD;
		} else if ((v = lp_option_value(argc, argv, &i, "--label",
						merge_usage))) {
			o->label = lp_label_option(v, merge_usage);
		} else if (lp_progress_option(arg)) {
		} else {
			lp_usage_error(merge_usage, "unknown option '%s'",
				       arg);
		}
	}
}

/* --normalize: each input's counts times the largest total over its own. */
static void normalize(struct lp_merge_input *in, size_t n)
{
	uint64_t *total = lp_xcalloc(n, sizeof(*total)), max = 0;
	struct lp_diag diag;
	size_t i;
	int err;

	for (i = 0; i < n; i++) {
		if ((err = lp_merge_total(&in[i], &total[i], &diag)) < 0) {
			lp_merge_print_diag(&diag, err);
			exit(LP_EXIT_ERROR);
		}
		if (total[i] > max)
			max = total[i];
	}
	for (i = 0; i < n; i++) {
		in[i].scale_num = max;
		in[i].scale_den = total[i];
	}
	free(total);
}

/* An input that cannot be read twice: standard input, a pipe, a device. */
static int read_once(const char *path)
{
	struct stat st;

	return !strcmp(path, "-") || (!stat(path, &st) && !S_ISREG(st.st_mode));
}

/*
 * Inputs that cannot be read twice are read first, whole: a merge may
 * have to start over.  @return : the profiles read, in an array of
 * in->nr (NULL for the others) the caller frees.
 */
static struct lp_profile **read_unrepeatable(struct inputs *in)
{
	struct lp_profile **mem = lp_xcalloc(in->nr, sizeof(*mem));
	struct lp_diag diag;
	size_t i;
	int err;

	for (i = 0; i < in->nr; i++) {
		if (!read_once(in->v[i].path))
			continue;
		mem[i] = lp_xcalloc(1, sizeof(**mem));
		lp_profile_init(mem[i]);
		if ((err = lp_profile_read_file(mem[i], in->v[i].path,
						&diag)) < 0) {
			lp_merge_print_diag(&diag, err);
			exit(LP_EXIT_ERROR);
		}
		lp_profile_sort(mem[i]);
		in->v[i].mem = mem[i];
	}
	return mem;
}

int cmd_merge(int argc, const char **argv)
{
	struct inputs in = { NULL, 0, 0, 0 };
	struct opts o = { NULL, 0, 0, NULL };
	struct lp_profile **mem;
	size_t i;
	int err;

	for (i = 1; i < (size_t)argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(merge_usage, stdout);
			return LP_EXIT_OK;
		}
	}
	parse_args(argc, argv, &o, &in);
	if (!o.out || !*o.out)
		lp_usage_error(merge_usage, "no output file: give -o OUT");
	if (!in.nr)
		lp_usage_error(merge_usage, "no profile to merge");
	mem = read_unrepeatable(&in);
	if (o.normalize)
		normalize(in.v, in.nr);
	err = lp_merge_files(in.v, in.nr, o.out, o.flags, o.label);
	for (i = 0; i < in.nr; i++) {
		free((char *)in.v[i].path);
		lp_profile_release(mem[i]);
		free(mem[i]);
	}
	free(in.v);
	free(mem);
	return err < 0 ? LP_EXIT_ERROR : LP_EXIT_OK;
}
