/*
 * series.h - a patch series in mbox form, as git format-patch writes it
 *
 * fix hands its changes to the programmer the way Steven Rostedt handed
 * his to the kernel: one patch per subsystem, each saying what the
 * profile showed, ready for `git am`.  Diffs are unified with three lines
 * of context and git's hunk headers; a patch that touches a CRLF file is
 * sent quoted-printable, because git am strips a bare CR at the end of a
 * mail line but keeps an encoded one.
 */
#ifndef LP_FIX_SERIES_H
#define LP_FIX_SERIES_H

#include <stdio.h>

#include "fix/rewrite.h"

/* One file of a patch: its text and the edits to make. */
struct lp_patch_file {
	const char *path;       /* relative to the tree, '/'-separated */
	const char *buf;
	size_t len;
	struct lp_edits *edits;
};

struct lp_patch {
	char *subject;          /* without "[PATCH n/m] " */
	char *body;             /* the message, lines ending in '\n' */
	struct lp_patch_file *files;
	size_t nfiles;
};

/*! lp_write_diff() :
 *  Writes the git diff of one file ("diff --git" to the last hunk).
 *  @return : the number of lines added, and in *@del those removed.
 */
size_t lp_write_diff(FILE *out, const struct lp_patch_file *f, size_t *del);

/*! lp_write_series() :
 *  Writes @n patches as an mbox.  @author: "Name <email>"; @date: the
 *  seconds since 1970 for the Date: header.
 *  @return : 0, or -1 when @out reports an error.
 */
int lp_write_series(FILE *out, const struct lp_patch *p, size_t n,
		    const char *author, long long date);

/*! lp_git_output() :
 *  Runs git -C @dir with @args (NULL-terminated, no shell) and returns
 *  its standard output, or NULL when it fails.  The caller frees it.
 */
char *lp_git_output(const char *dir, const char *const *args);

/*! lp_subsystem() :
 *  The prefix for patches to @rel: the commonest "prefix:" of the
 *  subjects in the file's git history when @dir is a git work tree
 *  (mm, sched, fs), else its top folder ("kernel" for kernel/sched.c),
 *  or its name without extension when it has no folder.
 */
char *lp_subsystem(const char *dir, const char *rel, int git);

/*! lp_wrap() :
 *  @text's words filled into lines of at most @width columns.
 */
char *lp_wrap(const char *text, size_t width);

#endif /* LP_FIX_SERIES_H */
