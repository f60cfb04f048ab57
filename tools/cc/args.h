/*
 * args.h - a compiler's command line, read (tools/cc/args.c)
 */
#ifndef LP_CC_ARGS_H
#define LP_CC_ARGS_H

/* What each argument of the user's command line is. */
enum lp_arg_kind {
	LP_ARG_OPTION,     /* passed to every step */
	LP_ARG_VALUE,      /* the value of the option before it */
	LP_ARG_SOURCE,     /* C or C++ source: instrumented */
	LP_ARG_OTHER_SRC,  /* compiled, not instrumented: .S, .i, headers */
	LP_ARG_INPUT,      /* object, library: for the link only */
	LP_ARG_OUTPUT,     /* -o, its value follows */
	LP_ARG_LANG,       /* -x, its value follows */
	LP_ARG_SIDE,       /* writes a side file (-MD, -MF FILE) */
	LP_ARG_LINK        /* for the linker: clang warns of it in a compile */
};

/* What the command line asks the compiler to do. */
struct lp_cc_mode {
	int compile_only;  /* -c or -S */
	int assembly;      /* -S: the output is assembler text */
	int preprocess;    /* -E, -M, -MM: one run, output on stdout */
	int syntax_only;   /* -fsyntax-only: nothing to instrument */
	int info_only;     /* --version, -v alone, -print-*, -dump* */
	int is_static;     /* -static: link the archive */
	int pic;           /* -fPIC/-fpic without -fPIE/-fpie */
	int lto;           /* -flto: no anchored counters (likelyprof.h) */
	int data_sections; /* -fdata-sections: g++ splits the counters */
	int nostdlib;      /* no -pthread then: it adds libraries */
	int has_output;    /* -o */
	int from_stdin;    /* a source named "-" can be read once only */
	const char *multilib;  /* "32" for -m32, "x32" for -mx32 */
	int sources, other_sources, inputs;
	const char *colour;    /* the last colour option, or NULL */
};

/* By the name, as gcc decides a file's language. */
/*! lp_cc_scan_args() :
 *  Fills @kind (one per argument of @argv) and @m; @lang gets each
 *  source's -x.
 */
void lp_cc_scan_args(int argc, const char **argv, enum lp_arg_kind *kind,
		     const char **lang, struct lp_cc_mode *m);

/* Is @name (a path or a word) ccache, sccache, distcc or icecc? */
int lp_cc_is_launcher(const char *name);

/* Does @s end with @suffix? */
int lp_cc_ends_with(const char *s, const char *suffix);

/* The last part of @path. */
const char *lp_cc_base_name(const char *path);

#endif /* LP_CC_ARGS_H */
