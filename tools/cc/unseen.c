/*
 * unseen.c - the hints of a source that the instrumentation cannot count
 *
 * The header counts what reaches __builtin_expect or
 * __builtin_expect_with_probability.  C++20's [[likely]] and [[unlikely]]
 * do not: without a word from us a unit that uses only them profiles clean,
 * which is false comfort.  So likelyprof cc reads the source it compiles
 * (with fix's lexer: not in comments, strings or dead #if groups) and
 * says once per unit what it will not count.  Headers are not read: a
 * form a header spells for the unit is not seen here, as doc/likelyprof-
 * cc.md says.
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

/* [[likely]] or [[unlikely]] (spaces allowed) starting at token @i. */
static int is_attribute_hint(const struct lp_lexed *lx, size_t i)
{
	static const char *const words[] = { "likely", "unlikely" };

	return i + 4 < lx->nr && lp_tok_is(lx, i, "[") &&
	       lp_tok_is(lx, i + 1, "[") &&
	       lp_tok_is_any(lx, i + 2, words, 2) &&
	       lp_tok_is(lx, i + 3, "]") && lp_tok_is(lx, i + 4, "]");
}

void lp_unseen_scan(struct lp_unseen *u, const char *path)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	size_t len = 0, i;
	char *buf = read_source(path, &len);

	memset(u, 0, sizeof(*u));
	if (!buf)
		return;
	lp_lex(&lx, buf, len);
	for (i = 0; i < lx.nr; i++) {
		const struct lp_token *t = &lx.tok[i];

		if (t->flags & LP_TOKF_DEAD)
			continue;
		if (t->kind == LP_TOK_PUNCT && is_attribute_hint(&lx, i)) {
			if (!u->attributes++)
				u->attribute_line = t->line;
			i += 4;
		}
	}
	lp_lexed_release(&lx);
	free(buf);
}

int lp_unseen_describe(const struct lp_unseen *u, char *out, size_t n)
{
	if (!u->attributes)
		return 0;
	snprintf(out, n, "%u [[likely]]/[[unlikely]] (first at line %u)",
		 u->attributes, u->attribute_line);
	return 1;
}
