/*
 * group.h - one counter for hints that always run together
 *
 * likelyprof cc puts itself in front of gcc's assembler (tools/cmd-as.c);
 * this pass reads the assembler text of an instrumented unit and finds
 * straight runs of counting stubs: two or more increments with nothing
 * between them that jumps, calls, returns or is jumped to, so all of them
 * run exactly as often.  jemalloc's free() starts with three folded
 * hints in a row.  A run keeps one increment, of a counter made for the
 * run, and leaves records that tell the runtime to add that counter to
 * each member's field when it sums (lib/runtime/runtime.c, "aliases").  Inlined
 * copies of a function share their counters, so a run cannot keep one of
 * its members' own counters.  See doc/DESIGN.md, "Runs of hints".
 */
#ifndef LP_AS_GROUP_H
#define LP_AS_GROUP_H

#include <stddef.h>

struct lp_group_stats {
	size_t stubs;    /* counting stubs found */
	size_t runs;     /* runs of two or more */
	size_t removed;  /* increments the runs saved */
};

/*
 * Rewrites the assembler text @text (@len bytes) into *@out (*@out_len
 * bytes; the caller frees it).  Returns 1 and leaves *@out NULL when the
 * text is to be assembled as it is: no run, or a shape the pass does not
 * know, which it never guesses at.  0 when *@out holds the new text.
 */
int lp_group_asm(const char *text, size_t len, char **out, size_t *out_len,
		 struct lp_group_stats *stats);

#endif /* LP_AS_GROUP_H */
