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
};

#define LP_CC_COPY_INIT { NULL, NULL, NULL, NULL, NULL, LP_ARGS_INIT }

/*! lp_cc_copy_make() :
 *  Writes @text (@len bytes), the copy of source argument @src, into the
 *  new folder @dir (taken over), and the options that compile it as the
 *  source would be: its own folder first for "..." includes (@clang:
 *  the compiler spells a header found beside a source of the current
 *  folder "./h.h", not "h.h"), its name for __BASE_FILE__ and the debug
 *  information, the object @out (NULL: the compiler's default name, which
 *  the copy's name would change; @assembly for -S), the dependency file
 *  named.  @return : 0, or -1 (with nothing left behind) where the copy
 *  cannot stand in for the source.
 */
int lp_cc_copy_make(struct lp_cc_copy *c, char *dir, const char *text,
		    size_t len, int argc, const char **argv, int src,
		    const char *out, int assembly, int clang);

/*! lp_cc_copy_done() :
 *  After the compile of the copy: names the source instead of the copy
 *  in the dependency file (when @ok), removes the copy and its folder.
 */
void lp_cc_copy_done(struct lp_cc_copy *c, int ok);

#endif /* LP_CC_COPY_H */
