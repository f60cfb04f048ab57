/*
 * cmd-run.c - `likelyprof run [-o FILE] -- PROG ARGS...`
 *
 * Points the runtime at a private folder (LIKELYPROF_FILE=<dir>/%e.%p.lprof,
 * so every process of the run, forks and exec'd children included, writes
 * its own file), runs the program, merges what it left into one profile
 * and exits with the program's status.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "policy.h"
#include "profile.h"
#include "usage.h"
#include "write-file.h"

static const char usage_run[] =
	"usage: likelyprof run [-o FILE] [--] PROG [ARGS...]\n"
	"\n"
	"Runs PROG (built with `likelyprof cc`), merges the profiles of all\n"
	"its processes into FILE (default PROG.lprof in the current folder)\n"
	"and exits with PROG's exit status (128+N if signal N killed it).\n"
	"\n"
	"   -o FILE   where to write the merged profile\n";

static char *tmpdir;

static void remove_tmpdir(void)
{
	DIR *d;
	struct dirent *e;

	if (!tmpdir)
		return;
	d = opendir(tmpdir);
	if (d) {
		while ((e = readdir(d))) {
			char *path;

			if (e->d_name[0] == '.')
				continue;
			path = lp_xstrfmt("%s/%s", tmpdir, e->d_name);
			unlink(path);
			free(path);
		}
		closedir(d);
	}
	rmdir(tmpdir);
	free(tmpdir);
	tmpdir = NULL;
}

static int run_program(const char **argv)
{
	struct sigaction ign, old_int, old_quit;
	pid_t pid;
	int status;

	/*
	 * Like system(): Ctrl-C goes to the program, and we stay to merge
	 * what it wrote.
	 */
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		lp_die("cannot start '%s': %s", argv[0], strerror(errno));
	if (!pid) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "likelyprof: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			lp_die("cannot wait for '%s': %s", argv[0],
			       strerror(errno));
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LP_EXIT_ERROR;
}

/* Merges every profile in tmpdir into @out; returns how many were read. */
static int collect(struct lp_profile *out)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;
	int files = 0;

	if (!d)
		lp_die("cannot read '%s': %s", tmpdir, strerror(errno));
	while ((e = readdir(d))) {
		char *path;
		struct lp_profile one;
		struct lp_diag diag;
		size_t n = strlen(e->d_name);
		int err;

		/* temporaries of a writer that was killed are not profiles */
		if (n < 6 || strcmp(e->d_name + n - 6, ".lprof"))
			continue;
		path = lp_xstrfmt("%s/%s", tmpdir, e->d_name);
		lp_profile_init(&one);
		err = lp_profile_read_file(&one, path, &diag);
		free(path);
		if (err < 0) {
			lp_warning("skipping a damaged profile: %s", diag.msg);
			lp_profile_release(&one);
			continue;
		}
		if (lp_profile_merge(out, &one) < 0)
			lp_die("out of memory");
		lp_profile_release(&one);
		files++;
	}
	closedir(d);
	return files;
}

/* One line: what ran, and how many sites `likelyprof check` would flag. */
static void summarise(struct lp_profile *p, int files, const char *file)
{
	const struct lp_profile *one = p;
	struct lp_judged_list judged = LP_JUDGED_LIST_INIT;
	struct lp_policy policy = LP_POLICY_INIT;
	unsigned long long evals = 0;
	size_t i, wrong = 0;

	if (lp_judge_profiles(&judged, &policy, &one, 1) < 0)
		lp_die("out of memory");
	for (i = 0; i < p->nr; i++)
		evals += p->sites[i].correct + p->sites[i].incorrect;
	for (i = 0; i < judged.nr; i++)
		if (lp_verdict_changes(judged.v[i].j.verdict))
			wrong++;
	fprintf(stderr, "likelyprof: %d process%s, %zu sites, "
		"%llu evaluations, %zu site%s look%s wrong; profile in %s\n",
		files, files == 1 ? "" : "es", p->nr, evals, wrong,
		wrong == 1 ? "" : "s", wrong == 1 ? "s" : "", file);
	lp_judged_list_release(&judged);
}

int cmd_run(int argc, const char **argv)
{
	const char *out = NULL, *base;
	struct lp_profile merged;
	char *pattern, *defname = NULL;
	const char *tmp = getenv("TMPDIR");
	int i, status, files;

	if (lp_wants_help(argc, argv)) {
		fputs(usage_run, stdout);
		return LP_EXIT_OK;
	}
	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if (!strcmp(argv[i], "-o")) {
			if (++i >= argc)
				lp_usage_error(usage_run,
					       "option '-o' needs a file");
			out = argv[i];
		} else if (!strncmp(argv[i], "--output=", 9)) {
			out = argv[i] + 9;
		} else if (argv[i][0] == '-') {
			lp_usage_error(usage_run, "unknown option '%s'",
				       argv[i]);
		} else {
			break;
		}
	}
	if (i >= argc)
		lp_usage_error(usage_run, "no program to run");
	if (out && !*out)
		lp_usage_error(usage_run, "option '-o' needs a file");
	base = strrchr(argv[i], '/');
	base = base ? base + 1 : argv[i];
	if (!out)
		out = defname = lp_xstrfmt("%s.lprof", base);

	tmpdir = lp_xstrfmt("%s/likelyprof-run-XXXXXX",
			    tmp && *tmp ? tmp : "/tmp");
	if (!mkdtemp(tmpdir)) {
		int e = errno;

		free(tmpdir);
		tmpdir = NULL;
		lp_die("cannot make a temporary folder: %s", strerror(e));
	}
	atexit(remove_tmpdir);
	pattern = lp_xstrfmt("%s/%%e.%%p.lprof", tmpdir);
	if (setenv("LIKELYPROF_FILE", pattern, 1))
		lp_die("cannot set LIKELYPROF_FILE: %s", strerror(errno));
	free(pattern);

	status = run_program(argv + i);

	lp_profile_init(&merged);
	files = collect(&merged);
	if (!files) {
		/* 127: it never ran, and the shell's message said so */
		if (status != 127)
			lp_warning("'%s' wrote no profile; was it built with "
				   "'likelyprof cc'?", argv[i]);
		lp_profile_release(&merged);
		free(defname);
		return status;
	}
	if (lp_profile_set_meta(&merged, "program", argv[i]) < 0 ||
	    lp_write_profile_file(&merged, out) < 0) {
		lp_profile_release(&merged);
		free(defname);
		return LP_EXIT_ERROR;
	}
	summarise(&merged, files, out);
	lp_profile_release(&merged);
	free(defname);
	return status;
}
