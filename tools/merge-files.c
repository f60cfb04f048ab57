/*
 * merge-files.c - merge profile files into one file, any number of them
 *
 * lib/profile/merge.c merges sorted profiles in one pass; this merges more than
 * FANIN of them as a tree of temporary files, so that no more than FANIN
 * are open at once, and replaces OUT atomically: a reader never sees half
 * a profile, and a failed merge leaves the old OUT as it was.  `merge`
 * and `run` both write their profiles through it.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "merge-files.h"
#include "progress.h"
#include "usage.h"
#include "write-file.h"

/*
 * At most this many inputs are open at once: the default `ulimit -n` is
 * 1024, and a wider merge gains little, as each step costs log2 of it.
 */
#define FANIN 256

/*-************************************
 *  Merging
 **************************************/
struct job {
	struct lp_merge_input *in;
	size_t n;
	unsigned flags;
	const char *label;      /* replaces the inputs' labels, or NULL */
};

void lp_merge_print_diag(const struct lp_diag *diag, int err)
{
	if (err == -LP_ENOMEM)
		lp_die("out of memory");
	lp_error("%s", diag->msg);
}

/* A lp_write_fn: merges a job into @f, starting over if need be. */
static int merge_job(FILE *f, void *ctx)
{
	const struct job *job = ctx;
	struct lp_diag diag;
	size_t bufsize = ((size_t)4 << 20) / job->n;
	int err;

	/* big reads for few inputs, little memory for many */
	if (bufsize < ((size_t)16 << 10))
		bufsize = (size_t)16 << 10;
	if (bufsize > ((size_t)1 << 20))
		bufsize = (size_t)1 << 20;
	while ((err = lp_merge_write(f, job->in, job->n, NULL, bufsize,
				     job->flags, job->label, &diag)) ==
	       LP_MERGE_AGAIN) {
		if (fflush(f) || fseeko(f, 0, SEEK_SET) ||
		    ftruncate(fileno(f), 0))
			return -1;
	}
	if (err == -LP_EIO && !diag.msg[0])
		return -1;      /* writing failed: errno says why */
	if (err < 0) {
		lp_merge_print_diag(&diag, err);
		return -2;
	}
	return 0;
}

/* The folder of @out, where the partial merges go. */
static char *temp_folder(const char *out)
{
	const char *slash = strrchr(out, '/');
	const char *t = getenv("TMPDIR");

	if (!strcmp(out, "-"))
		return lp_xstrdup(t && *t ? t : "/tmp");
	if (!slash)
		return lp_xstrdup(".");
	return lp_xstrfmt("%.*s", (int)(slash - out + (slash == out)), out);
}

static void remove_temps(struct lp_merge_input *in, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		unlink(in[i].path);
		free((char *)in[i].path);
	}
	free(in);
}

/*
 * Merges @n inputs, FANIN at a time, each group into a temporary file
 * of @dir; returns the temporary files (@*n of them), or NULL (printed).
 */
static struct lp_merge_input *merge_groups(struct lp_merge_input *in,
					   size_t *n, const char *dir,
					   unsigned flags)
{
	size_t groups = (*n + FANIN - 1) / FANIN, g;
	struct lp_merge_input *t = lp_xcalloc(groups, sizeof(*t));

	for (g = 0; g < groups; g++) {
		struct job job = { in + g * FANIN, FANIN, flags, NULL };
		char *path = lp_xstrfmt("%s/.likelyprof-merge.XXXXXX", dir);
		int fd = mkstemp(path);
		FILE *f = fd < 0 ? NULL : fdopen(fd, "w+");
		int err;

		if (g == groups - 1)
			job.n = *n - g * FANIN;
		lp_progress(0, "merging group %zu of %zu (%zu inputs)", g + 1,
			    groups, job.n);
		t[g].path = path;
		if (!f) {
			lp_error("cannot write '%s': %s", path,
				 strerror(errno));
			if (fd >= 0)
				close(fd);
			remove_temps(t, g + 1);
			return NULL;
		}
		err = merge_job(f, &job);
		if (err == -1)
			lp_error("cannot write '%s': %s", path,
				 strerror(errno));
		if (fclose(f) && !err) {
			err = -1;
			lp_error("cannot write '%s': %s", path,
				 strerror(errno));
		}
		if (err) {
			remove_temps(t, g + 1);
			return NULL;
		}
	}
	*n = groups;
	return t;
}

/* Big inputs are worth a sign of life before the one long pass. */
static int inputs_big(const struct lp_merge_input *in, size_t n)
{
	unsigned long long bytes = 0;
	size_t i;

	for (i = 0; i < n && !lp_progress_big(bytes); i++)
		bytes += lp_progress_file_size(in[i].path);
	return lp_progress_big(bytes);
}

int lp_merge_files(struct lp_merge_input *in, size_t n, const char *out,
		   unsigned flags, const char *label)
{
	struct job job = { in, n, flags, label };
	struct lp_merge_input *temps = NULL;
	char *dir = temp_folder(out);
	int err;

	while (job.n > FANIN) {
		size_t groups = job.n;
		struct lp_merge_input *next = merge_groups(job.in, &groups,
							   dir, flags);

		/* the level before is summed up in the new one */
		if (temps)
			remove_temps(temps, job.n);
		if (!next) {
			free(dir);
			return -1;
		}
		temps = job.in = next;
		job.n = groups;
	}
	lp_progress(inputs_big(in, n), "merging %zu input%s into %s", job.n,
		    lp_plural(job.n), out);
	err = lp_write_file_with(out, merge_job, &job, 1);
	lp_progress_end();
	if (temps)
		remove_temps(temps, job.n);
	free(dir);
	return err;
}

