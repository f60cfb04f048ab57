/*
 * valgrind.c - the program under callgrind
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "judge/judge.h"
#include "spawn.h"
#include "usage.h"

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
