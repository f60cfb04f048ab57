/*
 * timeit.c - run a command, print its wall-clock and CPU time in seconds
 *
 *	timeit OUT ERR PROGRAM [ARGS...]
 *
 * The command's stdout goes to the file OUT and its stderr to ERR; "WALL
 * CPU" goes to stdout.  WALL runs from just before fork to just after the
 * child is reaped, so process start and exit, the profile dumps
 * included; CPU is the child's user plus system time, which a busy
 * machine disturbs less.  Exits with the command's status, or 125 if it
 * could not be run.
 *
 * A helper instead of `date +%s%N` around each run: %N is GNU only, and
 * two extra processes per sample are noise this avoids.  Not hyperfine:
 * it runs each command's samples back to back, where the benchmark wants
 * the variants interleaved, and it is not installed everywhere.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static double seconds(struct timeval tv)
{
	return (double)tv.tv_sec + (double)tv.tv_usec / 1e6;
}

int main(int argc, char **argv)
{
	struct rusage ru;
	double start, wall;
	int status;
	pid_t pid;

	if (argc < 4) {
		fprintf(stderr, "usage: timeit OUT ERR PROGRAM [ARGS...]\n");
		return 125;
	}
	start = now();
	pid = fork();
	if (pid < 0) {
		perror("timeit: fork");
		return 125;
	}
	if (!pid) {
		int out = open(argv[1], O_WRONLY | O_CREAT | O_TRUNC, 0666);
		int err = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0666);

		if (out < 0 || err < 0 || dup2(out, 1) < 0 || dup2(err, 2) < 0)
			_exit(125);
		execvp(argv[3], argv + 3);
		_exit(125);
	}
	if (waitpid(pid, &status, 0) < 0) {
		perror("timeit: waitpid");
		return 125;
	}
	wall = now() - start;
	/* only one child was ever reaped: its usage alone */
	if (getrusage(RUSAGE_CHILDREN, &ru) < 0) {
		perror("timeit: getrusage");
		return 125;
	}
	printf("%.6f %.6f\n", wall,
	       seconds(ru.ru_utime) + seconds(ru.ru_stime));
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return WEXITSTATUS(status);
}
