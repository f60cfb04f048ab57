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
#include <fcntl.h>
#include <errno.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "merge-files.h"
#include "policy.h"
#include "profile.h"
#include "progress.h"
#include "spawn.h"
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
	"   --allow-different-builds\n"
	"                    merge processes of different builds of one\n"
	"                    program (refused otherwise), sites by key\n"
	"   --label NAME     name the workload in the profile; check says\n"
	"                    which workload a verdict rests on\n"
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

/*
 * The program as the kernel will run it: @name itself when it has a
 * slash, else the first executable file of that name in PATH, as
 * execvp() looks; resolved to the path the process will see as its own
 * (/proc/self/exe), which the profile names.  NULL with errno set when
 * there is none.  The caller frees it.
 */
/* A regular file that may run; *@ctx becomes EACCES for one that may not. */
static int runnable(const char *cand, void *ctx)
{
	struct stat st;

	if (stat(cand, &st) || !S_ISREG(st.st_mode))
		return 0;
	if (!access(cand, X_OK))
		return 1;
	*(int *)ctx = EACCES;
	return 0;
}

static char *resolve_program(const char *name)
{
	const char *path = getenv("PATH");
	int err = ENOENT;
	char *cand, *real;

	if (strchr(name, '/'))
		return realpath(name, NULL);
	if (!path || !*path)
		path = "/usr/local/bin:/usr/bin:/bin";
	cand = lp_path_search(path, name, runnable, &err);
	if (!cand) {
		errno = err;
		return NULL;
	}
	real = realpath(cand, NULL);
	free(cand);
	return real;
}

/*
 * Runs @path with @argv and waits for it.  The child reports a failed
 * exec through a close-on-exec pipe, so that the kernel's reason
 * ("Exec format error") is what run says; execvp() would instead hand a
 * file the kernel refused to /bin/sh.
 * @return : the program's status, 128+N for signal N, or 126/127 when it
 *           could not be started (said, and *@exec_failed set).
 */
static int run_program(const char *path, const char **argv,
		       struct sigaction *old, int *exec_failed)
{
	struct sigaction sa, ign, old_quit;
	int pipefd[2], status, child_errno;
	pid_t pid;
	size_t k;
	ssize_t got;

	memset(&sa, 0, sizeof(sa));
	sa.sa_sigaction = on_stop;
	sa.sa_flags = SA_SIGINFO | SA_RESTART;
	memset(&ign, 0, sizeof(ign));
	ign.sa_handler = SIG_IGN;
	if (pipe2(pipefd, O_CLOEXEC) < 0)
		lp_die("cannot start '%s': %s", argv[0], strerror(errno));
	sigaction(SIGQUIT, &ign, &old_quit);
	for (k = 0; k < N_STOP; k++)
		sigaction(stop_signals[k], &sa, &old[k]);
	fflush(NULL);
	pid = fork();
	if (pid < 0)
		lp_die("cannot start '%s': %s", argv[0], strerror(errno));
	if (!pid) {
		int e;

		for (k = 0; k < N_STOP; k++)
			sigaction(stop_signals[k], &old[k], NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		close(pipefd[0]);
		execv(path, (char *const *)argv);
		e = errno;
		if (write(pipefd[1], &e, sizeof(e)) < 0)
			_exit(127);
		_exit(e == ENOENT ? 127 : 126);
	}
	close(pipefd[1]);
	child_pid = pid;
	while ((got = read(pipefd[0], &child_errno, sizeof(child_errno))) < 0 &&
	       errno == EINTR)
		;
	close(pipefd[0]);
	*exec_failed = got == (ssize_t)sizeof(child_errno);
	if (*exec_failed)
		lp_error("cannot run '%s': %s", argv[0], strerror(child_errno));
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

/* What the processes of the run left in tmpdir. */
struct gathered {
	struct lp_merge_input *in;      /* the profiles that read whole */
	size_t nr, alloc;
	int started;    /* processes that started the runtime (PID.start) */
	int running;    /* of them, still running */
};

static int cmp_input(const void *a, const void *b)
{
	return strcmp(((const struct lp_merge_input *)a)->path,
		      ((const struct lp_merge_input *)b)->path);
}

/* A mark PID.start or PID-N.start of a process that is still running? */
static int mark_running(const char *name)
{
	long pid = strtol(name, NULL, 10);

	return pid > 0 && !kill((pid_t)pid, 0);
}

/*
 * Lists the profiles in tmpdir, each read through once (a damaged one is
 * skipped, said, rather than failing the merge of the others), and counts
 * the marks.
 */
static void gather(struct gathered *g)
{
	DIR *d = opendir(tmpdir);
	struct dirent *e;

	if (!d)
		lp_die("cannot read '%s': %s", tmpdir, strerror(errno));
	while ((e = readdir(d))) {
		size_t n = strlen(e->d_name);
		struct lp_merge_input x;
		struct lp_diag diag;
		uint64_t total;

		if (n > 6 && !strcmp(e->d_name + n - 6, ".start")) {
			g->started++;
			g->running += mark_running(e->d_name);
		}
		/* temporaries of a writer that was killed are not profiles */
		if (n < 6 || strcmp(e->d_name + n - 6, ".lprof"))
			continue;
		memset(&x, 0, sizeof(x));
		x.path = lp_xstrfmt("%s/%s", tmpdir, e->d_name);
		lp_progress(0, "gathering profiles: %zu read", g->nr);
		if (lp_merge_total(&x, &total, &diag) < 0) {
			lp_warning("skipping a damaged profile: %s", diag.msg);
			free((char *)x.path);
			continue;
		}
		if (g->nr == g->alloc) {
			g->alloc = g->alloc ? 2 * g->alloc : 64;
			g->in = lp_xrealloc(g->in, g->alloc * sizeof(*g->in));
		}
		g->in[g->nr++] = x;
	}
	closedir(d);
	lp_progress_end();
	if (g->nr > 1)
		qsort(g->in, g->nr, sizeof(*g->in), cmp_input);
}

static void gathered_release(struct gathered *g)
{
	size_t i;

	for (i = 0; i < g->nr; i++)
		free((char *)g->in[i].path);
	free(g->in);
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

/*
 * A program that runs with rights its user does not have (set-user-ID
 * or set-group-ID to another user or group) writes no profile of its
 * own accord: the runtime takes no path from such a user.
 */
static int runs_privileged(const char *path)
{
	struct stat st;

	return path && !stat(path, &st) &&
	       (((st.st_mode & S_ISUID) && st.st_uid != geteuid()) ||
		((st.st_mode & S_ISGID) && st.st_gid != getegid()));
}

/* What became of the processes that wrote nothing, said as it happened. */
static void explain_missing(const char *prog, const char *path,
			    const struct gathered *g, int exec_failed,
			    int still)
{
	int files = (int)g->nr;
	int gone = g->started - files - g->running;

	if (exec_failed)
		return;         /* said already, with the kernel's reason */
	if (!files && !g->started && !still) {
		if (runs_privileged(path))
			lp_warning("'%s' is set-user-ID or set-group-ID: it "
				   "runs with rights you do not have and "
				   "writes no profile (run a copy without "
				   "the bit)", prog);
		else
			lp_warning("'%s' wrote no profile; was it built with "
				   "'likelyprof cc'?", prog);
		return;
	}
	if (g->running)
		lp_warning("%d process%s of '%s' still ran when run stopped "
			   "waiting (%s); what %s later is not in the "
			   "profile", g->running, g->running == 1 ? "" : "es",
			   prog, stop_signal ? "the signal" : "--wait",
			   g->running == 1 ? "it writes" : "they write");
	else if (still)
		lp_warning("processes of '%s' still run after %s; what they "
			   "write later is not in the profile", prog,
			   stop_signal ? "the signal" : "--wait");
	if (gone > 0)
		lp_warning("%d of %d instrumented process%s wrote no profile "
			   "(left through _exit or a signal)", gone,
			   g->started, g->started == 1 ? "" : "es");
}

struct run_opts {
	const char *out;
	double wait_secs;
	unsigned flags;         /* LP_MERGE_* */
	const char *label;      /* --label */
	int prog;               /* argv index of the program */
};

/*
 * Merges what was gathered as `merge` does (meta, builds, votes, the
 * count of processes; two builds of one path refused unless @o's flags
 * say otherwise; @o's label), names the program by the path that ran,
 * and writes @out.
 * @return : 0, or -1 (said).
 */
static int write_run_profile(struct gathered *g, const char *out,
			     const char *path, const struct run_opts *o,
			     struct lp_profile *merged)
{
	char *tmp = lp_xstrfmt("%s/merged.out", tmpdir);
	struct lp_diag diag;
	int err;

	err = lp_merge_files(g->in, g->nr, tmp, o->flags, o->label);
	if (!err && lp_profile_read_file(merged, tmp, &diag) < 0)
		err = lp_error("%s", diag.msg);
	free(tmp);
	if (err)
		return -1;
	if (path && lp_profile_set_meta(merged, "program", path) < 0)
		lp_die("out of memory");
	return lp_write_profile_file(merged, out);
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


static void parse_run_args(int argc, const char **argv, struct run_opts *o)
{
	int i;

	for (i = 1; i < argc; i++) {
		const char *v;

		if (!strcmp(argv[i], "--")) {
			i++;
			break;
		}
		if ((v = lp_option_value(argc, argv, &i, "-o", usage_run)) ||
		    (v = lp_option_value(argc, argv, &i, "--output",
					 usage_run))) {
			o->out = v;
		} else if (!strncmp(argv[i], "-o", 2)) {
			o->out = argv[i] + 2;
		} else if (lp_progress_option(argv[i])) {
		} else if (!strcmp(argv[i], "--allow-different-builds")) {
			o->flags |= LP_MERGE_ANY_BUILD;
		} else if ((v = lp_option_value(argc, argv, &i, "--label",
						usage_run))) {
			o->label = lp_label_option(v, usage_run);
		} else if ((v = lp_option_value(argc, argv, &i, "--wait",
						usage_run))) {
			o->wait_secs = (double)lp_parse_count("--wait", v,
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
	if (o->out && !*o->out)
		lp_usage_error(usage_run, "option '-o' needs a file");
	o->prog = i;
}

/* The private folder every process of the run writes its profile in. */
static void make_run_folder(void)
{
	const char *tmp = getenv("TMPDIR");
	char *pattern;

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
}

/* The profile of what was gathered, and run's one line about it. */
static int finish(struct gathered *g, const struct run_opts *o,
		  const char *prog, const char *path, int status)
{
	struct lp_profile merged;

	lp_profile_init(&merged);
	if (write_run_profile(g, o->out, path, o, &merged) < 0) {
		/* what was gathered is not thrown away with the folder */
		lp_warning("the %zu profile%s gathered stay in '%s'", g->nr,
			   lp_plural(g->nr), tmpdir);
		free(tmpdir);
		tmpdir = NULL;
		lp_profile_release(&merged);
		return LP_EXIT_ERROR;
	}
	if (!merged.nr)
		lp_note("no instrumented code ran in the %zu process%s of "
			"'%s'; '%s' is an empty profile", g->nr,
			g->nr == 1 ? "" : "es", prog, o->out);
	else
		summarise(&merged, (int)g->nr, o->out);
	lp_profile_release(&merged);
	return status;
}

int cmd_run(int argc, const char **argv)
{
	struct run_opts o = { NULL, 10, 0, NULL, 0 };
	struct gathered g = { NULL, 0, 0, 0, 0 };
	struct sigaction old[N_STOP];
	const char *prog, *base;
	char *defname = NULL, *path;
	int status, exec_failed = 0, still;
	size_t k;

	if (lp_wants_help(argc, argv)) {
		fputs(usage_run, stdout);
		return LP_EXIT_OK;
	}
	parse_run_args(argc, argv, &o);
	prog = argv[o.prog];
	base = strrchr(prog, '/');
	base = base ? base + 1 : prog;
	if (!o.out)
		o.out = defname = lp_xstrfmt("%s.lprof", base);
	path = resolve_program(prog);
	if (!path) {
		lp_error("cannot run '%s': %s", prog, strerror(errno));
		free(defname);
		return errno == ENOENT ? 127 : 126;
	}
	make_run_folder();
	reserve_static_tls();
	/* orphans of the program (daemons) are handed to us, not to init */
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);

	status = run_program(path, argv + o.prog, old, &exec_failed);
	still = wait_descendants(o.wait_secs);
	for (k = 0; k < N_STOP; k++)
		sigaction(stop_signals[k], &old[k], NULL);

	gather(&g);
	explain_missing(prog, path, &g, exec_failed, still);
	if (g.nr)
		status = finish(&g, &o, prog, path, status);
	gathered_release(&g);
	free(path);
	free(defname);
	return status;
}
