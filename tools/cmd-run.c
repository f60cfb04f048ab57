/*
 * cmd-run.c - `likelyprof run [-o FILE] -- PROG ARGS...`
 *
 * Points the runtime at a private folder (LIKELYPROF_FILE=<dir>/%e.%p.lprof,
 * so every process of the run, forks and exec'd children included, writes
 * its own file), runs the program, waits for its descendants (run is their
 * subreaper, so a daemon that double-forks comes back to it), merges what
 * they left into one profile and exits with the program's status.
 */
#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "policy.h"
#include "profile.h"
#include "progress.h"
#include "usage.h"
#include "write-file.h"

static const char usage_run[] =
	"usage: likelyprof run [-o FILE] [--wait SECONDS] [--] PROG [ARGS...]\n"
	"\n"
	"Runs PROG (built with `likelyprof cc`), merges the profiles of all\n"
	"its processes into FILE (default PROG.lprof in the current folder)\n"
	"and exits with PROG's exit status (128+N if signal N killed it).\n"
	"\n"
	"   -o FILE          where to write the merged profile\n"
	"   --wait SECONDS   how long to wait for processes that outlive PROG\n"
	"                    (default 10)\n"
	"   --progress       say how the gathering goes on stderr even when\n"
	"                    that is no terminal\n";

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

static volatile sig_atomic_t child_pid, stop_signal;

/*
 * SIGTERM (a CI cancel, timeout(1)), SIGINT, SIGHUP: passed on to the
 * program, and run stays to gather what it wrote.  A Ctrl-C from the
 * terminal reached the program already (it is in the foreground group),
 * so only a signal sent to run itself is passed on.
 */
static void on_stop(int sig, siginfo_t *info, void *ctx)
{
	(void)ctx;
	stop_signal = sig;
	if (child_pid > 0 && info->si_code <= 0)
		kill(child_pid, sig);
}

static const int stop_signals[] = { SIGINT, SIGTERM, SIGHUP };
#define N_STOP (sizeof(stop_signals) / sizeof(stop_signals[0]))

static int run_program(const char **argv, struct sigaction *old)
{
	struct sigaction sa, ign, old_quit;
	pid_t pid;
	size_t k;
	int status;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	sigaction(SIGQUIT, &ign, &old_quit);
	for (k = 0; k < N_STOP; k++)
		sigaction(stop_signals[k], &sa, &old[k]);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		lp_die("cannot start '%s': %s", argv[0], strerror(errno));
	if (!pid) {
		for (k = 0; k < N_STOP; k++)
			sigaction(stop_signals[k], &old[k], NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		execvp(argv[0], (char *const *)argv);
		fprintf(stderr, "likelyprof: cannot run '%s': %s\n", argv[0],
			strerror(errno));
		_exit(127);
	}
	child_pid = pid;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			lp_die("cannot wait for '%s': %s", argv[0],
			       strerror(errno));
	child_pid = 0;
	sigaction(SIGQUIT, &old_quit, NULL);
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LP_EXIT_ERROR;
}

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

/*
 * Descendants that outlived the program were handed to run (the
 * subreaper): wait for them, at most @secs, or until run is told to stop.
 * @return : 1 when some are still running.
 */
static int wait_descendants(double secs)
{
	double end = now() + secs;
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	for (;;) {
		pid_t r = waitpid(-1, NULL, WNOHANG);

		if (r > 0)
			continue;
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return 0;
		if (stop_signal || now() >= end)
			return 1;
		nanosleep(&tick, NULL);
	}
}

/*
 * Merges every profile in tmpdir into @out; returns how many were read,
 * and in *@started how many processes the runtime started in (the marks
 * it leaves, PID.start).
 */
static int collect(struct lp_profile *out, int *started)
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

		if (n > 6 && !strcmp(e->d_name + n - 6, ".start"))
			++*started;
		/* temporaries of a writer that was killed are not profiles */
		if (n < 6 || strcmp(e->d_name + n - 6, ".lprof"))
			continue;
		path = lp_xstrfmt("%s/%s", tmpdir, e->d_name);
		lp_progress(0, "gathering profiles: %d read", files);
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
	lp_progress_end();
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
	fprintf(stderr, "likelyprof: %d process%s, %zu site%s, "
		"%llu evaluation%s, %zu site%s look%s wrong; profile in %s\n",
		files, files == 1 ? "" : "es", p->nr, lp_plural(p->nr),
		evals, lp_plural(evals), wrong, lp_plural(wrong),
		wrong == 1 ? "s" : "", file);
	lp_judged_list_release(&judged);
}

/* What became of the processes that wrote nothing. */
static void explain_missing(const char *prog, int files, int started,
			    int status)
{
	if (!files && !started) {
		/* 127: it never ran, and the shell's message said so */
		if (status != 127)
			lp_warning("'%s' wrote no profile; was it built with "
				   "'likelyprof cc'?", prog);
	} else if (files < started) {
		lp_warning("%d of %d instrumented process%s wrote no profile "
			   "(left through _exit or a signal)",
			   started - files, started, started == 1 ? "" : "es");
	}
}

/*
 * Counters of -fPIC code use the initial-exec TLS model (doc/DESIGN.md,
 * "Shared libraries"): a module dlopen()ed late takes its counters from
 * the static TLS that glibc keeps spare, 1.6 KiB by default, about 50
 * sites.  Under `run` glibc keeps more (LP_STATIC_TLS_SURPLUS, enough
 * for some 2,000 sites), unless the user's GLIBC_TUNABLES says how much.
 * Each thread's stack gives up as much.
 */
#define LP_STATIC_TLS_SURPLUS "65536"
static void reserve_static_tls(void)
{
	const char *key = "glibc.rtld.optional_static_tls";
	const char *old = getenv("GLIBC_TUNABLES");
	char *val;

	if (old && strstr(old, key))
		return;
	val = old && *old ? lp_xstrfmt("%s:%s=%s", old, key,
				       LP_STATIC_TLS_SURPLUS)
			  : lp_xstrfmt("%s=%s", key, LP_STATIC_TLS_SURPLUS);
	if (setenv("GLIBC_TUNABLES", val, 1))
		lp_warning("cannot set GLIBC_TUNABLES: %s", strerror(errno));
	free(val);
}

int cmd_run(int argc, const char **argv)
{
	const char *out = NULL, *base;
	struct lp_profile merged;
	struct sigaction old[N_STOP];
	char *pattern, *defname = NULL;
	const char *tmp = getenv("TMPDIR");
	double wait_secs = 10;
	int i, status, files, started = 0;
	size_t k;

	if (lp_wants_help(argc, argv)) {
		fputs(usage_run, stdout);
		return LP_EXIT_OK;
	}
	for (i = 1; i < argc; i++) {
		const char *v;

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if ((v = lp_option_value(argc, argv, &i, "-o", usage_run)) ||
		    (v = lp_option_value(argc, argv, &i, "--output",
					 usage_run))) {
			out = v;
		} else if (!strncmp(argv[i], "-o", 2)) {
			out = argv[i] + 2;
		} else if (lp_progress_option(argv[i])) {
		} else if ((v = lp_option_value(argc, argv, &i, "--wait",
						usage_run))) {
			wait_secs = (double)lp_parse_count("--wait", v,
							   usage_run);
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
	if (setenv("LIKELYPROF_FILE", pattern, 1) ||
	    setenv("LIKELYPROF_RUN", tmpdir, 1))
		lp_die("cannot set LIKELYPROF_FILE: %s", strerror(errno));
	free(pattern);
	reserve_static_tls();
	/* orphans of the program (daemons) are handed to us, not to init */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);

	status = run_program(argv + i, old);
	if (wait_descendants(wait_secs))
		lp_warning("processes of '%s' still run after %s; what they "
			   "write later is not in the profile", argv[i],
			   stop_signal ? "the signal" : "--wait");
	for (k = 0; k < N_STOP; k++)
		sigaction(stop_signals[k], &old[k], NULL);

	lp_profile_init(&merged);
	files = collect(&merged, &started);
	explain_missing(argv[i], files, started, status);
	if (!files) {
		lp_profile_release(&merged);
		free(defname);
		return status;
	}
	if (lp_profile_set_meta(&merged, "program", argv[i]) < 0 ||
	    lp_write_profile_file(&merged, out) < 0) {
		/* what was gathered is not thrown away with the folder */
		lp_warning("the %d profile%s gathered stay in '%s'", files,
			   files == 1 ? "" : "s", tmpdir);
		free(tmpdir);
		tmpdir = NULL;
		lp_profile_release(&merged);
		free(defname);
		return LP_EXIT_ERROR;
	}
	summarise(&merged, files, out);
	lp_profile_release(&merged);
	free(defname);
	return status;
}
