/*
 * unit.h - one source's compile under likelyprof cc (tools/cc/unit.c),
 * and the command's state that cmd-cc.c fills and unit.c reads
 */
#ifndef LP_CC_UNIT_H
#define LP_CC_UNIT_H

#include "cc/args.h"
#include "cc/copy.h"
#include "cc/hintmacro.h"
#include "cc/unseen.h"
#include "spawn.h"

/* One run of likelyprof cc: what the user asked, what we add. */
struct lp_cc {
	struct lp_args compiler;       /* the real compiler's words */
	int argc;
	const char **argv;          /* the user's arguments */
	enum lp_arg_kind *kind;
	const char **lang;
	struct lp_cc_mode m;
	struct lp_args instrument;     /* -D..., -include, -mtls-dialect */
	struct lp_args group;          /* the assembler pass: -B, clang's -f */
	struct lp_args link;           /* the runtime, after the user's args */
	struct lp_args plain_lines;    /* -DLP_PLAIN_LINE_<n>=1, owned */
	int colour;                 /* the plain run must ask for colour */
	const struct lp_cc_copy *copy; /* compiled instead of the source */
	const char *diag_deps;      /* the diagnostics compile's -MMD file */
	int loud;                   /* the instrumented compile keeps the
				     * user's warnings (and writes
				     * diag_deps where set) */
	struct lp_args expand;      /* STEP_EXPAND's own options */
	struct lp_hint_macros macros;  /* --hint-macro */
	struct lp_unseen_forms forms;  /* what the unit compiled is read for */
	int clang;                  /* -1 until asked */
	char *scratch;              /* a folder, made on first use */
	unsigned scratch_files;
	char *owned[8];             /* strings the args point into */
	size_t nowned;
};

/*! lp_cc_compile_unit() :
 *  Compiles source argument @src into @out (NULL: where the compiler
 *  puts it): once, instrumented, where that compile is silent; else
 *  plain for the diagnostics, then instrumented, with the fallbacks of
 *  unit.c's top.  @return : the compiler's exit status, as
 *  the plain build's would be.
 */
int lp_cc_compile_unit(struct lp_cc *cc, int src, const char *out);

/* A new path in the scratch folder ending in @suffix, or NULL. */
char *lp_cc_scratch_path(struct lp_cc *cc, const char *suffix);

/* Removes the scratch folder and whatever the compiler left in it. */
void lp_cc_scratch_remove(struct lp_cc *cc);

#endif /* LP_CC_UNIT_H */
