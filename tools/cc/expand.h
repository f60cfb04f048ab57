/*
 * expand.h - the hint forms of a unit's own headers, counted in the
 * unit's text with its includes expanded (tools/cc/expand.c)
 */
#ifndef LP_CC_EXPAND_H
#define LP_CC_EXPAND_H

#include <stddef.h>

#include "cc/unseen.h"
#include "spawn.h"

/* What the headers of one unit hold that the header cannot see. */
struct lp_cc_header_hints {
	struct lp_unseen sum;   /* the counts of the forms a copy counts,
				   summed over the headers (no copy) */
	char counted_what[160]; /* those, in words (unseen.c) */
	char note[480];         /* "h.h: what it leaves (why)", or "" */
	char also[240];         /* the other headers that leave forms:
				   ", h2.h, h3.h", or "" */
	unsigned nalso;         /* how many, named in also or not */
	int macros_left;        /* a header leaves hint macro calls */
};

/*
 * What an expanded unit leaves of its [[likely]]/[[unlikely]], read in
 * the text the instrumented compile reads (gcc has decided its #if
 * groups there, which the files' own text leaves open), by file.
 */
struct lp_cc_expanded_left {
	char source[400];       /* the source's "N of M ... (...)", or "" */
	struct lp_cc_header_hints headers;  /* note, also, nalso: the
				   headers' */
};

struct lp_attr_macros;

/*! lp_cc_attr_macro_names() :
 *  The names that the #defines of source @src and of the headers of the
 *  dependency file @deps (NULL: none) make [[likely]] or [[unlikely]],
 *  into @am (attrmacro.c).  @return : 1 where there are some, or where
 *  those files may use one a system header defines
 *  (lp_attr_macro_use_shape()), else 0.
 */
int lp_cc_attr_macro_names(struct lp_attr_macros *am, const char *src,
			   const char *deps);

/*! lp_cc_header_hints() :
 *  Reads the dependency file @deps (one make rule, as -MMD writes it:
 *  the source, then the headers not of the system) and each header in
 *  it for the forms @f that unseen.c reads in a source.
 *  @return : 0, or -1 where @deps cannot be read (then @h says nothing).
 */
int lp_cc_header_hints(struct lp_cc_header_hints *h, const char *deps,
		       const struct lp_unseen_forms *f);

/*! lp_cc_deps_files() :
 *  The prerequisites of the first rule of the make text @s (@len bytes,
 *  changed in place: the quoting of spaces, '#' and '$' undone), into
 *  *@files (pointers into @s; the caller frees the array).
 *  @return : how many.
 */
size_t lp_cc_deps_files(char *s, size_t len, char ***files);

/*! lp_cc_expand_options() :
 *  Into @a, what makes a compile of the user's options print the unit
 *  with its includes expanded and its macros kept (@clang: the option's
 *  name differs), to @raw: and when the user's options ask for a
 *  dependency file, the options that write it as their compile would
 *  (its name beside @out for a bare -MD/-MMD, the target @out).  The
 *  strings are owned by @a (lp_args_release_owned()).
 */
void lp_cc_expand_options(struct lp_args *a, int argc, const char **argv,
			  const char *out, const char *raw, int clang);

/*! lp_cc_expanded_copy() :
 *  The expanded unit @raw (@len bytes) with the forms of its source and
 *  of its headers not of the system (a line marker's flag 3) rewritten as
 *  unseen.c rewrites a source's, named @src in its first #line, into
 *  *@copy (the caller frees it) and *@copy_len; what it leaves of the
 *  attributes of each file into @left.
 *  @return : 1 when a form was rewritten; 0 (nothing allocated) else.
 */
int lp_cc_expanded_copy(const char *raw, size_t len, const char *src,
			const struct lp_unseen_forms *f, char **copy,
			size_t *copy_len, struct lp_cc_expanded_left *left);

#endif /* LP_CC_EXPAND_H */
