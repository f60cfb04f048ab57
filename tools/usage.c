/*
 * usage.c - messages, exits and allocation for the command
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "progress.h"
#include "usage.h"

LP_PRINTF(2, 0)
static void vreport(const char *prefix, const char *fmt, va_list ap)
{
	/* a message never lands on the end of a progress line */
	lp_progress_end();
	fflush(stdout);
	fputs("likelyprof: ", stderr);
	fputs(prefix, stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

void lp_die(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	exit(LP_EXIT_ERROR);
}

int lp_error(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	return -1;
}

void lp_warning(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("warning: ", fmt, ap);
	va_end(ap);
}

void lp_note(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("note: ", fmt, ap);
	va_end(ap);
}

void lp_bug(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("BUG: ", fmt, ap);
	va_end(ap);
	abort();
}

/*
 * A usage error shows the synopsis and where the rest is, as git does:
 * the whole text would bury the one line that says what was wrong.
 * @usage starts "usage: likelyprof CMD ...", and its synopsis ends at
 * the first empty line.
 */
static void print_usage_line(const char *usage)
{
	const char *end = strstr(usage, "\n\n"), *cmd, *cmd_end;

	if (!*usage)
		return;
	if (!end)
		end = usage + strlen(usage);
	fprintf(stderr, "%.*s\n", (int)(end - usage), usage);
	cmd = strstr(usage, "likelyprof ");
	if (!cmd || cmd > end)
		return;
	cmd += strlen("likelyprof ");
	cmd_end = cmd + strcspn(cmd, " \n");
	fprintf(stderr, "Try 'likelyprof %.*s --help' for more.\n",
		(int)(cmd_end - cmd), cmd);
}

void lp_usage_error(const char *usage, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vreport("", fmt, ap);
	va_end(ap);
	print_usage_line(usage);
	exit(LP_EXIT_ERROR);
}

int lp_wants_help(int argc, const char **argv)
{
	return argc > 1 &&
	       (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help"));
}

void *lp_xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);

	if (!p)
		lp_die("out of memory (%zu bytes)", n);
	return p;
}

void *lp_xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);

	if (!p)
		lp_die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *lp_xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		lp_die("out of memory (%zu bytes)", n);
	return p;
}

char *lp_xstrdup(const char *s)
{
	char *d = strdup(s);

	if (!d)
		lp_die("out of memory");
	return d;
}

char *lp_xstrfmt(const char *fmt, ...)
{
	va_list ap;
	char *s;
	int n;

	va_start(ap, fmt);
	n = vasprintf(&s, fmt, ap);
	va_end(ap);
	if (n < 0)
		lp_die("out of memory");
	return s;
}

unsigned long long lp_parse_count(const char *opt, const char *s,
				  const char *usage)
{
	char *end;
	unsigned long long v;

	errno = 0;
	if (!s || !*s || *s == '-' || *s == '+')
		lp_usage_error(usage, "option '%s' needs a count, not '%s'",
			       opt, s ? s : "");
	v = strtoull(s, &end, 10);
	if (errno || *end)
		lp_usage_error(usage, "option '%s' needs a count, not '%s'",
			       opt, s);
	return v;
}

double lp_parse_percent(const char *opt, const char *s, const char *usage)
{
	char *end;
	double v;

	errno = 0;
	if (!s || !*s)
		lp_usage_error(usage, "option '%s' needs a percentage", opt);
	v = strtod(s, &end);
	if (errno || *end || !(v >= 0.0 && v <= 100.0))
		lp_usage_error(usage,
			       "option '%s' needs a percentage from 0 to 100, "
			       "not '%s'",
			       opt, s);
	return v;
}

const char *lp_option_value(int argc, const char **argv, int *i,
			    const char *name, const char *usage)
{
	size_t n = strlen(name);
	const char *a = argv[*i];

	if (strncmp(a, name, n))
		return NULL;
	if (a[n] == '=')
		return a + n + 1;
	if (a[n])
		return NULL;
	if (*i + 1 >= argc)
		lp_usage_error(usage, "option '%s' needs a value", name);
	return argv[++*i];
}

const char *lp_label_option(const char *s, const char *usage)
{
	const unsigned char *c;

	if (!*s)
		lp_usage_error(usage, "--label needs a name");
	if (strlen(s) > 200)
		lp_usage_error(usage, "--label: a name of at most 200 bytes");
	for (c = (const unsigned char *)s; *c; c++)
		if (*c < 0x20 || *c == 0x7f)
			lp_usage_error(usage, "--label: no control character "
				       "(tab, newline) in a name");
	return s;
}
