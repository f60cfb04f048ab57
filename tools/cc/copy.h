/*
 * copy.h - compiling the rewritten copy of a source (tools/cc/copy.c)
 */
#ifndef LP_CC_COPY_H
#define LP_CC_COPY_H

#include <stddef.h>

#include "spawn.h"

struct lp_cc_copy {
	char *dir;              /* a folder of its own in the scratch folder */
	char *path;             /* dir/<the source's base name> */
	char *out;              /* the object, always named */
	char *deps;             /* the dependency file to mend, or NULL */
	const char *src;        /* the source, as the user named it */
	struct lp_args args;    /* -iquote, -ffile-prefix-map, -MF; owned */
	int expanded;           /* the unit with its includes (expand.c) */
};

#define LP_CC_COPY_INIT { NULL, NULL, NULL, NULL, NULL, LP_ARGS_INIT, 0 }

/* How lp_cc_copy_make() compiles the copy. */
#define LP_CC_COPY_ASSEMBLY 0x1 /* -S: the default output is .s */
#define LP_CC_COPY_CLANG    0x2 /* clang spells a header "./h.h" */
#define LP_CC_COPY_EXPANDED 0x4 /* holds its includes: no dependency file
				   (the expanding run wrote it), and gcc
				   reads it as preprocessed */

/*! lp_cc_copy_make() :
 *  Writes @text (@len bytes), the copy of source argument @src, into the
 *  new folder @dir (taken over), and the options that compile it as the
 *  source would be: its own folder first for "..." includes (clang:
 *  the compiler spells a header found beside a source of the current
 *  folder "./h.h", not "h.h"), its name for __BASE_FILE__ and the debug
 *  information, the object @out (NULL: the compiler's default name, which
 *  the copy's name would change), the dependency file named; @flags are
 *  LP_CC_COPY_*.  @return : 0, or -1 (with nothing left behind) where the copy
 *  cannot stand in for the source.
 */
int lp_cc_copy_make(struct lp_cc_copy *c, char *dir, const char *text,
		    size_t len, int argc, const char **argv, int src,
		    const char *out, unsigned flags);

/*! lp_cc_copy_done() :
 *  After the compile of the copy: names the source instead of the copy
 *  in the dependency file (when @ok), removes the copy and its folder.
 */
void lp_cc_copy_done(struct lp_cc_copy *c, int ok);

/*! lp_cc_deps_file() :
 *  The dependency file the user's options @argv ask for: -MF's,
 *  -Wp,-MD,'s, or for a bare -MD/-MMD (*@bare set) the compilers'
 *  default beside the object @out, its suffix made .d.  NULL when there
 *  is none; else the caller frees it.
 */
char *lp_cc_deps_file(int argc, const char **argv, const char *out,
		      int *bare);

/* The compilers' own name for the output of @src: base.o, base.s. */
char *lp_cc_object_name(const char *src, int assembly);

/* @path with its last suffix (after the last '/') made @suffix. */
char *lp_cc_with_suffix(const char *path, const char *suffix);

#endif /* LP_CC_COPY_H */
