/*
 * quote.c - a hint's condition as the source spells it
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fix/inputs.h"
#include "fix/lexer.h"
#include "fix/quote.h"
#include "format.h"
#include "usage.h"

/* The longest expanded condition quoted without --src */
#define LP_QUOTE_MAX 60

/* Is [@c, @c + @n) one parenthesised group, "(a > b)" but not "(a) + (b)"? */
static int one_group(const char *c, size_t n)
{
	size_t i;
	int depth = 0;
	char quote = 0;

	if (n < 2 || c[0] != '(' || c[n - 1] != ')')
		return 0;
	for (i = 0; i < n; i++) {
		if (quote) {
			if (c[i] == '\\')
				i++;
			else if (c[i] == quote)
				quote = 0;
		} else if (c[i] == '"' || c[i] == '\'') {
			quote = c[i];
		} else if (c[i] == '(') {
			depth++;
		} else if (c[i] == ')' && !--depth && i + 1 < n) {
			return 0;
		}
	}
	return 1;
}

const char *lp_cond_unwrapped(const char *c, size_t *n)
{
	size_t len = c ? strlen(c) : 0;

	*n = len;
	/* "!!(a) && (b)" is not one wrapper */
	if (len < 4 || strncmp(c, "!!", 2) || !one_group(c + 2, len - 2))
		return c ? c : "";
	c += 3;
	*n = len - 4;
	/* likely((x > 16)): the inner parentheses are the macro's too */
	while (one_group(c, *n)) {
		c++;
		*n -= 2;
	}
	return c;
}

/* The '(' of the placed hint's call, or LP_NO_MATCH. */
static size_t call_open(const struct lp_place *pl)
{
	const struct lp_lexed *lx;

	if (!pl || !pl->placed || !pl->file || !pl->file->loaded)
		return LP_NO_MATCH;
	lx = &pl->file->lx;
	if (pl->tok + 1 >= lx->nr || !lp_tok_is(lx, pl->tok + 1, "(") ||
	    lx->tok[pl->tok + 1].match == LP_NO_MATCH)
		return LP_NO_MATCH;
	return pl->tok + 1;
}

/*
 * A hint in a macro's body is the macro's parameter there
 * (G_LIKELY (expr)); the site's line calls the macro with its
 * condition (g_return_val_if_fail (rarray != NULL, NULL)): that call is
 * what the source says at the site.  NULL when the line has none.
 */
static char *macro_call_text(const struct lp_place *pl)
{
	const struct lp_srcfile *f = pl->call_file;
	const struct lp_lexed *lx;
	size_t i;

	if (!pl->macro || !f || !f->loaded)
		return NULL;
	lx = &f->lx;
	for (i = 0; i + 1 < lx->nr; i++) {
		if (lx->tok[i].line > pl->line)
			break;
		if (lx->tok[i].line == pl->line &&
		    lp_tok_is(lx, i, pl->macro) && lp_tok_is(lx, i + 1, "(") &&
		    lx->tok[i + 1].match != LP_NO_MATCH)
			return lp_tok_text(lx, i, lx->tok[i + 1].match + 1);
	}
	return NULL;
}

/*
 * An attribute site as written, from its statement to its attribute:
 * `if (p == end) [[unlikely]]`, `while (n) [[likely]]`; the else's,
 * after the if's condition: `if (c) ... else [[likely]]`, `if (c) {
 * [[unlikely]] ... else { [[likely]]` on their blocks' first statements;
 * a label's,
 * its labels and attribute in their order: `case 3: [[likely]]`,
 * `[[unlikely]] default:`.
 */
static char *attr_text(const struct lp_place *pl)
{
	const struct lp_lexed *lx = &pl->file->lx;
	const struct lp_attr_site *a = &pl->attr;
	/* up to the attribute, or to the if's ')' when it is the else's */
	size_t head_end = a->then != LP_NO_MATCH ?
		a->then_last + 1 : lx->tok[a->open].match + 1;
	char *head, *tail, *s;
	size_t from;

	/* to the last label's ':', or to NAME(c)'s ')' */
	if ((a->label || (a->then != LP_NO_MATCH && a->then < a->from)) &&
	    a->to + 1 > head_end)
		head_end = a->to + 1;
	head = lp_tok_text(lx, a->stmt, head_end);

	if (a->other == LP_NO_MATCH)
		return head;
	/* from the else, over the '{' of its block where it stands there */
	from = a->other - 1;
	if (from > 0 && lp_tok_is(lx, from, "{"))
		from--;
	tail = lp_tok_text(lx, from, a->other_last + 1);
	s = lp_xstrfmt("%s ... %s", head, tail);
	free(head);
	free(tail);
	return s;
}

char *lp_place_call_text(const struct lp_place *pl)
{
	size_t open = call_open(pl);
	char *call;

	if (pl && pl->placed && pl->hint->attribute && pl->file->loaded)
		return attr_text(pl);
	if (open == LP_NO_MATCH)
		return NULL;
	if ((call = macro_call_text(pl)))
		return call;
	return lp_tok_text(&pl->file->lx, pl->tok,
			   pl->file->lx.tok[open].match + 1);
}

char *lp_place_arg_text(const struct lp_place *pl)
{
	size_t open = call_open(pl), from[8], to[8];
	int n;

	if (pl && pl->placed && pl->hint->attribute && pl->file->loaded)
		return lp_tok_text(&pl->file->lx, pl->attr.from, pl->attr.to);
	if (open == LP_NO_MATCH)
		return NULL;
	/* in a macro, the parameter's name says nothing: the whole call */
	if (pl->macro)
		return macro_call_text(pl);
	n = lp_tok_args(&pl->file->lx, open, from, to, 8);
	if (n <= pl->hint->cond_arg ||
	    from[pl->hint->cond_arg] == to[pl->hint->cond_arg])
		return NULL;
	return lp_tok_text(&pl->file->lx, from[pl->hint->cond_arg],
			   to[pl->hint->cond_arg]);
}

char *lp_site_quote(const struct lp_judged *s, const struct lp_place *pl)
{
	char *call = lp_place_call_text(pl), *spell, *q;
	const char *cond;
	size_t n;

	if (call)
		return call;
	cond = lp_cond_unwrapped(s->cond, &n);
	/* the number is the hint, whatever macro spelled it */
	if (s->prob && n && n <= LP_QUOTE_MAX) {
		char num[LP_PROB_MAX], value[24];

		if (s->expect == LP_EXPECT_UNKNOWN)
			strcpy(value, "...");
		else
			snprintf(value, sizeof(value), "%ld", s->expect);
		return lp_xstrfmt("__builtin_expect_with_probability(%.*s, %s, "
				  "%s)", (int)n, cond, value,
				  lp_prob_text(num, s->prob));
	}
	spell = lp_spelling(s, pl && pl->placed ? pl->hint->name : NULL,
			    NULL, 0);
	/*
	 * "unlikely()" around the condition; a kernel table has none.  An
	 * expansion a reader would not recognise (a statement expression,
	 * a long one) is left to --src, which quotes the source instead.
	 */
	if (!n || n > LP_QUOTE_MAX || strcmp(spell + strlen(spell) - 2, "()") ||
	    memmem(cond, n, "({", 2))
		return spell;
	q = lp_xstrfmt("%.*s(%.*s)", (int)(strlen(spell) - 2), spell,
		       (int)n, cond);
	free(spell);
	return q;
}
