/*
 * edits.c - the copy of a source that cc compiles in its place
 *
 * attr.c, cases.c and hintmacro.c each find forms of a hint that the
 * header cannot see and say how the source's text must change for it
 * to see them; one unit may hold all, so they hand their edits here and
 * one copy holds all.  Every edit keeps the lines (blanks keep newlines,
 * insertions hold none) and a #line on top keeps the name, so a site of
 * the copy is reported on the source's own line.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/edits.h"
#include "fix/lexer.h"
#include "usage.h"

void lp_copy_edit_add(struct lp_copy_edits *e, size_t at, size_t len,
		      const char *text)
{
	if (e->nr == e->alloc) {
		e->alloc = e->alloc ? 2 * e->alloc : 16;
		e->v = lp_xrealloc(e->v, e->alloc * sizeof(*e->v));
	}
	e->v[e->nr].at = at;
	e->v[e->nr].len = len;
	e->v[e->nr].text = text;
	e->v[e->nr].owned = NULL;
	e->nr++;
}

void lp_copy_edit_add_owned(struct lp_copy_edits *e, size_t at, size_t len,
			    char *text)
{
	lp_copy_edit_add(e, at, len, text);
	e->v[e->nr - 1].owned = text;
}

void lp_copy_edits_release(struct lp_copy_edits *e)
{
	size_t k;

	for (k = 0; k < e->nr; k++)
		free(e->v[k].owned);
	free(e->v);
	e->v = NULL;
	e->nr = e->alloc = 0;
}

/*
 * By byte; at one byte an insertion first: attr.c's opening of a wrap
 * goes before the blanked attribute after a condition's ')' and before
 * a hint macro's name that begins the condition it wraps.  No two
 * insertions, nor two replacements, share a byte.
 */
static int edit_cmp(const void *a, const void *b)
{
	const struct lp_copy_edit *x = a, *y = b;

	if (x->at != y->at)
		return x->at < y->at ? -1 : 1;
	return (x->len != 0) - (y->len != 0);
}

struct out {
	char *s;
	size_t n;
};

/* Appends @n bytes of @s; the room was counted by lp_copy_write(). */
static void put(struct out *o, const char *s, size_t n)
{
	memcpy(o->s + o->n, s, n);
	o->n += n;
	o->s[o->n] = '\0';
}

/* `#line 1 "path"`, or 0 where @path cannot be spelled in one. */
static int put_line_directive(struct out *o, const char *path)
{
	const char *s;

	if (strchr(path, '\n'))
		return 0;
	put(o, "#line 1 \"", 9);
	for (s = path; *s; s++) {
		if (*s == '"' || *s == '\\')
			put(o, "\\", 1);
		put(o, s, 1);
	}
	put(o, "\"\n", 2);
	return 1;
}

int lp_copy_write(const struct lp_lexed *lx, struct lp_copy_edits *e,
		  const char *path, char **copy, size_t *len)
{
	struct out o;
	size_t room = 16 + 2 * strlen(path) + lx->len, k, at = 0, b;

	for (k = 0; k < e->nr; k++)
		room += e->v[k].text ? strlen(e->v[k].text) : 0;
	o.s = lp_xmalloc(room);
	o.n = 0;
	if (!put_line_directive(&o, path)) {
		free(o.s);
		return -1;
	}
	if (e->nr)
		qsort(e->v, e->nr, sizeof(*e->v), edit_cmp);
	for (k = 0; k < e->nr; k++) {
		const struct lp_copy_edit *d = &e->v[k];

		put(&o, lx->buf + at, d->at - at);
		at = d->at;
		if (d->text)
			put(&o, d->text, strlen(d->text));
		else    /* blanks, and the newlines kept for the lines */
			for (b = at; b < at + d->len; b++)
				put(&o, lx->buf[b] == '\n' ? "\n" : " ", 1);
		at += d->len;
	}
	put(&o, lx->buf + at, lx->len - at);
	*copy = o.s;
	*len = o.n;
	return 0;
}
