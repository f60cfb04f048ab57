/*
 * gotos.c - the gotos and labels of a function, for the hints whose if's
 * statement is one "goto L;"
 *
 * Where L comes after the if, the code after the label (its lines, to
 * the function's end) is where the goto goes first, and the code after
 * the if, before L, where the condition not holding goes first: the
 * jump of such an if that goes past L, and does not fall there, is taken
 * when the condition held, whatever the layout (gcc often places L's
 * code above, lz4's "goto _last_literals": a backward jump that the
 * layout cannot read).  The other gotos to L are noted, whose jumps into
 * that code are expected.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/gotos.h"
#include "usage.h"

void lp_gotos_goto(struct lp_gotos *gs, const char *p, long line,
		   long if_first, long if_last)
{
	const char *s, *q;
	struct lp_goto *g;

	while (*p == ' ' || *p == '\t')
		p++;
	for (s = p; lp_judge_ident_char(*p); p++)
		;
	for (q = p; *q == ' ' || *q == '\t'; q++)
		;
	if (p == s || *q != ';')
		return;         /* a computed goto, or no statement we know */
	gs->g = lp_xrealloc(gs->g, (gs->ng + 1) * sizeof(*gs->g));
	g = &gs->g[gs->ng++];
	g->label = lp_xstrfmt("%.*s", (int)(p - s), s);
	g->line = line;
	g->if_first = if_first;
	g->if_last = if_last;
}

void lp_gotos_label(struct lp_gotos *gs, const char *name, size_t n,
		    long line)
{
	struct lp_label *l;

	gs->l = lp_xrealloc(gs->l, (gs->nl + 1) * sizeof(*gs->l));
	l = &gs->l[gs->nl++];
	l->name = lp_xstrfmt("%.*s", (int)n, name);
	l->line = line;
}

/* The line of label @name; 0 unless it is there once. */
static long label_line(const struct lp_gotos *gs, const char *name)
{
	long line = 0;
	size_t i;

	for (i = 0; i < gs->nl; i++) {
		if (strcmp(gs->l[i].name, name))
			continue;
		if (line)
			return 0;
		line = gs->l[i].line;
	}
	return line;
}

void lp_gotos_give(const struct lp_gotos *gs, struct lp_hint *h, long close)
{
	const char *label = NULL;
	size_t i;

	for (i = 0; i < gs->ng && !label && h->cond_first; i++)
		if (gs->g[i].if_first == h->cond_first &&
		    gs->g[i].if_last == h->cond_last)
			label = gs->g[i].label;
	if (!label || label_line(gs, label) <= h->cond_last ||
	    close <= label_line(gs, label))
		return;
	h->goto_line = label_line(gs, label);
	h->goto_end = close;
	for (i = 0; i < gs->ng; i++) {
		const struct lp_goto *g = &gs->g[i];

		if (strcmp(g->label, label))
			continue;
		h->goto_first = lp_xrealloc(h->goto_first, (h->ngoto + 1) *
					    sizeof(*h->goto_first));
		h->goto_last = lp_xrealloc(h->goto_last, (h->ngoto + 1) *
					   sizeof(*h->goto_last));
		/* its jump is its if's, on the condition's lines */
		h->goto_first[h->ngoto] = g->if_first ? g->if_first : g->line;
		h->goto_last[h->ngoto++] = g->if_first ? g->if_last : g->line;
	}
}

void lp_gotos_clear(struct lp_gotos *gs)
{
	size_t i;

	for (i = 0; i < gs->ng; i++)
		free(gs->g[i].label);
	for (i = 0; i < gs->nl; i++)
		free(gs->l[i].name);
	free(gs->g);
	free(gs->l);
	memset(gs, 0, sizeof(*gs));
}
