/*
 * marks.c - the hinted lines of each source file (marks.h)
 *
 * One list for both views of a file with its hints, so that `annotate`
 * and the page's source views mark the same lines.
 */
#include <stdlib.h>
#include <string.h>

#include "marks.h"
#include "usage.h"

static int cmp_mark(const void *pa, const void *pb)
{
	const struct lp_mark *a = pa, *b = pb;
	int c = a->file == b->file ? 0 : strcmp(a->file->rel, b->file->rel);

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	/* sites of one line in the profile's order, the same every run */
	return (a->s > b->s) - (a->s < b->s);
}

struct lp_mark *lp_marks_make(struct lp_tree *tree,
			      const struct lp_judged_list *sites,
			      const struct lp_place *places, int at_call,
			      size_t *nr)
{
	struct lp_mark *m = lp_xcalloc(sites->nr + 1, sizeof(*m));
	size_t i, n = 0;

	for (i = 0; places && i < sites->nr; i++) {
		const struct lp_place *pl = &places[i];
		struct lp_srcfile *f;
		char *err = NULL;

		if (!pl->placed)
			continue;
		f = at_call ? pl->call_file : pl->file;
		/* a file that cannot be read is left out, as check says */
		if (!f || (!f->loaded && lp_srcfile_load(tree, f, &err))) {
			free(err);
			continue;
		}
		m[n].file = f;
		m[n].line = at_call ? pl->line : pl->file->lx.tok[pl->tok].line;
		if (!m[n].line || m[n].line > f->lx.nlines)
			continue;
		m[n].s = &sites->v[i];
		m[n++].pl = pl;
	}
	if (n > 1)
		qsort(m, n, sizeof(*m), cmp_mark);
	*nr = n;
	return m;
}

size_t lp_marks_run(const struct lp_mark *m, size_t n)
{
	size_t k;

	for (k = 1; k < n && m[k].file == m[0].file; k++)
		;
	return n ? k : 0;
}

void lp_src_line(const struct lp_srcfile *f, size_t l, size_t *b, size_t *e)
{
	*b = f->lx.line_start[l];
	*e = l + 1 < f->lx.nlines ? f->lx.line_start[l + 1] : f->len;
	while (*e > *b && (f->buf[*e - 1] == '\n' || f->buf[*e - 1] == '\r'))
		(*e)--;
}
