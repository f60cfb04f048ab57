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

static char *out_path, *out_tmp, *out_dir;

/* "-o DIR/", or a folder that is there: the page and its source views */
static int is_folder(const char *path)
{
	size_t n = strlen(path);
	struct stat st;

	return (n && path[n - 1] == '/') ||
		(!stat(path, &st) && S_ISDIR(st.st_mode));
}

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
	if (is_folder(path)) {
		size_t n = strlen(path);

		/* whether a folder serves is known once the format is */
		free(out_dir);
		out_dir = lp_xstrdup(path);
		while (n > 1 && out_dir[n - 1] == '/')
			out_dir[--n] = '\0';
		return;
	}
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

const char *lp_output_folder(int pages, const char *usage)
{
	char *index;

	if (!out_dir)
		return NULL;
	if (!pages)
		lp_usage_error(usage, "-o '%s': a folder is written for "
			       "--format html only", out_dir);
	if (mkdir(out_dir, 0777) < 0 && errno != EEXIST)
		lp_die("cannot make '%s': %s", out_dir, strerror(errno));
	index = lp_xmalloc(strlen(out_dir) + sizeof("/index.html"));
	strcpy(index, out_dir);
	strcat(index, "/index.html");
	lp_output_to(index);
	free(index);
	return out_dir;
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
