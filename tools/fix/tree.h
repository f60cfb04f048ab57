/*
 * tree.h - what the parts of the locator share: the tree, its spellings
 * and annotated macros, and the token helpers that reading names and
 * finding annotations both need
 *
 * Internal to tools/fix/: tree.c walks and reads the tree and learns its
 * spellings, names.c reads the names of C and C++ functions, locate.c
 * weighs the evidence for each site, history.c asks git.
 */
#ifndef LP_FIX_TREE_H
#define LP_FIX_TREE_H

#include "cc/attrmacro.h"
#include "fix/locate.h"

/* One annotation inside a macro body, found by byte offset. */
struct lp_mtarget {
	struct lp_srcfile *file;
	size_t off;
	const struct lp_hint *hint;
	long expect;
};

/* A macro whose body holds annotations. */
struct lp_amacro {
	char *name;
	int funclike;
	struct lp_mtarget *t;
	size_t nt;
	char **callees;         /* other names called in the body */
	size_t ncallees;
	int resolving, resolved;
};

/* A #define that may build a function's name: see names.c. */
struct lp_name_define {
	char *name;
	int funclike;
	char **params;
	size_t nparams;
	char **body;            /* the body's tokens */
	size_t nbody;
};

struct lp_tree {
	char *src;              /* as given */
	char *real;             /* realpath */
	struct lp_srcfile *files;
	size_t nfiles, afiles;
	struct lp_hint *hints;
	size_t nhints, ahints;
	struct lp_amacro *macros;
	size_t nmacros, amacros;
	/*
	 * While the tree opens: function-like #defines that call no spelling
	 * themselves, with the names their bodies call.  TRY(v, x) calling
	 * TRY_ASSIGN, which holds the hint, is annotated through it
	 * (promote_pending() in tree.c moves it among the macros).
	 */
	struct lp_amacro *pending;
	size_t npending, apending;
	struct lp_name_define *ndefs;   /* read on first need */
	size_t nndefs;
	char **defnames;        /* every #define'd name, sorted */
	size_t ndefnames;
	int ndefs_read;
	struct lp_attr_macros attr_macros;  /* read with ndefs */
	struct lp_hint **attr_hints;    /* spellings of macros' attribute
				   sites (slots.c), owned */
	size_t nattr_hints;
	int git;                /* -1: not asked yet */
	char *messages;         /* of recent commits, read on first need */
};


/* Not in a directive nor in a group the preprocessor skips. */
int lp_tok_live(const struct lp_lexed *lx, size_t i);
/* The live token before @i, or LP_NO_MATCH. */
size_t lp_tok_prev_live(const struct lp_lexed *lx, size_t i);
/* A C or C++ keyword that may stand before '(' without being a call. */
int lp_tok_keyword(const struct lp_lexed *lx, size_t i);
/* An identifier that reads as a macro: upper case, digits, '_'. */
int lp_tok_macro_like(const struct lp_lexed *lx, size_t i);
/* Token @i is a name followed by a matched '(' before @end. */
int lp_tok_call(const struct lp_lexed *lx, size_t i, size_t end);
/* Not a member access (p->likely) nor a declaration's name. */
int lp_tok_call_position(const struct lp_lexed *lx, size_t i);

const struct lp_hint *lp_tok_hint(const struct lp_tree *t,
				  const struct lp_lexed *lx, size_t i);
/* The expected value of the hint call whose name is token @i. */
long lp_call_expect(const struct lp_lexed *lx, size_t i,
		    const struct lp_hint *h);
/* The first annotated macro named @name, and in *@count how many. */
struct lp_amacro *lp_find_macro(const struct lp_tree *t, const char *name,
				size_t len, size_t *count);
/* A C or C++ source or header, by its extension. */
int lp_c_like(const char *rel);
/* Reads @f's bytes (no lexing), safely; see tree.c. */
int lp_read_tree_file(struct lp_tree *t, struct lp_srcfile *f, char **err);
void lp_srcfile_unload(struct lp_srcfile *f);

/*! lp_find_functions() :
 *  The function definitions of @f (lexed), C and C++: see names.c.
 */
void lp_find_functions(struct lp_srcfile *f);

/* How well a definition answers to a profile's name, worst first. */
enum lp_name_match {
	LP_NAME_NO,
	LP_NAME_UNKNOWN,        /* a macro the tree does not define plainly */
	LP_NAME_PREFIXED,       /* "je_f" for f: a prefix added by a macro */
	LP_NAME_EXACT,          /* as spelled, or as its macros expand */
};

/*! lp_func_name_is() :
 *  Does the function @fn of @f go by @want in a profile?  @want is as
 *  __func__ gives it (g++ adds template arguments, which are ignored);
 *  a kernel table's names are cut at 30 characters.
 *  @return : an enum lp_name_match.
 */
int lp_func_name_is(struct lp_tree *t, const struct lp_srcfile *f,
		    const struct lp_func *fn, const char *want, int kernel);

/*! lp_profile_name_readable() :
 *  False for names that say nothing of the source's spelling
 *  ("operator()" of a lambda, "" from a kernel table without names).
 */
int lp_profile_name_readable(const char *want);

/*! lp_tree_attr_macros() :
 *  The names that the tree's #defines make [[likely]] or [[unlikely]]
 *  (cc/attrmacro.c), read with the other #defines on first need.
 */
const struct lp_attr_macros *lp_tree_attr_macros(struct lp_tree *t);

/* Does some #define of the tree define @name? */
int lp_tree_defines(struct lp_tree *t, const char *name);

/* How a profile's condition compares with the source's, worst first. */
enum lp_cond_match {
	LP_COND_DIFFERENT,
	LP_COND_UNKNOWN,        /* no text on one side */
	LP_COND_EXPANDED,       /* the same once the tree's macros expand */
	LP_COND_SAME,
};

/*! lp_cond_compare() :
 *  Compares the condition @profile recorded (preprocessed) with the
 *  source's argument @source, token-wise: see cond.c.
 *  @return : an enum lp_cond_match.
 */
int lp_cond_compare(struct lp_tree *t, const char *profile,
		    const char *source);

/* One annotation as a profile would see it. */
struct lp_slot {
	unsigned lo, hi;        /* lines a compiler may report */
	struct lp_srcfile *file;        /* where the hint token is */
	size_t off;             /* its byte offset */
	const struct lp_hint *hint;
	long expect;
	char *cond;             /* the condition's text, for direct hints */
	const char *macro;      /* the macro holding it, or NULL */
	int ambiguous;          /* a macro with several definitions */
	struct lp_srcfile *call_file;   /* the file of the function */
	const struct lp_func *fn;       /* the function it is in */
	const struct lp_attr_site *attr;        /* an attribute's, or NULL */
};

struct lp_slots {
	struct lp_slot *v;
	size_t nr, alloc;
};

/*! lp_function_slots() :
 *  Appends the annotations of @fn (a function of @f, lexed) to @out, in
 *  source order: the calls of spellings in its body, and the annotations
 *  in the bodies of the macros it calls, each with the lines a compiler
 *  may report for it.
 */
void lp_function_slots(struct lp_tree *t, struct lp_srcfile *f,
		       const struct lp_func *fn, struct lp_slots *out);
void lp_slots_release(struct lp_slots *s);

/* Is the tree in a git work tree?  Asked once. */
int lp_tree_is_git(struct lp_tree *t);

/*! lp_history_place() :
 *  For the site @p whose file in the tree is @f: the revision of @f in
 *  the git history (newest first) where @p's line is an annotation of
 *  its function, and that line mapped forward to the working tree.
 *  @return : 1 with *@slot_line set to the annotation's line now, or 0
 *            when the history does not tell; *@changed is set (to free)
 *            when the annotation's line changed since that revision.
 */
int lp_history_place(struct lp_tree *t, struct lp_srcfile *f,
		     const struct lp_judged *p, int kernel,
		     unsigned *slot_line, char **changed);

/*! lp_history_quoted() :
 *  The commit whose message quotes one of @p's rows as fix writes them.
 *  @return : "abbrev (\"subject\")" to free, or NULL.
 */
char *lp_history_quoted(struct lp_tree *t, const struct lp_judged *p);

#endif /* LP_FIX_TREE_H */
