/*
 * spawn.c - running other programs, and finding them and ourselves
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "spawn.h"
#include "usage.h"

void lp_args_push(struct lp_args *a, const char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 32;
		a->v = lp_xrealloc(a->v, a->alloc * sizeof(*a->v));
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

void lp_args_append(struct lp_args *a, const struct lp_args *b)
{
	size_t i;

	for (i = 0; i < b->n; i++)
		lp_args_push(a, b->v[i]);
}

void lp_args_release_owned(struct lp_args *a)
{
	size_t i;

	for (i = 0; i < a->n; i++)
		free((char *)a->v[i]);
	free(a->v);
	a->v = NULL;
	a->n = a->alloc = 0;
}


/* The running executable's path; the caller frees it. */
char *lp_self_path(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);

	if (n <= 0)
		return lp_xstrdup("./likelyprof");
	path[n] = '\0';
	return lp_xstrdup(path);
}

/* True when @path is this very executable, by any name or link. */
int lp_is_self(const char *path)
{
	struct stat a, b;

	return stat(path, &a) == 0 && stat("/proc/self/exe", &b) == 0 &&
	       a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

/*
 * @name as execvp would find it, but skipping any PATH entry that is this
 * executable (a folder of compiler-named links to likelyprof, as ccache
 * has): the caller frees the result, @name itself when nothing else is
 * found.
 */
char *lp_path_search(const char *path, const char *name,
		     int (*accept)(const char *cand, void *ctx), void *ctx)
{
	const char *p, *end;

	for (p = path; ; p = end + 1) {
		char *cand;

		end = strchrnul(p, ':');
		cand = lp_xstrfmt("%.*s/%s", end == p ? 1 : (int)(end - p),
				  end == p ? "." : p, name);
		if (accept(cand, ctx))
			return cand;
		free(cand);
		if (!*end)
			return NULL;
	}
}

int lp_path_executable(const char *cand, void *ctx)
{
	(void)ctx;
	return access(cand, X_OK) == 0;
}

/* An executable; *@ctx counts those that are likelyprof itself, passed. */
static int executable_not_self(const char *cand, void *ctx)
{
	int *skipped = ctx;

	if (!lp_path_executable(cand, NULL))
		return 0;
	if (!lp_is_self(cand))
		return 1;
	++*skipped;
	return 0;
}

char *lp_find_program(const char *name)
{
	const char *path = getenv("PATH");
	int skipped = 0;
	char *found;

	if (strchr(name, '/') || !path || !*path)
		return lp_xstrdup(name);
	found = lp_path_search(path, name, executable_not_self, &skipped);
	/* what execvp finds first: keep the name as given */
	if (found && !skipped) {
		free(found);
		found = NULL;
	}
	return found ? found : lp_xstrdup(name);
}

/* Waits for @pid; its exit status, 128 + signal, or -1 with a message. */
static int wait_status(pid_t pid, const char *name)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			return lp_error("cannot wait for '%s': %s", name,
					strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LP_EXIT_ERROR;
}

/*
 * Runs @a with stdout and stderr to @out_fd and @err_fd (-1: inherited);
 * its exit status, 127 when it cannot be started.
 */
int lp_run(const struct lp_args *a, int out_fd, int err_fd)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		lp_error("cannot start '%s': %s", a->v[0], strerror(errno));
		return LP_EXIT_ERROR;
	}
	if (!pid) {
		if ((out_fd >= 0 && dup2(out_fd, 1) < 0) ||
		    (err_fd >= 0 && dup2(err_fd, 2) < 0))
			_exit(127);
		execvp(a->v[0], (char *const *)a->v);
		fprintf(stderr, "likelyprof: cannot run '%s': %s\n", a->v[0],
			strerror(errno));
		_exit(127);
	}
	return wait_status(pid, a->v[0]);
}

