/*
 * quote.h - a hint's condition as the source spells it (tools/fix/quote.c)
 *
 * A profile holds the condition as the compiler saw it, after macro
 * expansion: glib's G_UNLIKELY (g_mem_gc_friendly) arrives wrapped in
 * __extension__ ({ int _g_boolean_var_; ... }), and NULL as ((void *)0).
 * A maintainer reads the source, so every verdict quotes the source's
 * text where the site is placed in a tree, and keeps the expansion apart.
 */
#ifndef LP_FIX_QUOTE_H
#define LP_FIX_QUOTE_H

#include <stddef.h>

#include "fix/locate.h"
#include "policy.h"

/*! lp_cond_unwrapped() :
 *  The condition @c without the !!( ) that likely()'s expansion puts
 *  around it; returns its start and sets *@n to its length.
 */
const char *lp_cond_unwrapped(const char *c, size_t *n);

/*! lp_place_call_text() / lp_place_arg_text() :
 *  The text of the placed hint's whole call (`G_UNLIKELY (p == NULL)`),
 *  or of its condition argument (`p == NULL`), as the source spells it,
 *  over as many lines as it takes: each run of spaces, newlines,
 *  backslash-newlines and comments between two tokens is one space.
 *  @return : a string to free, or NULL when @pl is not placed.
 */
char *lp_place_call_text(const struct lp_place *pl);
char *lp_place_arg_text(const struct lp_place *pl);

/*! lp_site_quote() :
 *  What a verdict calls the hint of @s: the source's call where @pl
 *  placed it, else its spelling (@name, or likely/unlikely from the
 *  expected value) around the profile's condition (`unlikely(x > 3)`)
 *  when that is short and no statement expression, else the spelling
 *  alone (`unlikely()`, a kernel table's `annotation`).  A string to
 *  free.
 */
char *lp_site_quote(const struct lp_judged *s, const struct lp_place *pl);

#endif /* LP_FIX_QUOTE_H */
