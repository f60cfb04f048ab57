/*
 * stmt.h - enough of C++'s statements to find where an attribute hint
 * stands, shared by attr.c (if, else, loops) and cases.c (case labels)
 * (tools/cc/stmt.c)
 */
#ifndef LP_CC_STMT_H
#define LP_CC_STMT_H

#include <stddef.h>

struct lp_lexed;

/*
 * A [[likely]] or [[unlikely]] of the source, or a macro's name that
 * spells one (attrmacro.c), and what became of it.
 */
struct lp_attr_mark {
	size_t tok;             /* its first '[', or the name */
	size_t last;            /* its last ']', or the name */
	int funclike;           /* a name that takes the condition: NAME(c) */
	int likely;             /* 1: [[likely]], 0: [[unlikely]] */
	int on_label;           /* counted on a case label (cases.c) */
	const char *why;        /* NULL until decided; "" once counted */
};

/* The mark whose first '[' is token @tok among @n, or NULL. */
struct lp_attr_mark *lp_attr_mark_at(struct lp_attr_mark *m, size_t n,
				     size_t tok);

/* The mark whose last token is token @tok - 1, or NULL. */
struct lp_attr_mark *lp_attr_mark_before(struct lp_attr_mark *m, size_t n,
					 size_t tok);

/* Token @i is in a directive or in a group the preprocessor skips. */
int lp_stmt_skipped(const struct lp_lexed *lx, size_t i);

/* Token @i exists and is spelled @s. */
int lp_stmt_is(const struct lp_lexed *lx, size_t i, const char *s);

/* After the bracket pair opened at @i, or LP_NO_MATCH without a match. */
size_t lp_stmt_past(const struct lp_lexed *lx, size_t i);

/* The next token at the depth of @i, past the brackets it opens. */
size_t lp_stmt_next_top(const struct lp_lexed *lx, size_t i);

/*! lp_stmt_end() :
 *  The last token of the statement that starts at token @i, or
 *  LP_NO_MATCH where it cannot be told (the block closes first, a
 *  directive splits it).
 */
size_t lp_stmt_end(const struct lp_lexed *lx, size_t i);

/* The condition of an if or a switch (lp_stmt_condition()). */
struct lp_stmt_cond {
	size_t from, to;        /* the expression or declaration */
	size_t name;            /* the name a declaration declares, or
				   LP_NO_MATCH */
	size_t init;            /* the ';' ending an init-statement before
				   such a declaration, or LP_NO_MATCH */
	const char *why;        /* why it cannot be tested, or NULL */
};

/*! lp_stmt_condition() :
 *  Reads the tokens [from, to] between an if's or a switch's
 *  parentheses into @c: the condition past an init-statement, and the
 *  name it declares when it is a declaration; @c->why says when it
 *  cannot be tested (a directive inside it, a structured binding).
 */
void lp_stmt_condition(const struct lp_lexed *lx, size_t from, size_t to,
		       struct lp_stmt_cond *c);

/*! lp_stmt_unwrappable() :
 *  Why the condition in tokens [from, to] cannot be put in an
 *  expression of ours (a declaration, an init-statement, a directive
 *  inside it), or NULL when it can: a loop's condition.
 */
const char *lp_stmt_unwrappable(const struct lp_lexed *lx, size_t from,
				size_t to);

#endif /* LP_CC_STMT_H */
