/*
 * direct.c - whether a file calls a builtin hint directly
 *
 * The header makes __builtin_expect a macro.  Where the source calls it
 * itself, its condition is then a macro's argument in the instrumented
 * compile only, and gcc and clang say less of a condition that a macro
 * expansion holds (a self-comparison, -Wtautological-compare): the
 * instrumented compile's silence would not be the plain one's.  Through
 * a project's own likely(), the condition is a macro argument in both.
 * A unit with such a call is compiled twice (tools/cc/unit.c).  The test
 * is by words, over-eager where it errs: a mention in a comment or a
 * string counts; one in a directive does not.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/args.h"
#include "cc/direct.h"
#include "cc/expand.h"
#include "cc/unseen.h"

static int ident_char(char c)
{
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9');
}

/*
 * Whether the logical line holding @p (in @buf) is a directive: a
 * #define's body, or a name in #if (__has_builtin(__builtin_expect)).
 */
static int in_directive(const char *buf, const char *p)
{
	const char *s = p;

	for (;;) {              /* back to the start of the logical line */
		while (s > buf && s[-1] != '\n')
			s--;
		if (s - buf < 2 || s[-2] != '\\')
			break;
		s--;
	}
	s += strspn(s, " \t");
	return *s == '#';
}

static int text_direct(const char *buf, size_t len)
{
	static const char word[] = "__builtin_expect";
	const char *p = buf, *end = buf + len;

	while ((p = memmem(p, (size_t)(end - p), word, sizeof(word) - 1))) {
		const char *after = p + sizeof(word) - 1;

		if ((p == buf || !ident_char(p[-1])) &&
		    (after == end || !ident_char(*after) ||
		     !strncmp(after, "_with_probability", 17)) &&
		    !in_directive(buf, p))
			return 1;
		p = after;
	}
	return 0;
}

int lp_cc_direct_hint(const char *path)
{
	size_t len = 0;
	char *buf = lp_unseen_read(path, &len);
	int direct = buf && memmem(buf, len, "__builtin_expect", 16) &&
		     text_direct(buf, len);

	free(buf);
	return direct;
}

int lp_cc_deps_direct_hint(const char *deps)
{
	char **files;
	size_t len, nr, k;
	char *text = lp_unseen_read(deps, &len);
	int direct = 0;

	if (!text)
		return 1;
	nr = lp_cc_deps_files(text, len, &files);
	/* the first is the source; likelyprof.h is a system header */
	for (k = 1; k < nr && !direct; k++)
		direct = strcmp(lp_cc_base_name(files[k]), "likelyprof.h") &&
			 lp_cc_direct_hint(files[k]);
	free(files);
	free(text);
	return direct;
}
