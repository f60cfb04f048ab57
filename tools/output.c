/*
 * output.c - `-o FILE` for commands that write to standard output
 *
 * The command still writes to stdout; only the descriptor behind it
 * changes, so every format and the stdout check of main.c serve -o as
 * they serve a redirection, and the atomic replace of write-file.c is
 * kept: a temporary file beside FILE, renamed over it at the end.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "output.h"
#include "usage.h"
#include "write-file.h"

static char *out_path, *out_tmp;

/* A command that dies half-way leaves no temporary behind. */
static void remove_tmp(void)
{
	if (out_tmp)
		unlink(out_tmp);
}

void lp_output_to(const char *path)
{
	struct stat st;
	char *real = NULL;
	int fd, special;

	if (!strcmp(path, "-") || out_path)
		return;
	/* -o /dev/stdout into a file: that file, not a new /dev/stdout */
	if (!lstat(path, &st) && S_ISLNK(st.st_mode) &&
	    (real = lp_link_target(path)))
		path = real;
	fflush(stdout);
	fd = -1;
	special = !stat(path, &st) && !S_ISREG(st.st_mode) &&
		  !S_ISDIR(st.st_mode);
	/* a FIFO or a device: written as it is, never replaced */
	if (special)
		fd = lp_open_special(path, &st);
	/* else, or swapped for a regular file since: replaced whole */
	if (!special || (fd < 0 && errno == EEXIST)) {
		fd = lp_tmp_beside(path, &out_tmp);
		if (fd >= 0)
			atexit(remove_tmp);
	}
	if (fd < 0 || dup2(fd, STDOUT_FILENO) < 0)
		lp_die("cannot write '%s': %s", path, strerror(errno));
	close(fd);
	out_path = lp_xstrdup(path);
	free(real);
}

int lp_output_done(int ok)
{
	int ret = 0;

	if (!out_tmp)
		return 0;
	if (ok && rename(out_tmp, out_path) < 0)
		ret = lp_error("cannot write '%s': %s", out_path,
			       strerror(errno));
	if (!ok || ret)
		unlink(out_tmp);
	free(out_tmp);
	out_tmp = NULL;
	return ret;
}

int lp_output_option(int argc, const char **argv, int *i, const char *usage)
{
	const char *v;

	if ((v = lp_option_value(argc, argv, i, "-o", usage)) ||
	    (v = lp_option_value(argc, argv, i, "--output", usage))) {
		lp_output_to(v);
		return 1;
	}
	if (!strncmp(argv[*i], "-o", 2) && argv[*i][2] != '-' &&
	    argv[*i][2]) {
		lp_output_to(argv[*i] + 2);
		return 1;
	}
	return 0;
}
