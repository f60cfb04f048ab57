/*
 * write-file.h - replace a file atomically
 */
#ifndef LP_WRITE_FILE_H
#define LP_WRITE_FILE_H

#include "profile.h"

/*
 * Writes @p to @path ("-" is stdout) through a temporary file in the same
 * folder and a rename, so readers never see half a profile and a failure
 * (a full disk) leaves the old file whole.  Prints its error.
 * @return : 0 or -1.
 */
int lp_write_profile_file(struct lp_profile *p, const char *path);

#endif /* LP_WRITE_FILE_H */
