/*
 * attrmacro.h - [[likely]]/[[unlikely]] spelled by a macro, and where
 * the compiler says each use stands for one (tools/cc/attrmacro.c)
 */
#ifndef LP_CC_ATTRMACRO_H
#define LP_CC_ATTRMACRO_H

#include <stddef.h>

struct lp_lexed;

/*
 * A macro that spells an attribute hint: `#define UNLIKELY [[unlikely]]`
 * (a word after a condition: `if (c) UNLIKELY {`), or one that takes the
 * condition, `#define UNLIKELY(...) (__VA_ARGS__) [[unlikely]]` (`if
 * UNLIKELY(c) {`).
 */
struct lp_attr_macro {
	char *name;
	int funclike;
	int likely;             /* as its definitions say: 1, 0, or -1 where
				   they say both */
	int live;               /* the compiler's text defines it so */
};

/* Where the compiler's preprocessed unit holds an attribute hint. */
struct lp_attr_spot {
	const char *file;       /* as its line markers spell it */
	unsigned line;
	int likely;
};

struct lp_attr_macros {
	struct lp_attr_macro *v;
	size_t nr;
	struct lp_attr_spot *spots; /* in the order of the text */
	size_t nspots;
	char **files;           /* the spots' file names, owned */
	const char *main;       /* the unit's source, as the first marker
				   names it */
	size_t nfiles;
	int resolved;           /* spots read from the compiler's text */
	int from_tree;          /* no compiler: a use is what its
				   definitions say (fix, check) */
};

#define LP_ATTR_MACROS_INIT { NULL, 0, NULL, 0, NULL, NULL, 0, 0, 0 }

/*! lp_attr_macros_collect() :
 *  Adds to @m the names that a live #define of @lx makes an attribute
 *  hint, in either form above (in any #if group that is not plainly
 *  dead: which definition holds is the compiler's to say).
 *  @return : how many names @m holds now.
 */
size_t lp_attr_macros_collect(struct lp_attr_macros *m,
			      const struct lp_lexed *lx);

/*! lp_attr_macros_resolve() :
 *  Reads @text, the unit as the compiler preprocessed it (-E -dD), for
 *  the attribute hints it holds, each on the file and line its line
 *  markers give: the macros' uses are matched
 *  against them (lp_attr_macro_uses()); and for the definitions that
 *  held, which say which names spell an attribute in this build (those
 *  of the system's headers added to @m).
 */
void lp_attr_macros_resolve(struct lp_attr_macros *m, const char *text,
			    size_t len);
void lp_attr_macros_release(struct lp_attr_macros *m);

/* A use of an attribute macro in a text, as the compiler expanded it. */
struct lp_attr_use {
	size_t tok;             /* its name */
	int funclike;           /* `NAME(c)`: the condition is its argument */
	int likely;             /* the attribute it stood for there */
	const char *why;        /* NULL: a hint to count; else why not */
};

/*! lp_attr_macro_uses() :
 *  The uses of @m's macros in @lx (code, not directives), in token
 *  order, into *@uses (the caller frees it), each with the attribute the
 *  compiler put on its line: the attributes of that line (written or
 *  spelled by a macro) must be as many as the compiler's, in the same
 *  order, else the use is not counted (its why says so).  A use on a
 *  line where the compiler put none stood for nothing in this build (a
 *  definition for compilers without the attribute) and is left out.
 *  Lines are those of @file (NULL: the unit's source) as the compiler
 *  names it, or those the line markers in @lx give.
 *  @return : how many.
 */
size_t lp_attr_macro_uses(const struct lp_attr_macros *m,
			  const struct lp_lexed *lx, const char *file,
			  struct lp_attr_use **uses);

/* A line marker of the compiler's text, as lp_cc_line_marker() reads it. */
struct lp_cc_marker {
	unsigned line;          /* the number of the line after it */
	const char *file;       /* its name, not NUL-terminated: flen bytes */
	size_t flen;            /* 0 where it names none (`#line 12`) */
	int system;             /* its flags hold 3: the system's text */
};

/*! lp_cc_skip_dot_slash() :
 *  Past the "./" that clang's line markers put before a header found
 *  beside the source ("./h1.h", where gcc writes "h1.h" and cc names it
 *  so), in the name [*@s, *@s + *@n): one file, whichever compiler wrote
 *  the text.
 */
void lp_cc_skip_dot_slash(const char **s, size_t *n);

/*! lp_cc_line_marker() :
 *  Whether the line at @s (up to @end) is a line marker, `# 12 "f" 1 3`
 *  or `#line 12 "f"`, read into @m.
 */
int lp_cc_line_marker(const char *s, const char *end, struct lp_cc_marker *m);

/*! lp_attr_macro_defines_hint() :
 *  Whether the directive whose '#' is token @dir of @lx defines one of
 *  @m's names: its body is that macro's, not a hint of its own.
 */
int lp_attr_macro_defines_hint(const struct lp_attr_macros *m,
			       const struct lp_lexed *lx, size_t dir);

/*! lp_attr_macro_partner() :
 *  The name among @m's that spells the other attribute in the same form
 *  (UNLIKELY for LIKELY, Likely for Unlikely: the same name with the
 *  word swapped), or NULL where @m has none.
 */
const char *lp_attr_macro_partner(const struct lp_attr_macros *m,
				  const char *name);

/*! lp_attr_macro_use_shape() :
 *  Whether @lx has a word where a macro spelling an attribute would
 *  stand: a name in capitals or holding "likely", after an if's or a
 *  loop's condition, an else, a label's ':' or the '{' of a block after
 *  a condition or an else, and followed by '{', a
 *  word or a prefix operator and its operand (`if (c) UNLIKELY {`,
 *  `if (c) UNLIKELY ++n;`); before a case label; or between if and
 *  its '(' (`if UNLIKELY(c)`).  The cheap test before a tree is read
 *  for such definitions.
 */
int lp_attr_macro_use_shape(const struct lp_lexed *lx);

/*! lp_attr_macro_in_body() :
 *  Whether token @i of @lx is one of @m's names in the body of another
 *  #define: a use that this reading does not follow.
 */
int lp_attr_macro_in_body(const struct lp_attr_macros *m,
			  const struct lp_lexed *lx, size_t i);

/*! lp_attr_is_hint() :
 *  1 for [[likely]], 0 for [[unlikely]] (spaces allowed) starting at
 *  token @i of @lx, else -1.
 */
int lp_attr_is_hint(const struct lp_lexed *lx, size_t i);

#endif /* LP_CC_ATTRMACRO_H */
