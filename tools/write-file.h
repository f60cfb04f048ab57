/*
 * write-file.h - replace a file atomically; read and write whole buffers
 */
#ifndef LP_WRITE_FILE_H
#define LP_WRITE_FILE_H

#include <stdio.h>

#include "profile.h"

/*
 * Writes what it has to @f: 0, -1 for an I/O error (errno set), or -2
 * for an error it printed itself.
 */
typedef int (*lp_write_fn)(FILE *f, void *ctx);

/*
 * Writes @path ("-" is stdout) with @fn through a temporary file in the
 * same folder and a rename, so readers never see half a file and a
 * failure (a full disk) leaves the old file whole.  With @restart, @fn
 * may rewind and truncate @f to start over: standard output and devices
 * are then written through an anonymous temporary file.  Prints its
 * error.
 * @return : 0 or -1.
 */
int lp_write_file_with(const char *path, lp_write_fn fn, void *ctx,
		       int restart);

/*
 * Where the symbolic link @path leads, to be replaced in its stead (a
 * link named as an output stays a link): the resolved path, or for a
 * link to a file that does not exist yet, its target; NULL when neither
 * is known.  The caller frees it.
 */
char *lp_link_target(const char *path);

/*
 * Opens the FIFO or device @path that stat() saw as @was, for writing.
 * Nothing is truncated: if the name now leads to a regular file (swapped
 * since the stat), that file is left to the atomic replace.
 * @return : the descriptor; or -1 with errno EEXIST for a regular file
 *           now, or another errno.
 */
struct stat;
int lp_open_special(const char *path, const struct stat *was);

/*
 * Creates "@path.tmp.XXXXXX" beside @path, with the mode a new file gets
 * (0666 less the umask), into *@tmp (the caller frees it).
 * @return : its descriptor, or -1 (errno set, *@tmp NULL).
 */
int lp_tmp_beside(const char *path, char **tmp);

/* Writes all @len bytes of @buf to @fd: 0, or -1 (errno set). */
int lp_write_all(int fd, const char *buf, size_t len);

/*
 * Reads @fd to its end into *@text (malloc'd, NUL-terminated past *@len
 * bytes; the caller frees it): 0, or -1 (errno set, *@text NULL).
 */
int lp_read_all(int fd, char **text, size_t *len);

/* lp_write_file_with() of lp_profile_write(@p). */
int lp_write_profile_file(struct lp_profile *p, const char *path);

#endif /* LP_WRITE_FILE_H */
