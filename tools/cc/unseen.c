/*
 * unseen.c - the hints of a source that the instrumentation cannot count
 *
 * The header counts what reaches __builtin_expect or
 * __builtin_expect_with_probability.  C++20's [[likely]] and [[unlikely]]
 * do not, nor do the calls of a macro that a project defines away
 * (sqlite's likely(X) is (X)), which cc --hint-macro names: likelyprof
 * cc reads the source it compiles (with fix's lexer: not in comments,
 * strings or dead #if groups) and has attr.c and hintmacro.c rewrite
 * those it can into hints the header counts, in one copy (edits.c).
 * Without a word from us a unit whose other attributes or calls go
 * uncounted would profile clean, which is false comfort, so cc says
 * once per unit what it left and why.  A unit's own headers are read
 * too (expand.c): their forms are counted in the unit's expanded text.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cc/edits.h"
#include "cc/unseen.h"
#include "fix/lexer.h"
#include "usage.h"
#include "write-file.h"

/* Larger sources (generated tables) are not worth the read. */
#define UNSEEN_MAX_BYTES (64u << 20)

char *lp_unseen_read(const char *path, size_t *len)
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

void lp_unseen_plan(struct lp_unseen *u, const struct lp_lexed *lx,
		    const struct lp_unseen_forms *f, struct lp_copy_edits *e)
{
	memset(u, 0, sizeof(*u));
	if (f->attributes && f->keep_seen)
		lp_attr_plan_seen(&u->attr, lx, f->attr_macros, e);
	else if (f->attributes)
		lp_attr_plan(&u->attr, lx, f->attr_macros, f->file, e);
	else
		lp_attr_ignored(&u->attr, lx);
	lp_hint_macro_plan(&u->macros, f->macros, lx, e);
}

void lp_unseen_scan(struct lp_unseen *u, const char *path,
		    const struct lp_unseen_forms *f)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_copy_edits e = LP_COPY_EDITS_INIT;
	size_t len = 0;
	char *buf = lp_unseen_read(path, &len);

	memset(u, 0, sizeof(*u));
	if (!buf)
		return;
	lp_lex(&lx, buf, len);
	lp_unseen_plan(u, &lx, f, &e);
	if (e.nr && lp_copy_write(&lx, &e, path, &u->copy, &u->copy_len))
		u->copy = NULL;
	lp_copy_edits_release(&e);
	lp_lexed_release(&lx);
	free(buf);
}

void lp_unseen_release(struct lp_unseen *u)
{
	free(u->copy);
	u->copy = NULL;
	u->copy_len = 0;
	free(u->attr.seen);
	u->attr.seen = NULL;
}

int lp_unseen_left(char *out, size_t n, unsigned all, unsigned counted,
		   const char *what, unsigned line, const char *why)
{
	unsigned n_left = all - counted;

	if (!n_left)
		return 0;
	snprintf(out, n, "%u of %u %s (%sline %u: %s)", n_left, all, what,
		 n_left > 1 ? "first at " : "", line, why);
	return 1;
}

int lp_unseen_describe_as(const struct lp_unseen *u, const char *attr,
			  char *out, size_t n)
{
	const struct lp_attr_plan *a = &u->attr;
	const struct lp_hint_macro_plan *m = &u->macros;
	char own[200], macros[200];
	int has_m = lp_unseen_left(macros, sizeof(macros), m->calls,
				   m->counted, "hint macro calls",
				   m->skipped_line, m->skipped_why);

	if (!attr)
		attr = lp_unseen_left(own, sizeof(own), a->attributes,
				      a->counted, "[[likely]]/[[unlikely]]",
				      a->skipped_line, a->skipped_why) ?
		       own : "";
	if (!*attr && !has_m)
		return 0;
	snprintf(out, n, "%s%s%s", attr, *attr && has_m ? "; " : "",
		 has_m ? macros : "");
	return 1;
}

int lp_unseen_describe(const struct lp_unseen *u, char *out, size_t n)
{
	return lp_unseen_describe_as(u, NULL, out, n);
}

void lp_unseen_counted(const struct lp_unseen *u, char *out, size_t n)
{
	char attr[64] = "", macros[64] = "";

	if (u->attr.counted)
		snprintf(attr, sizeof(attr), "%u [[likely]]/[[unlikely]]",
			 u->attr.counted);
	if (u->macros.counted)
		snprintf(macros, sizeof(macros), "%u hint macro calls",
			 u->macros.counted);
	snprintf(out, n, "%s%s%s", attr, *attr && *macros ? " and " : "",
		 macros);
}
