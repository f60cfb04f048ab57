/*
 * locate.h - find the source of each profiled site in a tree
 *
 * A profile names a site by file, line and function as the compiler saw
 * them, possibly on another machine (an absolute path), in a build
 * folder (a relative one), or as the kernel prints it (a base name), and
 * possibly for another version of the code.  The locator turns that into
 * one annotation token in one file under --src, or a reason why it cannot
 * say which without doubt:
 *
 *  1. the file: the tree file whose path shares the longest tail with the
 *     profile's; among equals, the one that defines the function;
 *  2. the function: every definition of that name in the file (the
 *     kernel cuts names at 30 characters);
 *  3. the annotation: the profile's sites of that function, in line
 *     order, against the function's annotations in source order.  Lines
 *     that hit exactly are taken as they are; otherwise equal numbers are
 *     paired in order, then a common shift, then the condition's text,
 *     then the shift of the nearest placed site of the same file.
 *
 * An annotation is a call of likely, unlikely, LIKELY, UNLIKELY,
 * __builtin_expect or of any function-like macro of the tree whose whole
 * body is a call of one of them on its parameter (zstd's LIKELY, lz4's
 * expect); or one inside the body of a macro called from the function,
 * which the compiler reports at the line of the call; or a C++20
 * [[likely]]/[[unlikely]] that likelyprof cc counts (tools/cc/attr.c),
 * on its if, while or for: no call, but the same evidence places it.
 *
 * Safety: the tree is walked without following symbolic links, files are
 * opened with O_NOFOLLOW and checked to resolve inside the tree; a path
 * from the profile is only ever compared with the walked names, never
 * opened.
 */
#ifndef LP_FIX_LOCATE_H
#define LP_FIX_LOCATE_H

#include <stddef.h>
#include <sys/stat.h>

#include "cc/attr.h"
#include "fix/lexer.h"
#include "policy.h"

/* A spelling of __builtin_expect. */
struct lp_hint {
	char *name;
	long expect;            /* 1 or 0; LP_EXPECT_UNKNOWN: from value_arg */
	int nargs;
	int cond_arg;           /* the argument that is the condition */
	int value_arg;          /* the argument holding the value, or -1 */
	int is_default;         /* likely, unlikely, LIKELY, UNLIKELY */
	int attribute;          /* C++20's [[likely]]/[[unlikely]]: no call */
	/*
	 * A spelling of __builtin_expect_with_probability (stated), and the
	 * argument that gives the probability, or -1 where the spelling's
	 * own body holds the number.
	 */
	int stated;
	int prob_arg;
	const char *partner;    /* an attribute's spelling the other way,
				   or NULL where the tree has none */
	/*
	 * What the spelling writes around the condition's argument in the
	 * condition it hands __builtin_expect (abseil's `false || (x)`:
	 * "false || (" and ")"), or NULL: the profile records that.
	 */
	char *cond_pre, *cond_post;
};

/* A file of the tree, loaded on demand. */
struct lp_srcfile {
	char *rel;              /* path under the root, '/'-separated */
	int is_link;            /* a symbolic link: never read */
	int loaded;
	char *buf;
	size_t len;
	struct lp_lexed lx;
	struct stat st;         /* as read, to notice a change before --apply */
	struct lp_func *funcs;
	size_t nfuncs;
	char *revs;             /* its git revisions, read on first need */
	struct lp_attr_site *attrs;     /* its counted attributes, once */
	size_t nattrs;
	int attrs_read;
};

struct lp_func {
	char *name;             /* "f", "~A", "operator==", or a macro's */
	size_t name_tok, open, close;   /* tokens: name, '{', '}' */
	int macro_name;         /* a macro builds or stands for the name */
};

/* What placed a site, strongest first. */
enum lp_place_how {
	LP_PLACED_LINE = 1,     /* an annotation at its line */
	LP_PLACED_ORDER,        /* as many sites as annotations, in order */
	LP_PLACED_SHIFT,        /* one shift puts every site on one */
	LP_PLACED_COND,         /* the condition's text */
	LP_PLACED_HISTORY,      /* the profiled revision, mapped forward */
	LP_PLACED_NEIGHBOUR,    /* the shift of a placed site nearby */
	LP_PLACED_NEAREST,      /* the nearest annotation of its function */
};

/* Where one profiled site is in the tree, or why that is not known. */
struct lp_place {
	int placed;
	enum lp_place_how how;
	char *reason;           /* when !placed; owned */
	struct lp_srcfile *file;        /* the file holding the annotation */
	size_t tok;             /* its hint's name token */
	const struct lp_hint *hint;
	long expect;            /* the annotation's value, if known */
	struct lp_srcfile *call_file;   /* the profile's file, found */
	const struct lp_func *fn;       /* the function of the tree there */
	unsigned line;          /* the site's line in call_file */
	const char *macro;      /* the macro whose body holds it, or NULL */
	int opposite;           /* the tree's points the other way */
	char *changed;          /* why history says it changed, or NULL */
	char *quoted;           /* the commit that quotes its row, or NULL */
	struct lp_attr_site attr;       /* where hint->attribute: tok is
					   its first attribute's '[' */
};

struct lp_tree;
struct lp_hint_macros;

/*! lp_tree_open() :
 *  Walks @src (not following symlinks, skipping .git) and reads the
 *  tree's spellings of __builtin_expect; the names of @macros (NULL:
 *  none), which cc --hint-macro counted, are spellings too.
 *  @return : the tree, or NULL with *@err set to a message to free.
 */
struct lp_tree *lp_tree_open(const char *src,
			     const struct lp_hint_macros *macros, char **err);
void lp_tree_free(struct lp_tree *t);

/* The tree's real path. */
const char *lp_tree_root(const struct lp_tree *t);

/*! lp_tree_place() :
 *  Places every site of @sites; @out has @sites->nr entries.  In a git
 *  work tree, a site to change whose row a commit's message quotes (as
 *  fix writes them) gets that commit in ->quoted: the profile is older
 *  than the commit that changed it.
 */
void lp_tree_place(struct lp_tree *t, const struct lp_judged_list *sites,
		   struct lp_place *out);
void lp_place_release(struct lp_place *p, size_t n);

/*! lp_history_flipped() :
 *  In a git work tree: the commit that last changed line @line of @f,
 *  if that change swapped @name and @other (a flip), as "abbrev
 *  (\"subject\")" to free; else NULL.  A kernel table does not say which
 *  way the profiled kernel had an annotation, so a line flipped since
 *  is not flipped back on its word.
 */
char *lp_history_flipped(struct lp_tree *t, const struct lp_srcfile *f,
			 unsigned line, const char *name, const char *other);

/*! lp_tree_constant_function() :
 *  The file of the tree that defines a function @name whose body
 *  returns a constant (a number, true or false) on some path: under one
 *  configuration the compiler may fold a branch on it.
 *  @return : the file's path in the tree, or NULL.
 */
const char *lp_tree_constant_function(struct lp_tree *t, const char *name);

/*! lp_place_condition() :
 *  The tokens [*@from, *@to) of the condition that the placed, direct
 *  annotation @pl tests, without the negations and parentheses around
 *  it: seed 003's likely(!(worker->flags & WORKER_NOT_RUNNING)) and
 *  unlikely(worker->flags & WORKER_NOT_RUNNING) test one thing.
 *  @return : 0, or -1 when the call has no such argument.
 */
int lp_place_condition(const struct lp_place *pl, size_t *from, size_t *to);

/*! lp_condition_call() :
 *  The name of the function that tokens [from, to) call when that call
 *  is all of them, to free; else NULL.
 */
char *lp_condition_call(const struct lp_lexed *lx, size_t from, size_t to);

/*! lp_tree_hints() :
 *  The spellings known in the tree; flip uses them to find an opposite.
 */
const struct lp_hint *lp_tree_hint(const struct lp_tree *t,
				   const char *name);

/*! lp_srcfile_load() :
 *  Reads and lexes @f if it is not yet.
 *  @return : 0, or -1 with *@err set to a message to free.
 */
int lp_srcfile_load(struct lp_tree *t, struct lp_srcfile *f, char **err);

/* The path of @f as the caller should print it: <src>/<rel>. */
char *lp_tree_path(const struct lp_tree *t, const struct lp_srcfile *f);

#endif /* LP_FIX_LOCATE_H */
