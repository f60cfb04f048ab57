/*
 * cmd-judge.c - `likelyprof judge`: the hints of an unmodified binary,
 * judged from its run under valgrind, written as an ordinary profile
 *
 * The parts are in tools/judge/ (judge.h says which does what); this is
 * the options and the order of the steps.  The program's exit status is
 * judge's own, as with `likelyprof run`.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "judge/judge.h"
#include "usage.h"
#include "write-file.h"

static const char usage_judge[] =
	"usage: likelyprof judge [-o FILE] [--src DIR] [--cc CC] "
	"[-I DIR] [-D NAME[=V]]\n"
	"                        [--compile-commands FILE] "
	"[--callgrind FILE]... [--explain]\n"
	"                        -- PROG [ARGS...]\n"
	"   or: likelyprof judge [options] (--perf FILE | --perf-script FILE)"
	" PROG\n"
	"\n"
	"Runs an unmodified program (built with -g) under valgrind's\n"
	"callgrind, counts every conditional jump, finds the hints of the\n"
	"sources under DIR (preprocessed as the build's compile_commands.json\n"
	"says, or with CC and the -I/-D options), and\n"
	"writes a profile for report, check and fix.  Each site says how sure\n"
	"it is: exact, ambiguous or unjudgeable; check changes no hint from\n"
	"the last two.\n"
	"\n"
	"   -o FILE           the profile (default PROG.lprof)\n"
	"   --src DIR         the program's sources (default .)\n"
	"   --cc CC           the preprocessor's compiler (default cc)\n"
	"   -I DIR, -D NAME   passed to the preprocessor\n"
	"   --compile-commands FILE\n"
	"                     each file preprocessed by its own command of\n"
	"                     this compilation database (default\n"
	"                     DIR/compile_commands.json, if there is one)\n"
	"   --callgrind FILE  read a callgrind output (--dump-instr=yes\n"
	"                     --collect-jumps=yes) instead of running PROG\n"
	"   --perf FILE       estimate the counts from the branch samples of\n"
	"                     this perf.data (perf record -b) of PROG, read\n"
	"                     with perf script; PROG is not run\n"
	"   --perf-script FILE\n"
	"                     the same from perf script's text (-F\n"
	"                     pid,period,ip,brstack --show-mmap-events)\n"
	"   --explain         say on stderr why each site that is not exact\n"
	"                     could not be read for sure\n";

static char *tmpdir;

static void remove_tmpdir(void)
{
	DIR *d;
	struct dirent *e;

	if (!tmpdir || !(d = opendir(tmpdir)))
		return;
	while ((e = readdir(d))) {
		char *p;

		if (e->d_name[0] == '.')
			continue;
		p = lp_xstrfmt("%s/%s", tmpdir, e->d_name);
		unlink(p);
		free(p);
	}
	closedir(d);
	rmdir(tmpdir);
}

/* Reads every callgrind.* file of @dir; returns how many, or -1. */
static int read_dir(struct lp_insns *in, const char *dir)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	int n = 0;

	if (!d)
		return lp_error("cannot read '%s': %s", dir, strerror(errno));
	while ((e = readdir(d))) {
		char *p;
		int err;

		if (strncmp(e->d_name, "callgrind.", 10))
			continue;
		p = lp_xstrfmt("%s/%s", dir, e->d_name);
		err = lp_callgrind_read(in, p);
		free(p);
		if (err) {
			closedir(d);
			return -1;
		}
		n++;
	}
	closedir(d);
	return n;
}

/*
 * The counts of branch samples: every jump of @prog from its disassembly,
 * counted from perf.data @data (through perf script) or from perf
 * script's text @script.
 */
static int read_samples(struct lp_insns *in, const char *prog,
			const char *data, const char *script)
{
	char *text = NULL;
	size_t len, samples = 0;
	int period = 0, ret;

	if (data)
		ret = lp_perf_script(data, &text);
	else if (!(text = lp_judge_slurp(script, &len)))
		ret = lp_error("cannot read '%s': %s", script,
			       strerror(errno));
	else
		ret = 0;
	if (!ret)
		ret = lp_jumps_list(in, prog);
	if (!ret)
		ret = lp_perf_read(in, prog, data ? data : script, text,
				   &samples, &period);
	free(text);
	if (!ret && !period)
		lp_warning("no sampling period in '%s': the counts are the "
			   "sampled executions, not estimates of all",
			   data ? data : script);
	return ret;
}

/*
 * The hints of the tree, preprocessed by the build's own commands where
 * there is a compilation database (named, or in the source folder), else
 * with @cc and the -I/-D options.
 */
static int find_hints(struct lp_hints *hints, const char *src,
		      const char *cc, const char *const *flags, size_t nflags,
		      const char *db_path, struct lp_compile_db *db)
{
	char *found = NULL;
	int ret;

	if (!db_path) {
		found = lp_xstrfmt("%s/compile_commands.json", src);
		if (access(found, F_OK) == 0)
			db_path = found;
	}
	if (db_path && (cc || nflags)) {
		free(found);
		return lp_error("--cc, -I and -D do not go with a compilation "
				"database ('%s'): its commands say how each "
				"file is built", db_path);
	}
	if (!db_path) {
		free(found);
		return lp_hints_find(hints, src, cc ? cc : "cc", flags);
	}
	ret = lp_compile_db_read(db, db_path);
	if (!ret)
		ret = lp_hints_find_db(hints, src, db);
	free(found);
	return ret;
}

/*
 * Hints, and no line of their sources with code in what ran: a binary
 * without a line table (no -g, or stripped) would otherwise make every
 * hint look unjudgeable, or never run.  An error, not a profile.
 */
static int no_line_table(const struct lp_hints *hints,
			 const struct lp_insns *in, const char *src,
			 const char *prog)
{
	if (!hints->nr || in->lines_nr)
		return 0;
	/*
	 * valgrind gives up on clang 14's DWARF 5 in a program that the
	 * one run starts (sh -c ...), and that program then stops: the
	 * cause cannot be told from here, so it is named as a possibility
	 */
	lp_error("no line of the sources under '%s' is in the line tables of "
		 "'%s' or the programs it ran: build them with -g (-g1 is "
		 "enough; clang 14: -gdwarf-4, which this valgrind reads) and "
		 "do not strip them, or give --src the folder of their "
		 "sources", src, prog);
	return 1;
}

/* What the command line asks of judge. */
struct judge_opts {
	const char *out, *src, *cc, *db_path, *perf, *script;
	const char **flags, **cg;       /* -I/-D/-U; --callgrind files */
	size_t nflags, ncg;
	int prog;                       /* argv index of the program */
	int explain;                    /* --explain */
	char *defname;
};

/* An option of judge that takes its value as the next argument. */
static int takes_value(const char *a)
{
	static const char *const opts[] = {
		"-o", "--src", "--cc", "--callgrind", "--compile-commands",
		"--perf", "--perf-script", "-I", "-D",
	};
	size_t i;

	for (i = 0; i < sizeof(opts) / sizeof(opts[0]); i++)
		if (!strcmp(a, opts[i]))
			return 1;
	return 0;
}

static void take_value(struct judge_opts *o, const char *a, const char *v)
{
	if (!strcmp(a, "-o"))
		o->out = v;
	else if (!strcmp(a, "--src"))
		o->src = v;
	else if (!strcmp(a, "--cc"))
		o->cc = v;
	else if (!strcmp(a, "--callgrind"))
		o->cg[o->ncg++] = v;
	else if (!strcmp(a, "--compile-commands"))
		o->db_path = v;
	else if (!strcmp(a, "--perf"))
		o->perf = v;
	else if (!strcmp(a, "--perf-script"))
		o->script = v;
	else
		o->flags[o->nflags++] = lp_xstrfmt("%s%s", a, v);
}

static void parse_judge_args(int argc, const char **argv,
			     struct judge_opts *o)
{
	int k;

	for (k = 1; k < argc; k++) {
		const char *a = argv[k];

		if (!strcmp(a, "--")) {
			k++;
			break;
		}
		if (takes_value(a)) {
			if (k + 1 >= argc || !*argv[k + 1])
				lp_usage_error(usage_judge, "option '%s' needs "
					       "a value", a);
			take_value(o, a, argv[++k]);
		} else if (!strncmp(a, "-I", 2) || !strncmp(a, "-D", 2) ||
			   !strncmp(a, "-U", 2)) {
			o->flags[o->nflags++] = lp_xstrdup(a);
		} else if (!strcmp(a, "--explain")) {
			o->explain = 1;
		} else if (a[0] == '-') {
			lp_usage_error(usage_judge, "unknown option '%s'", a);
		} else {
			break;
		}
	}
	o->prog = k;
	if (k >= argc && !o->ncg)
		lp_usage_error(usage_judge, "no program to run");
	if ((o->perf || o->script) &&
	    (o->perf && o->script ? 1 : o->ncg ? 1 : 0))
		lp_usage_error(usage_judge, "--perf, --perf-script and "
			       "--callgrind do not go together");
	if ((o->perf || o->script) && (k >= argc || k + 1 < argc))
		lp_usage_error(usage_judge, "--perf and --perf-script take "
			       "the binary alone, which is not run");
	if (!o->out) {
		const char *prog = k < argc ? argv[k] : "callgrind";
		const char *base = strrchr(prog, '/');

		o->out = o->defname = lp_xstrfmt("%s.lprof",
						 base ? base + 1 : prog);
	}
}

/*
 * Runs @argv under valgrind in a folder of its own and reads back what
 * callgrind wrote; its exit status into *@status.  0, or -1 (said).
 */
static int run_valgrind(const char **argv, struct lp_insns *insns,
			int *status)
{
	const char *tmp = getenv("TMPDIR");
	size_t before;

	tmpdir = lp_xstrfmt("%s/likelyprof-judge-XXXXXX",
			    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpdir)) {
		lp_error("cannot make a temporary folder: %s",
			 strerror(errno));
		free(tmpdir);
		tmpdir = NULL;
		return -1;
	}
	atexit(remove_tmpdir);
	if (lp_judge_valgrind(argv, tmpdir, status) < 0)
		return -1;
	before = insns->nr;
	/* valgrind that gives up leaves empty files behind */
	if (read_dir(insns, tmpdir) > 0 && insns->nr != before)
		return 0;
	if (lp_judge_dwarf5(argv[0]))
		return lp_error("valgrind wrote no callgrind output for '%s': "
				"its debug information is DWARF 5, which this "
				"valgrind may not read; build it with "
				"-gdwarf-4", argv[0]);
	return lp_error("valgrind wrote no callgrind output for '%s'",
			argv[0]);
}

/* The tools judge needs, before the sources are read. */
static int tools_missing(const struct judge_opts *o, int run)
{
	if (o->perf && !lp_judge_on_path("perf"))
		return lp_error("cannot run 'perf': not found on PATH "
				"(install the linux-perf package)");
	if (run && !o->perf && !o->script && !lp_judge_on_path("valgrind"))
		return lp_error("cannot run 'valgrind': not found on PATH "
				"(install the valgrind package)");
	return 0;
}

static void say_hints_found(const struct lp_hints *hints, const char *src)
{
	if (!hints->nr && hints->failed)
		lp_warning("no hint (__builtin_expect) found: %zu source%s "
			   "under '%s' did not preprocess (above)",
			   hints->failed, hints->failed == 1 ? "" : "s", src);
	else if (!hints->nr)
		lp_warning("no hint (__builtin_expect) in the sources under "
			   "'%s'", src);
}

/* One line: how many hints, and how sure their counts are. */
static void summarise(const struct lp_profile *prof, const char *out,
		      int sampled, size_t against)
{
	size_t n[5] = { 0 }, i;

	for (i = 0; i < prof->nr; i++)
		n[prof->sites[i].sure]++;
	fprintf(stderr, "likelyprof: %zu hints judged into '%s': %zu %s, "
		"%zu ambiguous", prof->nr, out,
		n[LP_SURE_EXACT] + n[LP_SURE_ESTIMATED],
		sampled ? "estimated" : "exact", n[LP_SURE_AMBIGUOUS]);
	if (against)
		fprintf(stderr, " (%zu with the layout against the hint)",
			against);
	fprintf(stderr, ", %zu unjudgeable\n", n[LP_SURE_UNJUDGEABLE]);
}

/* The jumps of the hints' lines, then the profile judged from them. */
static int decide(struct lp_profile *prof, struct lp_hints *hints,
		  struct lp_insns *insns, const struct judge_opts *o,
		  const char *prog, size_t *against)
{
	char **want = lp_xcalloc(hints->nr + 1, sizeof(*want));
	struct lp_terms *terms = NULL;
	size_t i;
	int ret = -1;

	for (i = 0; i < hints->nr; i++)
		want[i] = hints->v[i].real;
	if (!insns->sampled && lp_jumps_mark(insns, want, hints->nr) < 0)
		goto out;
	if (no_line_table(hints, insns, o->src, prog))
		goto out;
	ret = lp_judge_decide(prof, hints, insns, o->explain, against,
			      &terms);
	/* what each process did: votes and ways, as run's merge keeps */
	if (!ret && !insns->sampled)
		ret = lp_judge_ways(prof, insns, terms);
	for (i = 0; terms && i < prof->nr; i++)
		free(terms[i].v);
	free(terms);
out:
	free(want);
	return ret;
}

int cmd_judge(int argc, const char **argv)
{
	struct judge_opts o;
	struct lp_compile_db db = { NULL, 0 };
	struct lp_hints hints = { NULL, 0, 0, 0 };
	struct lp_insns insns;
	struct lp_profile prof = LP_PROFILE_INIT;
	size_t i, against = 0;
	int status = 0, ret = LP_EXIT_ERROR, run;
	const char *prog;

	if (lp_wants_help(argc, argv)) {
		fputs(usage_judge, stdout);
		return LP_EXIT_OK;
	}
	memset(&insns, 0, sizeof(insns));
	memset(&o, 0, sizeof(o));
	o.src = ".";
	o.flags = lp_xcalloc((size_t)argc + 1, sizeof(*o.flags));
	o.cg = lp_xcalloc((size_t)argc + 1, sizeof(*o.cg));
	parse_judge_args(argc, argv, &o);
	run = o.prog < argc;
	prog = run ? argv[o.prog] : o.cg[0];
	if (tools_missing(&o, run) ||
	    find_hints(&hints, o.src, o.cc, o.flags, o.nflags, o.db_path,
		       &db) < 0)
		goto done;
	say_hints_found(&hints, o.src);
	for (i = 0; i < o.ncg; i++)
		if (lp_callgrind_read(&insns, o.cg[i]) < 0)
			goto done;
	if ((o.perf || o.script) &&
	    read_samples(&insns, argv[o.prog], o.perf, o.script) < 0)
		goto done;
	if (run && !o.perf && !o.script &&
	    run_valgrind(argv + o.prog, &insns, &status) < 0)
		goto done;
	if (decide(&prof, &hints, &insns, &o, prog, &against) < 0)
		goto done;
	if (lp_profile_set_meta(&prof, "origin", insns.sampled ? "judge-perf"
						  : "judge-valgrind") < 0 ||
	    (run && lp_profile_set_meta(&prof, "program", prog) < 0))
		lp_die("out of memory");
	if (lp_write_profile_file(&prof, o.out) < 0)
		goto done;
	summarise(&prof, o.out, insns.sampled, against);
	ret = status;
done:
	for (i = 0; i < o.nflags; i++)
		free((char *)o.flags[i]);
	free(o.flags);
	free(o.cg);
	free(o.defname);
	lp_compile_db_release(&db);
	lp_hints_release(&hints);
	lp_insns_release(&insns);
	lp_profile_release(&prof);
	return ret;
}
