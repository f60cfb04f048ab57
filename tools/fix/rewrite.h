/*
 * rewrite.h - the edits that remove or flip one annotation
 *
 * The rules are the seeds' (Steven Rostedt's patches of December 2010):
 *
 *   if (likely(mapping))                      ->  if (mapping)
 *   if (likely((atomic_read(&f->count) == 1)))
 *	-> if (atomic_read(&f->count) == 1)
 *   else if (unlikely((unsigned long)m & ANON))
 *	-> else if ((unsigned long)m & ANON)
 *   if (likely(!(w->flags & NOT_RUNNING)))
 *	-> if (unlikely(!(w->flags & NOT_RUNNING)))
 *
 * A call that is a whole operand on its own (the condition of an if, an
 * argument, the value of a return or an assignment) is replaced by its
 * condition, and one pair of parentheses around all of it goes too.  A
 * call that is the operand of an operator keeps its own parentheses
 * (!likely(a) -> !(a), likely(a) + 1 -> (a) + 1), so precedence never
 * changes.  A flip swaps the name for its opposite in the same family
 * (likely/unlikely, LIKELY/UNLIKELY, XXH_likely/XXH_unlikely) or the
 * value of __builtin_expect(e, 1) for 0.
 *
 * An edit is a byte range of the original buffer and its replacement:
 * bytes outside edits are never touched, and comments next to the call
 * stay where they are.
 */
#ifndef LP_FIX_REWRITE_H
#define LP_FIX_REWRITE_H

#include <stddef.h>

#include "fix/lexer.h"
#include "fix/locate.h"

struct lp_edit {
	size_t start, end;      /* bytes [start, end) of the original */
	char *text;             /* what replaces them; owned */
};

struct lp_edits {
	struct lp_edit *v;
	size_t nr, alloc;
};

#define LP_EDITS_INIT { NULL, 0, 0 }

enum lp_fix_action {
	LP_FIX_REMOVE,
	LP_FIX_FLIP
};

/*! lp_rewrite() :
 *  Appends to @out the edits that apply @act to the call whose name is
 *  token @tok of @lx, spelled @h.  A flip by name uses @partner, the
 *  opposite spelling (lp_flip_partner()).
 *  @return : 0, or -1 with *@why set to a message to free; @out is then
 *            unchanged.
 */
int lp_rewrite(const struct lp_lexed *lx, size_t tok, const struct lp_hint *h,
	       enum lp_fix_action act, const char *partner,
	       struct lp_edits *out, char **why);

/*! lp_rewrite_prob() :
 *  Appends to @out the edit that writes @prob as the stated probability
 *  of the call whose name is token @tok of @lx, spelled @h (a spelling
 *  of __builtin_expect_with_probability whose number is an argument).
 *  @return : 0, or -1 with *@why set to a message to free; @out is then
 *            unchanged.
 */
int lp_rewrite_prob(const struct lp_lexed *lx, size_t tok,
		    const struct lp_hint *h, const char *prob,
		    struct lp_edits *out, char **why);

/*! lp_rewrite_attr() :
 *  Appends to @out the edits that apply @act to the attribute site @a
 *  of @lx: a removal deletes each attribute (both of a pair) and the
 *  blanks beside it; a flip swaps [[likely]] and [[unlikely]] in place,
 *  each of a pair, which turns the expectation on the condition over
 *  whichever branch it stands on.
 *  @return : 0, or -1 with *@why set to a message to free; @out is then
 *            unchanged.
 */
int lp_rewrite_attr(const struct lp_lexed *lx, const struct lp_attr_site *a,
		    enum lp_fix_action act, struct lp_edits *out, char **why);

/*! lp_flip_partner() :
 *  The opposite of spelling @h in @t (unlikely for likely, XXH_likely for
 *  XXH_unlikely, expect_false for expect_true), or NULL when it has none
 *  or its value is an argument; for an attribute, the other one.  The
 *  string belongs to @t, or is static.
 */
const char *lp_flip_partner(const struct lp_tree *t, const struct lp_hint *h);

/*! lp_edits_overlap() :
 *  @return : true when an edit of @more overlaps one of @have.
 */
int lp_edits_overlap(const struct lp_edits *have, const struct lp_edits *more);

/*! lp_edits_add() :
 *  Appends the edit that makes bytes [@start, @end) @text (copied); an
 *  edit that changes nothing is left out.
 */
void lp_edits_add(struct lp_edits *e, size_t start, size_t end,
		  const char *text);

/*! lp_edits_take() :
 *  Moves the edits of @from to the end of @to.
 */
void lp_edits_take(struct lp_edits *to, struct lp_edits *from);

/*! lp_edits_apply() :
 *  Sorts @e and returns @buf with them applied (NUL-terminated; its
 *  length in *@newlen); the caller frees it.
 */
char *lp_edits_apply(struct lp_edits *e, const char *buf, size_t len,
		     size_t *newlen);

void lp_edits_release(struct lp_edits *e);

#endif /* LP_FIX_REWRITE_H */
