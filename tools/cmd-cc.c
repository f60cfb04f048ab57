/*
 * cmd-cc.c - `likelyprof cc`, `likelyprof c++` and the launcher form
 *
 * Runs the real compiler with the instrumentation added:
 *
 *   compiling or preprocessing C/C++   -DLIKELYPROF_INSTRUMENT
 *                                      -include <dir>/likelyprof.h
 *   linking (programs and -shared)     -L<libdir> -Wl,-rpath,<libdir>
 *                                      -llikelyprof (kept by --as-needed)
 *
 * and never changes what the build says or whether it succeeds.  A C
 * source file is compiled once, instrumented, where that compile
 * succeeds and says nothing (tools/cc/unit.c says when).  Otherwise it
 * is compiled plain, into a scratch folder, for the diagnostics and the
 * verdict (they are then the plain build's, in any language and locale,
 * every duplicate a template prints kept), and instrumented with -w
 * into the real output.  A plain failure is the user's error and is
 * shown as the plain compiler shows it.  An instrumented failure after
 * a plain success is ours (C has no way to declare a site's objects at
 * file scope): that one file is compiled plain, with a note.  No
 * compiler message is ever parsed for its words.
 * A command that compiles several files and links them is split into one
 * compile per file and a link, so only a file that cannot be
 * instrumented loses its sites.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "cc/args.h"
#include "cc/find.h"
#include "cc/hintmacro.h"
#include "cc/unit.h"
#include "spawn.h"
#include "usage.h"

static const char usage_cc[] =
	"usage: likelyprof cc [<compiler args>]        runs $CC, or cc\n"
	"       likelyprof-cc [<compiler args>]        the same, for CC=\n"
	"       likelyprof <compiler> [<args>]         launcher form\n"
	"       likelyprof ccache <compiler> [<args>]  through ccache\n"
	"\n"
	"Compiles C with every __builtin_expect counted, links the runtime.\n"
	"   make CC=\"likelyprof cc\"          make CC=\"likelyprof ccache cc\"\n"
	"   cmake -DCMAKE_C_COMPILER_LAUNCHER=\"likelyprof;ccache\" \\\n"
	"         -DCMAKE_C_LINKER_LAUNCHER=likelyprof ..\n"
	"   CC=likelyprof-cc meson setup build\n"
	"With -DLIKELYPROF_ALL_BRANCHES, every if of C code is counted too.\n"
	"-m32: the runtime of 'make lib32'.\n"
	"\n"
	"   --hint-macro NAME[=1|0]  count each NAME(x) of the source, a macro\n"
	"                            that never reaches __builtin_expect\n"
	"                            (sqlite's likely), as that hint; without\n"
	"                            =, 0 when NAME holds \"unlikely\", else 1\n"
	"\n"
	"Environment: LIKELYPROF_INCLUDE_DIR, LIKELYPROF_LIB_DIR override\n"
	"where the header and the runtime are found; LIKELYPROF_GROUP=off\n"
	"leaves gcc's assembler text as it is (one counter per run of hints\n"
	"otherwise).\n";

static const char usage_cxx[] =
	"usage: likelyprof c++ [<compiler args>]       runs $CXX, or c++\n"
	"       likelyprof-c++ [<compiler args>]       the same, for CXX=\n"
	"       likelyprof <compiler> [<args>]         launcher form\n"
	"       likelyprof ccache <compiler> [<args>]  through ccache\n"
	"\n"
	"Compiles C++ with every __builtin_expect counted, links the runtime.\n"
	"   make CXX=\"likelyprof c++\"        make CXX=\"likelyprof ccache c++\"\n"
	"   cmake -DCMAKE_CXX_COMPILER_LAUNCHER=\"likelyprof;ccache\" \\\n"
	"         -DCMAKE_CXX_LINKER_LAUNCHER=likelyprof ..\n"
	"   CXX=likelyprof-c++ meson setup build\n"
	"-m32: the runtime of 'make lib32'.\n"
	"\n"
	"   --hint-macro NAME[=1|0]  count each NAME(x) of the source, a macro\n"
	"                            that never reaches __builtin_expect, as\n"
	"                            that hint (likelyprof cc --help)\n"
	"\n"
	"Environment: LIKELYPROF_INCLUDE_DIR, LIKELYPROF_LIB_DIR override\n"
	"where the header and the runtime are found.\n";

/*
 * Set in the environment of every compiler we start.  A likelyprof that
 * finds it was reached from the compiler it ran (a $CC that leads back,
 * ccache finding a masquerading likelyprof): it then only runs the real
 * compiler, so no spelling of CC can make the wrapper recurse.
 */
#define LP_CC_MARKER "LIKELYPROF_IN_CC"

/* --- one command -------------------------------------------------------- */

static const char *own(struct lp_cc *cc, char *s)
{
	if (cc->nowned == sizeof(cc->owned) / sizeof(cc->owned[0]))
		lp_bug("too many strings");
	cc->owned[cc->nowned++] = s;
	return s;
}
/*
 * The whole command with the instrumentation added (for preprocessing,
 * pure links, a source on stdin), or as it is.
 */
static int run_whole(const struct lp_cc *cc, int instrument, int link)
{
	struct lp_args a = LP_ARGS_INIT;
	int i, status;

	lp_args_append(&a, &cc->compiler);
	if (instrument) {
		lp_args_append(&a, &cc->instrument);
		lp_args_append(&a, &cc->group);
	}
	for (i = 0; i < cc->argc; i++)
		lp_args_push(&a, cc->argv[i]);
	if (link)
		lp_args_append(&a, &cc->link);
	status = lp_run(&a, -1, -1);
	free(a.v);
	return status;
}

/*
 * Compiles every source of a command that also links into the scratch
 * folder, then links the objects in the places of their sources, with the
 * runtime.  As gcc does, every file is compiled even when one fails, and
 * then nothing is linked.
 */
static int compile_and_link(struct lp_cc *cc)
{
	struct lp_args a = LP_ARGS_INIT;
	char **obj = lp_xcalloc((size_t)cc->argc, sizeof(*obj));
	int i, status = 0;

	for (i = 0; i < cc->argc; i++) {
		int st;

		if (cc->kind[i] != LP_ARG_SOURCE &&
		    cc->kind[i] != LP_ARG_OTHER_SRC)
			continue;
		obj[i] = lp_cc_scratch_path(cc, ".o");
		if (!obj[i]) {
			status = LP_EXIT_ERROR;
			break;
		}
		st = lp_cc_compile_unit(cc, i, obj[i]);
		if (st && !status)
			status = st;
	}
	if (!status) {
		lp_args_append(&a, &cc->compiler);
		for (i = 0; i < cc->argc; i++) {
			if (obj[i])
				lp_args_push(&a, obj[i]);
			else if (cc->kind[i] == LP_ARG_LANG)
				i += !cc->argv[i][2];
			else
				lp_args_push(&a, cc->argv[i]);
		}
		lp_args_append(&a, &cc->link);
		status = lp_run(&a, -1, -1);
	}
	for (i = 0; i < cc->argc; i++)
		free(obj[i]);
	free(obj);
	free(a.v);
	return status;
}

/*
 * The runtime's flags.  After the user's objects, so the linker has seen
 * the references; --no-as-needed because a program whose only sites sit
 * in a shared library has no reference of its own.
 */
static int add_runtime(struct lp_cc *cc, const char *lib)
{
	const struct lp_cc_mode *m = &cc->m;
	const char *dir = lib;
	const char *file = m->is_static ? "liblikelyprof.a"
					: "liblikelyprof.so";

	if (m->multilib) {
		dir = own(cc, lp_xstrfmt("%s/%s", lib, m->multilib));
		if (!lp_cc_file_exists(dir, file))
			return lp_error("no -m%s runtime: '%s/%s' is missing "
					"(build it with 'make lib%s' and "
					"install it)", m->multilib, dir, file,
					m->multilib);
	}
	if (m->is_static) {
		lp_args_push(&cc->link,
			     own(cc, lp_xstrfmt("%s/%s", dir, file)));
	} else {
		lp_args_push(&cc->link, own(cc, lp_xstrfmt("-L%s", dir)));
		lp_args_push(&cc->link,
			     own(cc, lp_xstrfmt("-Wl,-rpath,%s", dir)));
		lp_args_push(&cc->link, "-Wl,--push-state,--no-as-needed");
		lp_args_push(&cc->link, "-llikelyprof");
		lp_args_push(&cc->link, "-Wl,--pop-state");
	}
	if (!m->nostdlib)
		lp_args_push(&cc->link, "-pthread");
	lp_args_push(&cc->link, "-ldl");
	return 0;
}

/*
 * Whether the plain compile, whose stderr is a file, must ask for colour:
 * when the user's compiler would colour it by itself (gcc and clang on a
 * terminal whose TERM is not dumb), unless the user said otherwise.
 */
static int wants_colour(const struct lp_cc_mode *m)
{
	const char *term = getenv("TERM"), *gcc_colors = getenv("GCC_COLORS");

	if (m->colour && strcmp(m->colour, "-fdiagnostics-color=auto"))
		return 0;
	return isatty(2) && term && strcmp(term, "dumb") &&
	       !(gcc_colors && !*gcc_colors);
}

/*
 * The compiler's own word: after the launchers (ccache), before the
 * options run_command() adds (-idirafter DIR).
 */
static const char *driver_name(const struct lp_cc *cc)
{
	size_t k = 0;

	while (k + 1 < cc->compiler.n && lp_cc_is_launcher(cc->compiler.v[k]))
		k++;
	return cc->compiler.v[k];
}

/* True when every source to instrument is C (the pass knows C's stubs). */
static int only_c_sources(const struct lp_cc *cc)
{
	const char *name = driver_name(cc);
	int i;

	if (strstr(lp_cc_base_name(name), "++"))
		return 0;       /* a C++ driver compiles .c as C++ */
	for (i = 0; i < cc->argc; i++)
		if (cc->kind[i] == LP_ARG_SOURCE &&
		    (cc->lang[i] ? strcmp(cc->lang[i], "c") :
				   !lp_cc_ends_with(cc->argv[i], ".c")))
			return 0;
	return 1;
}

/*
 * A compiler that assembles in process (clang) hands its text to an
 * assembler, the pass's, when told -fno-integrated-as; gcc rejects the
 * option.  A name that says gcc or clang spares the probe, some 40 ms
 * of CPU in each compile (a tenth of a small unit's).
 */
static int assembles_in_process(const struct lp_cc *cc)
{
	const char *name = lp_cc_base_name(driver_name(cc));
	char *real = realpath(driver_name(cc), NULL);
	const char *rname = real ? lp_cc_base_name(real) : "";
	int gcc = strstr(name, "gcc") || strstr(name, "g++") ||
		  strstr(rname, "gcc") || strstr(rname, "g++");
	int clang = strstr(name, "clang") || strstr(rname, "clang");

	free(real);
	return !gcc && (clang || lp_cc_accepts_option(&cc->compiler,
						      "-fno-integrated-as"));
}

/*
 * The assembler through ours, which gives each straight run of counting
 * stubs one counter (tools/cmd-as.c): -B names the folder whose "as"
 * links to this command, the same folder in every compile, so ccache
 * still hits; clang, which assembles by itself, is told to use it for C
 * units.  Not with LTO (no stubs), nor with LIKELYPROF_GROUP=off, nor
 * when the link is missing or is another likelyprof, nor beside a -B of
 * the project's.
 */
static void group_runs(struct lp_cc *cc, const char *lib)
{
	const char *env = getenv("LIKELYPROF_GROUP");
	char *as = lp_xstrfmt("%s/likelyprof-as/as", lib);
	int i, own_b = 0;

	/* the project's own -B may bring its own assembler: keep it */
	for (i = 0; i < cc->argc; i++)
		own_b |= !strncmp(cc->argv[i], "-B", 2);
	if ((!env || strcmp(env, "off")) && !cc->m.lto && !own_b &&
	    lp_is_self(as)) {
		lp_args_push(&cc->group, own(cc, lp_xstrfmt(
			"-B%s/likelyprof-as/", lib)));
		if (!cc->m.assembly && only_c_sources(cc) &&
		    assembles_in_process(cc))
			lp_args_push(&cc->group, "-fno-integrated-as");
	}
	free(as);
}

/* The defines that choose the counters' form in likelyprof.h. */
static void tls_initial_exec(struct lp_cc *cc, const struct lp_cc_mode *m)
{
	lp_args_push(&cc->instrument, "-DLIKELYPROF_TLS_INITIAL_EXEC");
	if (m->data_sections)
		lp_args_push(&cc->instrument, "-DLIKELYPROF_DATA_SECTIONS");
}

static int run_command(struct lp_cc *cc)
{
	const struct lp_cc_mode *m = &cc->m;
	int i, status = 0, instrument, link;
	char *inc = NULL, *lib = NULL;

	instrument = !m->info_only && m->sources && !m->syntax_only;
	link = !m->info_only && !m->compile_only && !m->preprocess &&
	       !m->syntax_only && (m->sources || m->other_sources ||
				   m->inputs);
	if (!instrument && !link)
		return run_whole(cc, 0, 0);
	if (lp_cc_find_dirs(&inc, &lib)) {
		status = LP_EXIT_ERROR;
		goto out;
	}
	/*
	 * A project may include <likelyprof.h> for likely() itself, in
	 * every step (the plain one for diagnostics too, and -M): searched
	 * last, the folder shadows none of its headers.
	 */
	lp_args_push(&cc->compiler, "-idirafter");
	lp_args_push(&cc->compiler, inc);
	if (instrument) {
		lp_args_push(&cc->instrument, "-DLIKELYPROF_INSTRUMENT");
		lp_args_push(&cc->instrument, "-include");
		lp_args_push(&cc->instrument,
			  own(cc, lp_xstrfmt("%s/likelyprof.h", inc)));
		/* counters named in asm text would meet in one LTO unit */
		if (m->lto)
			lp_args_push(&cc->instrument, "-DLIKELYPROF_NO_ANCHOR");
		if (m->pic && lp_cc_pic_tls_initial_exec())
			tls_initial_exec(cc, m);
		else if (m->pic && lp_cc_accepts_option(&cc->compiler,
						"-mtls-dialect=gnu2"))
			lp_args_push(&cc->instrument, "-mtls-dialect=gnu2");
		group_runs(cc, lib);
	}
	if (link && add_runtime(cc, lib)) {
		status = LP_EXIT_ERROR;
		goto out;
	}
	cc->colour = wants_colour(m);
	if (m->preprocess || m->from_stdin || !instrument ||
	    (m->compile_only && m->has_output &&
	     m->sources + m->other_sources > 1)) {
		/* one run: nothing to split, or gcc's own error to show */
		status = run_whole(cc, instrument, link);
	} else if (link) {
		status = compile_and_link(cc);
	} else {
		const char *out = NULL;

		for (i = 0; i < cc->argc; i++)
			if (cc->kind[i] == LP_ARG_OUTPUT)
				out = cc->argv[i][2] ? cc->argv[i] + 2
				      : i + 1 < cc->argc ? cc->argv[i + 1]
							 : NULL;
		for (i = 0; i < cc->argc; i++) {
			int st;

			if (cc->kind[i] != LP_ARG_SOURCE &&
			    cc->kind[i] != LP_ARG_OTHER_SRC)
				continue;
			st = lp_cc_compile_unit(cc, i, out);
			if (st && !status)
				status = st;
		}
	}
out:
	lp_cc_scratch_remove(cc);
	free(inc);
	free(lib);
	return status;
}

int cmd_cc(int argc, const char **argv)
{
	const char *name = argv[0];
	int reentered = getenv(LP_CC_MARKER) != NULL;
	int is_cc = !strcmp(name, "cc"), is_cxx = !strcmp(name, "c++");
	struct lp_cc cc;
	char *words = NULL, *found = NULL;
	size_t i;
	int status;

	if (lp_wants_help(argc, argv) && (is_cc || is_cxx)) {
		fputs(is_cc ? usage_cc : usage_cxx, stdout);
		return LP_EXIT_OK;
	}
	memset(&cc, 0, sizeof(cc));
	/* ours, before the compiler's: a bad one compiles nothing */
	argc = lp_hint_macros_take(&cc.macros, argc, argv,
				   is_cxx ? usage_cxx : usage_cc);
	if (!lp_cc_tls_setting_valid()) {
		lp_error("LIKELYPROF_TLS is '%s'; it may be 'initial-exec' "
			 "(the default) or 'dynamic'",
			 getenv("LIKELYPROF_TLS"));
		return LP_EXIT_ERROR;
	}
	cc.clang = -1;
	argc--;
	argv++;
	if (is_cc || is_cxx) {
		words = lp_cc_compiler_from_env(&cc.compiler, is_cc ? "CC" : "CXX",
					  is_cc ? "cc" : "c++", reentered);
	} else {
		/* launcher form: likelyprof [ccache] COMPILER args */
		lp_args_push(&cc.compiler, name);
		if (lp_cc_is_launcher(name) && argc &&
		    argv[0][0] != '-') {
			lp_args_push(&cc.compiler, argv[0]);
			argc--;
			argv++;
		}
	}
	found = lp_find_program(cc.compiler.v[0]);
	cc.compiler.v[0] = found;
	if (setenv(LP_CC_MARKER, "1", 1))
		return lp_error("cannot set %s: %s", LP_CC_MARKER,
				strerror(errno)) ? LP_EXIT_ERROR : 0;

	cc.argc = argc;
	cc.argv = argv;
	cc.kind = lp_xcalloc((size_t)argc + 1, sizeof(*cc.kind));
	cc.lang = lp_xcalloc((size_t)argc + 1, sizeof(*cc.lang));
	lp_cc_scan_args(argc, argv, cc.kind, cc.lang, &cc.m);
	/* reached from the compiler we ran: the outer run instruments */
	status = reentered ? run_whole(&cc, 0, 0) : run_command(&cc);

	free(cc.kind);
	free(cc.lang);
	free(cc.compiler.v);
	free(cc.instrument.v);
	free(cc.group.v);
	free(cc.link.v);
	free(cc.plain_lines.v);
	lp_hint_macros_release(&cc.macros);
	for (i = 0; i < cc.nowned; i++)
		free(cc.owned[i]);
	free(found);
	free(words);
	return status;
}
