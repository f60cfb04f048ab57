/*
 * valgrind.c - running helpers: the program under callgrind, and the
 * tools (objdump, the compiler) whose output judge reads
 */
#include <errno.h>
#include <fcntl.h>
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

int lp_judge_capture(const char *const *argv, int quiet, char **out,
		     size_t *len)
{
	return lp_judge_capture_in(NULL, argv, quiet, out, len);
}

int lp_judge_capture_in(const char *dir, const char *const *argv, int quiet,
			char **out, size_t *len)
{
	int fd[2], status;
	size_t cap = 1 << 16, n = 0;
	char *buf;
	pid_t pid;

	if (!(dir && strchr(argv[0], '/')) && !lp_judge_on_path(argv[0]))
		return lp_error("cannot run '%s': not found on PATH", argv[0]);
	if (pipe(fd) < 0)
		return lp_error("pipe: %s", strerror(errno));
	pid = fork();
	if (pid < 0)
		return lp_error("fork: %s", strerror(errno));
	if (!pid) {
		dup2(fd[1], 1);
		close(fd[0]);
		close(fd[1]);
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
	close(fd[1]);
	buf = lp_xmalloc(cap);
	for (;;) {
		ssize_t got;

		if (n + 1 >= cap)
			buf = lp_xrealloc(buf, cap *= 2);
		got = read(fd[0], buf + n, cap - n - 1);
		if (got < 0 && errno == EINTR)
			continue;
		if (got <= 0)
			break;
		n += (size_t)got;
	}
	close(fd[0]);
	buf[n] = '\0';
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			free(buf);
			return lp_error("waitpid: %s", strerror(errno));
		}
	*out = buf;
	if (len)
		*len = n;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128;
}

int lp_judge_valgrind(const char *const *argv, const char *dir, int *status)
{
	/*
	 * --dump-instr gives every instruction its address, so two jumps
	 * on one line stay two; --collect-jumps gives the taken counts;
	 * children are followed, each writing its own file (%p).
	 */
	char *out = lp_xstrfmt("--callgrind-out-file=%s/callgrind.%%p", dir);
	const char *head[] = {
		"valgrind", "--tool=callgrind", "--collect-jumps=yes",
		"--dump-instr=yes", "--trace-children=yes", "--quiet", out,
		"--"
	};
	size_t nhead = sizeof(head) / sizeof(head[0]), n = 0, i;
	const char **av;
	pid_t pid;
	int st;

	if (!lp_judge_on_path("valgrind")) {
		free(out);
		return lp_error("cannot run 'valgrind': not found on PATH "
				"(install the valgrind package)");
	}
	while (argv[n])
		n++;
	av = lp_xcalloc(nhead + n + 1, sizeof(*av));
	for (i = 0; i < nhead; i++)
		av[i] = head[i];
	for (i = 0; i < n; i++)
		av[nhead + i] = argv[i];
	pid = fork();
	if (pid < 0) {
		free(av);
		free(out);
		return lp_error("fork: %s", strerror(errno));
	}
	if (!pid) {
		execvp(av[0], (char *const *)av);
		_exit(127);
	}
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR) {
			free(av);
			free(out);
			return lp_error("waitpid: %s", strerror(errno));
		}
	free(av);
	free(out);
	*status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	return 0;
}

int lp_judge_dwarf5(const char *prog)
{
	const char *argv[] = { "readelf", "--debug-dump=info",
			       "--dwarf-depth=1", prog, NULL };
	char *text = NULL, *p;
	int five = 0;

	if (!lp_judge_on_path("readelf") ||
	    lp_judge_capture(argv, 1, &text, NULL) != 0) {
		free(text);
		return 0;
	}
	/* each unit's header: "   Version:       5" */
	for (p = text; (p = strstr(p, "Version:")); p += 8) {
		const char *v = p + 8;

		while (*v == ' ' || *v == '\t')
			v++;
		if (v[0] == '5' && (v[1] == '\n' || v[1] == '\0'))
			five = 1;
	}
	free(text);
	return five;
}
