/*
 * attr.h - C++20 [[likely]]/[[unlikely]] rewritten into counted hints
 * (tools/cc/attr.c)
 */
#ifndef LP_CC_ATTR_H
#define LP_CC_ATTR_H

#include <stddef.h>

struct lp_lexed;
struct lp_copy_edits;
struct lp_attr_macros;

/* One attribute of a plan, where it stands and what became of it. */
struct lp_attr_seen {
	size_t at;              /* its first byte in the lexed text */
	const char *why;        /* why it is left, or NULL: counted */
};

struct lp_attr_plan {
	unsigned attributes;    /* every [[likely]]/[[unlikely]] seen */
	unsigned counted;       /* of them, rewritten into a hint */
	unsigned skipped_line;  /* the first one left as it is, or 0 */
	const char *skipped_why;    /* and why (a static string) */
	struct lp_attr_seen *seen;  /* each of them, in order, where the
				   plan was asked to keep them; owned */
};

/*! lp_attr_plan() :
 *  Finds the attribute hints of the source lexed in @lx and, where one
 *  controls a condition that can be wrapped (if, its else, while, for),
 *  adds to @e the edits of the copy (edits.c) that turn the attribute
 *  into __builtin_expect(!!(c), v) on that condition, and where one
 *  stands on a case label, those that test the switch's value at its
 *  head (cases.c): compiled with likelyprof.h, the copy counts each
 *  such hint on the source's own line.  The uses of the names of @am
 *  (NULL: none) that spell an attribute are read as the attribute: the
 *  text is of @file, as the compiler names it (NULL: the unit's source).
 */
void lp_attr_plan(struct lp_attr_plan *p, const struct lp_lexed *lx,
		  const struct lp_attr_macros *am, const char *file,
		  struct lp_copy_edits *e);

/*! lp_attr_plan_seen() :
 *  lp_attr_plan(), keeping in @p->seen where each attribute stands and
 *  what became of it: an expanded unit's plan, whose text is of several
 *  files (expand.c says which file each one is in).  free() @p->seen.
 */
void lp_attr_plan_seen(struct lp_attr_plan *p, const struct lp_lexed *lx,
		       const struct lp_attr_macros *am,
		       struct lp_copy_edits *e);

/*! lp_attr_ignored() :
 *  The attribute hints of a C source lexed in @lx, all left as they are
 *  (gcc and clang ignore [[likely]] in C), into @p for cc's note.
 */
void lp_attr_ignored(struct lp_attr_plan *p, const struct lp_lexed *lx);

/*
 * An attribute hint that lp_attr_plan() counts, as fix edits it.  On a
 * case label (@label, cases.c) there is no condition: [from, to) are its
 * statement's labels (`case 1: case 2`), the text its record holds, and
 * @stmt the first token of the attribute and labels as written.
 */
struct lp_attr_site {
	size_t stmt;            /* token: its if, while or for */
	size_t open;            /* its '(', or LP_NO_MATCH on a label */
	size_t from, to;        /* tokens [from, to): the condition */
	size_t then;            /* '[' of the attribute on the body or the
				   if's branch, or LP_NO_MATCH */
	size_t other;           /* '[' of the one on the else, or
				   LP_NO_MATCH */
	size_t then_last, other_last;   /* their last tokens: their ']',
				   or a macro's name (attrmacro.c) */
	const char *then_flip, *other_flip; /* a macro's: the name that
				   spells the other attribute, or NULL */
	int expect;             /* what it says of the condition: 1 or 0 */
	unsigned lo, hi;        /* the lines a compiler gives its site: the
				   condition's opening (gcc) to its end
				   (clang); a label's: its attribute's */
	int label;              /* on a case or default label */
};

/*! lp_attr_sites() :
 *  The attribute hints of @lx that lp_attr_plan() counts, in source
 *  order, into *@sites (the caller frees it): the same reading of the
 *  forms as the count's, so that fix places and edits exactly those.
 *  @return : how many.
 */
size_t lp_attr_sites(const struct lp_lexed *lx,
		     const struct lp_attr_macros *am,
		     struct lp_attr_site **sites);

#endif /* LP_CC_ATTR_H */
