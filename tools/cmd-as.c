/*
 * cmd-as.c - the assembler in front of gcc's, for instrumented units
 *
 * likelyprof cc gives gcc -B<libdir>/likelyprof-as/, whose "as" is a link
 * to this command; main() comes here by that name.  The unit's text is
 * read (the file gcc names, or stdin under -pipe), runs of counting
 * stubs get one counter each (as/group.c), and the real assembler (the
 * next "as" on PATH that is not us, or $LIKELYPROF_AS) assembles the
 * result from a scratch file.  Whatever the pass does not know, or any
 * failure of its own, leaves the text as gcc wrote it: the pass may make
 * a unit cheaper, never break it.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "as/group.h"
#include "builtin.h"
#include "spawn.h"
#include "usage.h"
#include "write-file.h"

/* GNU as options whose value is the next argument */
static const char *const value_opts[] = { "-o", "-I", "--defsym",
	"--debug-prefix-map", "--MD", "-MD", NULL };

static int takes_value(const char *a)
{
	size_t i;

	for (i = 0; value_opts[i]; i++)
		if (!strcmp(a, value_opts[i]))
			return 1;
	return 0;
}

/*
 * The index of the one input in @argv ("-" for stdin), 0 for stdin, -1
 * when there are several, the arguments are not understood, or the
 * assembler is asked for its version or help and reads nothing.
 */
static int find_input(int argc, const char **argv)
{
	int i, input = 0;

	for (i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--"))
			return -1;
		if (takes_value(argv[i])) {
			i++;
			continue;
		}
		if (!strcmp(argv[i], "--version") || !strcmp(argv[i], "-v") ||
		    !strcmp(argv[i], "-version") || !strcmp(argv[i], "--help"))
			return -1;
		if (argv[i][0] == '-' && argv[i][1])
			continue;
		if (input)
			return -1;
		input = i;
	}
	return input;
}

/* The real assembler's argv: ours, with @input (0: appended) as @path. */
static void real_args(struct lp_args *a, const char *as, int argc,
		      const char **argv, int input, const char *path)
{
	int i;

	lp_args_push(a, as);
	for (i = 1; i < argc; i++)
		lp_args_push(a, i == input ? path : argv[i]);
	if (!input)
		lp_args_push(a, path);
}

/* The unit's text as the real assembler gets it, into a scratch file. */
static char *scratch_unit(const char *text, size_t len)
{
	const char *tmpdir = getenv("TMPDIR");
	char *path = lp_xstrfmt("%s/likelyprof-as-XXXXXX.s",
				tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemps(path, 2);

	if (fd < 0) {
		free(path);
		return NULL;
	}
	if (lp_write_all(fd, text, len) || close(fd)) {
		unlink(path);
		free(path);
		return NULL;
	}
	return path;
}

int cmd_as(int argc, const char **argv)
{
	const char *env = getenv("LIKELYPROF_AS");
	char *as = env && *env ? lp_xstrdup(env) : lp_find_program("as");
	char *text = NULL, *grouped = NULL, *path = NULL;
	size_t len = 0, glen = 0;
	struct lp_group_stats stats;
	struct lp_args a = LP_ARGS_INIT;
	int input = find_input(argc, argv), fd, status;

	if (input < 0)
		goto as_it_is;
	fd = input && strcmp(argv[input], "-") ? open(argv[input], O_RDONLY)
					       : 0;
	if (fd < 0)
		goto as_it_is;
	if (lp_read_all(fd, &text, &len) < 0) {
		/* a pipe half read cannot be given back: say so */
		status = lp_error("cannot read the assembler input: %s",
				  strerror(errno));
		goto out;
	}
	if (fd)
		close(fd);
	if (lp_group_asm(text, len, &grouped, &glen, &stats) == 0)
		path = scratch_unit(grouped, glen);
	else if (fd == 0)
		path = scratch_unit(text, len);   /* stdin is used up */
	else
		goto as_it_is;
	if (!path) {
		status = lp_error("cannot write a scratch file: %s",
				  strerror(errno));
		goto out;
	}
	real_args(&a, as, argc, argv, input, path);
	status = lp_run(&a, -1, -1);
	unlink(path);
	goto out;
as_it_is:
	real_args(&a, as, argc, argv, -1, NULL);
	status = lp_run(&a, -1, -1);
out:
	free(a.v);
	free(path);
	free(text);
	free(grouped);
	free(as);
	return status < 0 ? LP_EXIT_ERROR : status;
}
