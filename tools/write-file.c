/*
 * write-file.c - replace a file atomically
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usage.h"
#include "write-file.h"

/* mkstemp makes the file 0600; a profile is as public as its folder. */
static int chmod_default(const char *path)
{
	mode_t mask = umask(0);

	umask(mask);
	return chmod(path, 0666 & ~mask);
}

int lp_write_profile_file(struct lp_profile *p, const char *path)
{
	size_t n = strlen(path);
	struct stat st;
	char *tmp;
	FILE *f;
	int fd, err, e;

	if (!strcmp(path, "-")) {
		if (lp_profile_write(p, stdout) < 0)
			return lp_error("cannot write output: %s",
					strerror(errno));
		return 0;
	}
	/*
	 * /dev/null, a FIFO: written to as they are; a rename would put a
	 * regular file in the device's place.
	 */
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		f = fopen(path, "w");
		if (!f)
			return lp_error("cannot write '%s': %s", path,
					strerror(errno));
		err = lp_profile_write(p, f);
		e = errno;
		if (fclose(f) && !err) {
			err = -1;
			e = errno;
		}
		return err ? lp_error("cannot write '%s': %s", path,
				      strerror(e)) : 0;
	}
	tmp = lp_xmalloc(n + 16);
	memcpy(tmp, path, n);
	memcpy(tmp + n, ".tmp.XXXXXX", 12);
	fd = mkstemp(tmp);
	if (fd < 0) {
		e = errno;
		free(tmp);
		return lp_error("cannot write '%s': %s", path, strerror(e));
	}
	f = fdopen(fd, "w");
	if (!f) {
		e = errno;
		close(fd);
		unlink(tmp);
		free(tmp);
		return lp_error("cannot write '%s': %s", path, strerror(e));
	}
	err = lp_profile_write(p, f);
	e = errno;
	if (fclose(f) && !err) {
		err = -1;
		e = errno;
	}
	if (!err && chmod_default(tmp) < 0) {
		e = errno;
		err = -1;
	}
	if (!err && rename(tmp, path) < 0) {
		e = errno;
		err = -1;
	}
	if (err) {
		unlink(tmp);
		free(tmp);
		return lp_error("cannot write '%s': %s", path, strerror(e));
	}
	free(tmp);
	return 0;
}
