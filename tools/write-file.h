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
