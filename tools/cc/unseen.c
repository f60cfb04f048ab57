/*
 * unseen.c - the hints of a source that the instrumentation cannot count
 *
 * The header counts what reaches __builtin_expect or
 * __builtin_expect_with_probability.  C++20's [[likely]] and [[unlikely]]
 * do not: likelyprof cc reads the source it compiles (with fix's lexer:
 * not in comments, strings or dead #if groups) and has attr.c rewrite
 * those it can into hints the header counts.  Without a word from us a
 * unit whose other attributes go uncounted would profile clean, which is
 * false comfort, so cc says once per unit what it left and why.  Headers
 * are not read: a form a header spells for the unit is not seen here, as
 * doc/likelyprof-cc.md says.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc/unseen.h"
#include "fix/lexer.h"
#include "usage.h"
#include "write-file.h"

/* Larger sources (generated tables) are not worth the read. */
#define UNSEEN_MAX_BYTES (64u << 20)

static char *read_source(const char *path, size_t *len)
{
	struct stat st;
	char *buf = NULL;
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);

	if (fd < 0)
		return NULL;
	if (!fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    (unsigned long long)st.st_size <= UNSEEN_MAX_BYTES &&
	    lp_read_all(fd, &buf, len) < 0)
		buf = NULL;
	close(fd);
	return buf;
}

void lp_unseen_scan(struct lp_unseen *u, const char *path)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	size_t len = 0;
	char *buf = read_source(path, &len);

	memset(u, 0, sizeof(*u));
	if (!buf)
		return;
	lp_lex(&lx, buf, len);
	lp_attr_plan(&u->attr, &lx, path);
	lp_lexed_release(&lx);
	free(buf);
}

void lp_unseen_release(struct lp_unseen *u)
{
	lp_attr_plan_release(&u->attr);
}

int lp_unseen_describe(const struct lp_unseen *u, char *out, size_t n)
{
	const struct lp_attr_plan *a = &u->attr;
	unsigned left = a->attributes - a->counted;

	if (!left)
		return 0;
	snprintf(out, n, "%u of %u [[likely]]/[[unlikely]] (%sline %u: %s)",
		 left, a->attributes, left > 1 ? "first at " : "",
		 a->skipped_line, a->skipped_why);
	return 1;
}
