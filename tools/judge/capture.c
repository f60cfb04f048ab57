/*
 * capture.c - the output of the tools judge reads (objdump, the
 * compiler's preprocessor), one at a time or several at once
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/judge.h"
#include "spawn.h"
#include "usage.h"

/* Is @name an executable on PATH (or a path that is one)? */
int lp_judge_on_path(const char *name)
{
	const char *path = getenv("PATH");
	char *found;
	int ok;

	if (strchr(name, '/'))
		return access(name, X_OK) == 0;
	if (!path)
		path = "/usr/bin:/bin";
	if (!*path)
		return 0;
	found = lp_path_search(path, name, lp_path_executable, NULL);
	ok = found != NULL;
	free(found);
	return ok;
}

/*
 * Starts @argv in @dir with its stdout (or, with LP_CAPTURE_ERRORS, its
 * stderr) on the pipe whose reading end goes to *@fd.  The child's
 * pid, or -1 (said).
 */
static pid_t start_capture(const char *dir, const char *const *argv,
			   int quiet, int *fd)
{
	int p[2];
	pid_t pid;

	if (!(dir && strchr(argv[0], '/')) && !lp_judge_on_path(argv[0]))
		return lp_error("cannot run '%s': not found on PATH", argv[0]);
	if (pipe(p) < 0)
		return lp_error("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0) {
		close(p[0]);
		close(p[1]);
		return lp_error("fork: %s", strerror(errno));
	}
	if (!pid) {
		dup2(p[1], 1);
		close(p[0]);
		close(p[1]);
		if (quiet) {
			int null = open("/dev/null", O_WRONLY);

			if (quiet == LP_CAPTURE_ERRORS)
				dup2(1, 2);
			if (null >= 0)
				dup2(null, quiet == LP_CAPTURE_ERRORS ? 1 : 2);
		}
		if (dir && chdir(dir) < 0)
			_exit(127);
		execvp(argv[0], (char *const *)argv);
		_exit(127);
	}
	close(p[1]);
	*fd = p[0];
	return pid;
}

/*
 * Reads what is there on @c's pipe into its buffer: 1 while more may
 * come, 0 at its end.
 */
static int read_some(struct lp_capture *c)
{
	ssize_t got;

	if (c->len + 1 >= c->cap_)
		c->out = lp_xrealloc(c->out, c->cap_ = c->cap_ ? c->cap_ * 2 :
				     1 << 16);
	got = read(c->fd_, c->out + c->len, c->cap_ - c->len - 1);
	if (got < 0 && errno == EINTR)
		return 1;
	if (got <= 0)
		return 0;
	c->len += (size_t)got;
	return 1;
}

/* Closes @c's pipe and waits for its command: its status in c->status. */
static int finish(struct lp_capture *c)
{
	int status;

	close(c->fd_);
	c->fd_ = -1;
	if (!c->out)
		c->out = lp_xcalloc(1, 1);
	c->out[c->len] = '\0';
	while (waitpid(c->pid_, &status, 0) < 0)
		if (errno != EINTR)
			return lp_error("waitpid: %s", strerror(errno));
	c->status = WIFEXITED(status) ? WEXITSTATUS(status) : 128;
	return 0;
}

int lp_judge_capture_in(const char *dir, const char *const *argv, int quiet,
			char **out, size_t *len)
{
	struct lp_capture c;

	memset(&c, 0, sizeof(c));
	c.dir = dir;
	c.argv = argv;
	c.quiet = quiet;
	if ((c.pid_ = start_capture(dir, argv, quiet, &c.fd_)) < 0)
		return -1;
	while (read_some(&c))
		;
	if (finish(&c) < 0) {
		free(c.out);
		return -1;
	}
	*out = c.out;
	if (len)
		*len = c.len;
	return c.status;
}

int lp_judge_capture(const char *const *argv, int quiet, char **out,
		     size_t *len)
{
	return lp_judge_capture_in(NULL, argv, quiet, out, len);
}

/* How many tools run at once: as many as there are processors. */
static size_t pool_size(size_t n)
{
	long cpus = sysconf(_SC_NPROCESSORS_ONLN);
	size_t k = cpus > 0 ? (size_t)cpus : 1;

	return k < n ? k : n;
}

/*
 * Reads every running capture's pipe until one of them ends, and
 * finishes it.  -1 (said) when poll or wait fails.
 */
static int wait_one(struct lp_capture *c, size_t from, size_t to)
{
	struct pollfd *pfd = lp_xcalloc(to - from, sizeof(*pfd));
	size_t i, n;
	int ret = 1;

	while (ret > 0) {
		for (i = from, n = 0; i < to; i++)
			if (c[i].fd_ >= 0) {
				pfd[n].fd = c[i].fd_;
				pfd[n++].events = POLLIN;
			}
		if (!n)
			break;
		if (poll(pfd, n, -1) < 0) {
			if (errno == EINTR)
				continue;
			ret = lp_error("poll: %s", strerror(errno));
			break;
		}
		for (i = from, n = 0; i < to; i++) {
			if (c[i].fd_ < 0)
				continue;
			if (pfd[n++].revents && !read_some(&c[i]))
				ret = finish(&c[i]) < 0 ? -1 : 0;
		}
	}
	free(pfd);
	return ret < 0 ? -1 : 0;
}

int lp_judge_capture_all(struct lp_capture *c, size_t n,
			 int (*done)(struct lp_capture *c, void *ctx),
			 void *ctx)
{
	size_t k = pool_size(n), next = 0, started = 0, i;
	int ret = 0;

	for (i = 0; i < n; i++) {
		c[i].fd_ = -1;
		c[i].pid_ = 0;
		c[i].status = -1;
	}
	while (!ret && next < n) {
		/* start up to k beyond the first one not yet handed over */
		while (started < n && started < next + k) {
			c[started].pid_ = start_capture(c[started].dir,
							c[started].argv,
							c[started].quiet,
							&c[started].fd_);
			if (c[started].pid_ < 0)
				c[started].pid_ = 0;
			started++;
		}
		if (c[next].pid_ && c[next].fd_ >= 0 &&
		    wait_one(c, next, started) < 0)
			ret = -1;
		/* hand over, in order, each that has ended */
		while (!ret && next < started && c[next].fd_ < 0) {
			ret = done(&c[next], ctx);
			free(c[next].out);
			c[next].out = NULL;
			next++;
		}
	}
	/* on an error, leave no child behind, nor wait for one to end */
	for (i = next; i < started; i++) {
		if (c[i].fd_ >= 0) {
			kill(c[i].pid_, SIGTERM);
			finish(&c[i]);
		}
		free(c[i].out);
		c[i].out = NULL;
	}
	return ret;
}

/*
 * Says why unit @path does not preprocess: the compiler's first error
 * (a header not found, usually), and what judge needs to be given.
 */
void lp_judge_why_not(const char *path, const char *dir,
		      const char *const *argv)
{
	char *err = NULL, *line, *nl;
	int st = lp_judge_capture_in(dir, argv, LP_CAPTURE_ERRORS, &err, NULL);

	line = err && st >= 0 ? strstr(err, "error") : NULL;
	while (line && line > err && line[-1] != '\n')
		line--;
	if (line && (nl = strchr(line, '\n')))
		*nl = '\0';
	lp_warning("'%s' does not preprocess with '%s'%s%s; its hints are not "
		   "judged (%s)", path, argv[0], line ? ": " : "",
		   line ? line : "", dir ? "its command of the compilation "
		   "database fails here" : "give the folders of its headers "
		   "with -I, its macros with -D, or the build's "
		   "compile_commands.json with --compile-commands");
	free(err);
}
