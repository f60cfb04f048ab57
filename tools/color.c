/*
 * color.c - gcc's colours for check's diagnostics
 *
 * check prints what gcc prints, so it colours as gcc does: the locus in
 * bold, "warning:" in bold magenta, "note:" in bold cyan, and the
 * user's GCC_COLORS in place of those (the same keys: locus, warning,
 * note, quote).  --color=auto colours only a terminal; NO_COLOR, when
 * set, turns auto off, as it asks of every program.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "color.h"
#include "usage.h"

enum when { WHEN_AUTO, WHEN_ALWAYS, WHEN_NEVER };

static enum when when = WHEN_AUTO;
static int decided, on;
static char sgr[LP_COLOR_NPARTS][32];

static const char *const part_name[LP_COLOR_NPARTS] = {
	"locus", "warning", "note", "quote",
};

static const char *const part_default[LP_COLOR_NPARTS] = {
	"01", "01;35", "01;36", "01",
};

int lp_color_option(const char *arg, const char *usage)
{
	const char *v;

	if (!strcmp(arg, "--color") || !strcmp(arg, "--colour")) {
		when = WHEN_ALWAYS;
		return 1;
	}
	if (strncmp(arg, "--color=", 8) && strncmp(arg, "--colour=", 9))
		return 0;
	v = strchr(arg, '=') + 1;
	if (!strcmp(v, "auto"))
		when = WHEN_AUTO;
	else if (!strcmp(v, "always") || !strcmp(v, "yes"))
		when = WHEN_ALWAYS;
	else if (!strcmp(v, "never") || !strcmp(v, "no"))
		when = WHEN_NEVER;
	else
		lp_usage_error(usage, "--color takes auto, always or never, "
			       "not '%s'", v);
	return 1;
}

/* The value of @key in GCC_COLORS ("warning=01;35:note=01;36"), or NULL. */
static const char *gcc_colors(const char *env, const char *key, size_t *n)
{
	size_t kl = strlen(key);
	const char *p = env;

	while (p && *p) {
		const char *end = strchr(p, ':');
		size_t len = end ? (size_t)(end - p) : strlen(p);

		if (len > kl && !strncmp(p, key, kl) && p[kl] == '=') {
			*n = len - kl - 1;
			return p + kl + 1;
		}
		p = end ? end + 1 : NULL;
	}
	return NULL;
}

static void decide(void)
{
	const char *env = getenv("GCC_COLORS"), *term = getenv("TERM");
	const char *no = getenv("NO_COLOR");
	int k;

	decided = 1;
	if (when == WHEN_NEVER)
		return;
	if (when == WHEN_AUTO &&
	    ((no && *no) || !isatty(STDOUT_FILENO) || !term ||
	     !strcmp(term, "dumb")))
		return;
	/* GCC_COLORS set to nothing turns gcc's colours off */
	if (env && !*env)
		return;
	on = 1;
	for (k = 0; k < LP_COLOR_NPARTS; k++) {
		size_t n = strlen(part_default[k]);
		const char *v = env ? gcc_colors(env, part_name[k], &n)
				    : part_default[k];

		if (!v)         /* GCC_COLORS without the key: no colour */
			continue;
		if (n >= sizeof(sgr[k]) - 5 || strspn(v, "0123456789;") < n)
			continue;
		snprintf(sgr[k], sizeof(sgr[k]), "\033[%.*sm\033[K", (int)n,
			 v);
	}
}

const char *lp_color_start(enum lp_color_part part)
{
	if (!decided)
		decide();
	return on ? sgr[part] : "";
}

const char *lp_color_end(enum lp_color_part part)
{
	if (!decided)
		decide();
	return on && sgr[part][0] ? "\033[m\033[K" : "";
}
