/*
 * progress.c - signs of life on stderr (see progress.h)
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "progress.h"

/* A file this big takes a second or more to read, merge or write. */
#define LP_PROGRESS_BIG_BYTES (64ull << 20)

static struct {
	int enabled, tty, started, shown;
	double delay, first, last;
} pg;

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void lp_progress_setup(int forced)
{
	const char *d = getenv("LIKELYPROF_PROGRESS_DELAY");
	char *end;

	pg.tty = isatty(2);
	pg.enabled = forced || pg.tty;
	pg.delay = 2;
	if (d && *d) {
		double v = strtod(d, &end);

		if (!*end && v >= 0)
			pg.delay = v;
	}
}

int lp_progress_big(unsigned long long bytes)
{
	return bytes >= LP_PROGRESS_BIG_BYTES;
}

void lp_progress(int big, const char *fmt, ...)
{
	double t;
	va_list ap;

	if (!pg.enabled)
		return;
	t = now();
	if (!pg.started) {
		pg.started = 1;
		pg.first = t;
	}
	if (!big && t - pg.first < pg.delay)
		return;
	/* a terminal's line follows the work; a log gets a line a second */
	if (pg.shown && !big &&
	    t - pg.last < (pg.tty ? 0.1 : 1.0) * (pg.delay < 1 ? pg.delay : 1))
		return;
	pg.last = t;
	fputs(pg.tty ? "\rlikelyprof: " : "likelyprof: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs(pg.tty ? "\033[K" : "\n", stderr);
	fflush(stderr);
	pg.shown = 1;
}

void lp_progress_end(void)
{
	if (pg.shown && pg.tty) {
		fputs("\r\033[K", stderr);
		fflush(stderr);
	}
	pg.shown = 0;
}

int lp_progress_option(const char *arg)
{
	if (strcmp(arg, "--progress"))
		return 0;
	lp_progress_setup(1);
	return 1;
}

unsigned long long lp_progress_file_size(const char *path)
{
	struct stat st;

	return strcmp(path, "-") && stat(path, &st) == 0 ?
	       (unsigned long long)st.st_size : 0;
}
