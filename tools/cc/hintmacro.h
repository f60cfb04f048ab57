/*
 * hintmacro.h - a project's hint macros that never reach
 * __builtin_expect, counted by name (tools/cc/hintmacro.c)
 */
#ifndef LP_CC_HINTMACRO_H
#define LP_CC_HINTMACRO_H

#include <stddef.h>

struct lp_lexed;
struct lp_copy_edits;

/* A name given with --hint-macro NAME[=DIRECTION]. */
struct lp_hint_macro {
	char *name;
	int expect;             /* 1 or 0 */
};

struct lp_hint_macros {
	struct lp_hint_macro *v;
	size_t nr;
};

#define LP_HINT_MACROS_INIT { NULL, 0 }

/*! lp_hint_macro_add() :
 *  Reads @spec, "NAME" or "NAME=DIRECTION" (1, 0, likely, unlikely;
 *  without it, 0 when NAME holds "unlikely" in any case, else 1), into
 *  @m; a NAME given again takes the new direction.
 *  @return : 0, or -1 with *@why (to free) saying what is wrong.
 */
int lp_hint_macro_add(struct lp_hint_macros *m, const char *spec,
		      char **why);
void lp_hint_macros_release(struct lp_hint_macros *m);

/*! lp_hint_macro_option() :
 *  Takes --hint-macro NAME[=D] or --hint-macro=NAME[=D] at argv[*@i]
 *  into @m (fix, check: they then place the calls cc counted); a bad
 *  one is a usage error (@usage), which exits.
 *  @return : 1 when argv[*@i] was one, else 0.
 */
int lp_hint_macro_option(struct lp_hint_macros *m, int argc,
			 const char **argv, int *i, const char *usage);

/*! lp_hint_macros_take() :
 *  Takes every --hint-macro NAME[=D] and --hint-macro=NAME[=D] out of
 *  @argv[1..@argc) (no compiler has such an option, so they may stand
 *  anywhere in cc's command line) into @m; a bad one is a usage error
 *  (@usage), which exits.  @return : the arguments left.
 */
int lp_hint_macros_take(struct lp_hint_macros *m, int argc,
			const char **argv, const char *usage);

/* What lp_hint_macro_plan() did with the calls of @m in one source. */
struct lp_hint_macro_plan {
	unsigned calls;         /* every NAME( in code or a #define body */
	unsigned counted;       /* of them, made __builtin_expect */
	unsigned skipped_line;  /* the first one left as it is, or 0 */
	const char *skipped_why;    /* and why (a static string) */
};

/*! lp_hint_macro_plan() :
 *  Adds to @e the edits (edits.c) that make each call NAME(x) of a hint
 *  macro of @m in the source lexed in @lx __builtin_expect(!!(x), D),
 *  line for line: in code and in the bodies of other macros, not in
 *  comments, strings, dead #if groups, other directives or NAME's own
 *  #define.  The header then counts each as any hint.
 */
void lp_hint_macro_plan(struct lp_hint_macro_plan *p,
			const struct lp_hint_macros *m,
			const struct lp_lexed *lx, struct lp_copy_edits *e);

/* The direction of token @i of @lx if it names a macro of @m, or -1. */
int lp_hint_macro_expect(const struct lp_hint_macros *m,
			 const struct lp_lexed *lx, size_t i);

#endif /* LP_CC_HINTMACRO_H */
