/*
 * edits.h - the copy of a source that cc compiles in its place: the
 * source's bytes with edits spliced in, line for line (tools/cc/edits.c)
 */
#ifndef LP_CC_EDITS_H
#define LP_CC_EDITS_H

#include <stddef.h>

struct lp_lexed;

/*
 * At byte @at of the source, @len bytes become @text; a NULL @text
 * blanks them, newlines kept.  No @text holds a newline, so that every
 * line of the copy keeps its number.
 */
struct lp_copy_edit {
	size_t at, len;
	const char *text;       /* a static string, or NULL */
	char *owned;            /* the text when the edits own it */
};

struct lp_copy_edits {
	struct lp_copy_edit *v;
	size_t nr, alloc;
};

#define LP_COPY_EDITS_INIT { NULL, 0, 0 }

void lp_copy_edit_add(struct lp_copy_edits *e, size_t at, size_t len,
		      const char *text);
/* The same, with a @text made for it (freed with the edits). */
void lp_copy_edit_add_owned(struct lp_copy_edits *e, size_t at, size_t len,
			    char *text);
void lp_copy_edits_release(struct lp_copy_edits *e);

/*! lp_copy_write() :
 *  The source lexed in @lx with the edits of @e (of two at one byte, an
 *  insertion goes first; edits must not overlap otherwise), after a
 *  #line naming @path, into *@copy (the caller frees it) and *@len.
 *  @return : 0, or -1 (nothing allocated) where @path cannot be named in
 *            a #line.
 */
int lp_copy_write(const struct lp_lexed *lx, struct lp_copy_edits *e,
		  const char *path, char **copy, size_t *len);

#endif /* LP_CC_EDITS_H */
