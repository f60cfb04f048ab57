/*
 * marks.h - the hinted lines of each source file, for the views that
 * print a file with its hints beside their lines (tools/marks.c):
 * `annotate` in the terminal and the page's source views
 */
#ifndef LP_MARKS_H
#define LP_MARKS_H

#include <stddef.h>

#include "fix/inputs.h"
#include "fix/locate.h"

/* A hinted line of one file, and the site placed on it. */
struct lp_mark {
	const struct lp_srcfile *file;
	unsigned line;                  /* from 1 */
	const struct lp_judged *s;
	const struct lp_place *pl;
};

/*! lp_marks_make() :
 *  The sites of @sites that @places (sites->nr entries) put in a file of
 *  @tree that can be read, sorted by file path and line.  With @at_call
 *  each is marked where the profile saw it (the call's file and line,
 *  as the page links it); else on its annotation (a macro's body in a
 *  header, as annotate and fix see it).  The caller frees the array.
 *  @return : the marks, *@nr of them.
 */
struct lp_mark *lp_marks_make(struct lp_tree *tree,
			      const struct lp_judged_list *sites,
			      const struct lp_place *places, int at_call,
			      size_t *nr);

/*! lp_marks_run() :
 *  @return : the number of marks from @m on (of @n) in @m's file.
 */
size_t lp_marks_run(const struct lp_mark *m, size_t n);

/*! lp_src_line() :
 *  Bytes [*@b, *@e) of line @l (from 0) of @f, without its end of line.
 */
void lp_src_line(const struct lp_srcfile *f, size_t l, size_t *b, size_t *e);

#endif /* LP_MARKS_H */
