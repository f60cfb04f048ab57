/*
 * write-file.c - replace a file atomically
 */
#include <errno.h>
#include <limits.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "usage.h"
#include "write-file.h"

/* mkstemp makes the file 0600; a profile is as public as its folder. */
int lp_tmp_beside(const char *path, char **tmp)
{
	mode_t mask = umask(0);
	int fd;

	umask(mask);
	*tmp = lp_xstrfmt("%s.tmp.XXXXXX", path);
	fd = mkstemp(*tmp);
	/* mkstemp's 0600 would make a private file of a public one */
	if (fd >= 0 && fchmod(fd, 0666 & ~mask) < 0) {
		int e = errno;

		close(fd);
		unlink(*tmp);
		errno = e;
		fd = -1;
	}
	if (fd < 0) {
		free(*tmp);
		*tmp = NULL;
	}
	return fd;
}

/* Copies what @from holds, from its start, to @to; 0 or -1 (errno). */
static int copy_stream(FILE *from, FILE *to)
{
	char buf[1 << 16];
	size_t n;

	if (fflush(from) || fseeko(from, 0, SEEK_SET))
		return -1;
	while ((n = fread(buf, 1, sizeof(buf), from)))
		if (fwrite(buf, 1, n, to) != n)
			return -1;
	return ferror(from) || fflush(to) || ferror(to) ? -1 : 0;
}

/*
 * Standard output and devices are written to as they are (a rename would
 * put a regular file in a device's place); a writer that may start over
 * writes a temporary file first, which is then copied.
 */
static int write_stream(const char *path, FILE *f, lp_write_fn fn, void *ctx,
			int restart)
{
	FILE *tmp = restart ? tmpfile() : f;
	int err, e;

	if (!tmp)
		return lp_error("cannot write '%s': %s", path,
				strerror(errno));
	err = fn(tmp, ctx);
	e = errno;
	if (!err && restart && copy_stream(tmp, f) < 0) {
		err = -1;
		e = errno;
	}
	if (restart)
		fclose(tmp);
	if (err == -1)
		return lp_error("cannot write %s%s%s: %s",
				f == stdout ? "" : "'",
				f == stdout ? "output" : path,
				f == stdout ? "" : "'", strerror(e));
	return err ? -1 : 0;
}

int lp_open_special(const char *path, const struct stat *was)
{
	struct stat now;
	int fd = open(path, O_WRONLY | O_NOCTTY | O_CLOEXEC);

	if (fd < 0)
		return -1;
	if (fstat(fd, &now) < 0 || S_ISREG(now.st_mode) ||
	    now.st_ino != was->st_ino || now.st_dev != was->st_dev) {
		close(fd);
		errno = EEXIST;
		return -1;
	}
	return fd;
}

/* lp_open_special() as a stream. */
static FILE *open_special(const char *path, const struct stat *was)
{
	FILE *f;
	int fd = lp_open_special(path, was);

	if (fd < 0)
		return NULL;
	f = fdopen(fd, "w");
	if (!f)
		close(fd);
	return f;
}

/*
 * Writes a new file beside @path and renames it over @path, so that a
 * reader never sees half of it and a failure leaves the old one; @shown
 * is the name the user gave, for messages.
 */
static int replace_file(const char *path, const char *shown, lp_write_fn fn,
			void *ctx)
{
	char *tmp;
	FILE *f;
	int fd, err, e;

	fd = lp_tmp_beside(path, &tmp);
	f = fd < 0 ? NULL : fdopen(fd, "w+");
	if (!f) {
		e = errno;
		if (fd >= 0) {
			close(fd);
			unlink(tmp);
		}
		free(tmp);
		return lp_error("cannot write '%s': %s", shown, strerror(e));
	}
	err = fn(f, ctx);
	e = errno;
	if (fclose(f) && !err) {
		err = -1;
		e = errno;
	}
	if (!err && rename(tmp, path) < 0) {
		e = errno;
		err = -1;
	}
	if (err)
		unlink(tmp);
	free(tmp);
	if (err == -1)
		return lp_error("cannot write '%s': %s", shown, strerror(e));
	return err ? -1 : 0;
}

/*
 * Where the link @path leads: the resolved path, or for a link to a file
 * that does not exist yet, its target read as open(O_CREAT) would take
 * it; NULL when neither is known.  The caller frees it.
 */
char *lp_link_target(const char *path)
{
	char *real = realpath(path, NULL), buf[PATH_MAX];
	const char *slash = strrchr(path, '/');
	ssize_t n;

	if (real || errno != ENOENT)
		return real;
	n = readlink(path, buf, sizeof(buf) - 1);
	if (n <= 0)
		return NULL;
	buf[n] = '\0';
	if (buf[0] == '/' || !slash)
		return lp_xstrdup(buf);
	return lp_xstrfmt("%.*s%s", (int)(slash - path + 1), path, buf);
}

int lp_write_file_with(const char *path, lp_write_fn fn, void *ctx,
		       int restart)
{
	struct stat st;
	char *real = NULL;
	FILE *f = NULL;
	int err;

	if (!strcmp(path, "-"))
		return write_stream(path, stdout, fn, ctx, restart);
	if (stat(path, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		f = open_special(path, &st);
		if (!f && errno != EEXIST)
			return lp_error("cannot write '%s': %s", path,
					strerror(errno));
	}
	if (f) {
		err = write_stream(path, f, fn, ctx, restart);
		if (fclose(f) && !err)
			return lp_error("cannot write '%s': %s", path,
					strerror(errno));
		return err;
	}
	/*
	 * A link the user named (-o /dev/stdout redirected to a file, a
	 * profile kept elsewhere) is followed as every tool follows it: the
	 * file it leads to is replaced, and the link stays.  Replacing the
	 * link itself would put a file where /dev/stdout was.
	 */
	if (lstat(path, &st) == 0 && S_ISLNK(st.st_mode))
		real = lp_link_target(path);
	err = replace_file(real ? real : path, path, fn, ctx);
	free(real);
	return err;
}

static int write_profile(FILE *f, void *ctx)
{
	return lp_profile_write(ctx, f) < 0 ? -1 : 0;
}

int lp_write_profile_file(struct lp_profile *p, const char *path)
{
	return lp_write_file_with(path, write_profile, p, 0);
}

int lp_write_all(int fd, const char *buf, size_t len)
{
	while (len) {
		ssize_t n = write(fd, buf, len);

		if (n < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		buf += n;
		len -= (size_t)n;
	}
	return 0;
}

int lp_read_all(int fd, char **text, size_t *len)
{
	size_t cap = 1 << 16;
	ssize_t n;

	*text = lp_xmalloc(cap);
	*len = 0;
	for (;;) {
		/* one byte kept for the NUL */
		if (*len + 1 == cap) {
			cap *= 2;
			*text = lp_xrealloc(*text, cap);
		}
		n = read(fd, *text + *len, cap - 1 - *len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(*text);
			*text = NULL;
			return -1;
		}
		if (n == 0) {
			(*text)[*len] = '\0';
			return 0;
		}
		*len += (size_t)n;
	}
}
