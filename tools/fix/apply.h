/*
 * apply.h - write fix's edits into the tree, all of them or none
 * (tools/fix/apply.c; `likelyprof fix --apply`)
 */
#ifndef LP_FIX_APPLY_H
#define LP_FIX_APPLY_H

#include <stddef.h>
#include <sys/types.h>

#include "fix/locate.h"

/* One file to replace: what it was (@file, as read) and its new @text. */
struct lp_apply_file {
	struct lp_srcfile *file;
	char *text;
	size_t len;
	/* lp_apply_edits()'s own, NULL/0 before it runs */
	char *path, *tmp, *back;
	int old_fd;             /* the file as read, held to see late edits */
	ino_t new_ino;          /* the inode of tmp, once it is the file */
	int renamed;
};

/*! lp_apply_edits() :
 *  Replaces each of the @n files under @root with its text, or none of
 *  them.  A file that is read-only, or another `fix --apply` writing in
 *  its folder, stops everything before anything is written; a file that
 *  changed since it was read, before or while the renames ran, puts every
 *  file back as it was, the late edit included.  A file with several
 *  hard links gets a new inode under its name (the other names keep the
 *  old text), said in a note.  Prints its errors (lp_error).
 *  @return : 0, or -1 with every file as it was.
 */
int lp_apply_edits(const char *root, struct lp_apply_file *p, size_t n);

#endif /* LP_FIX_APPLY_H */
