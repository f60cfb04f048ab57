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
 * and never changes what the build says or whether it succeeds.  Each
 * source file is compiled twice: plain, into a scratch folder, for the
 * diagnostics and the verdict (they are then the plain build's, in any
 * language and locale, every duplicate a template prints kept), and
 * instrumented with -w into the real output.  A plain failure is the
 * user's error and is shown as the plain compiler shows it.  An
 * instrumented failure after a plain success is ours (C has no way to
 * declare a site's objects at file scope): that one file is compiled
 * plain, with a note.  No compiler message is ever parsed for its words.
 * A command that compiles several files and links them is split into one
 * compile per file and a link, so only a file that cannot be
 * instrumented loses its sites.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
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
	"-m32: the runtime of 'make lib32'.  Environment:\n"
	"LIKELYPROF_INCLUDE_DIR, LIKELYPROF_LIB_DIR override where the header\n"
	"and the runtime are found; LIKELYPROF_GROUP=off leaves gcc's\n"
	"assembler text as it is (one counter per run of hints otherwise).\n";

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
	"-m32: the runtime of 'make lib32'.  Environment:\n"
	"LIKELYPROF_INCLUDE_DIR, LIKELYPROF_LIB_DIR override where the header\n"
	"and the runtime are found.\n";

/*
 * Set in the environment of every compiler we start.  A likelyprof that
 * finds it was reached from the compiler it ran (a $CC that leads back,
 * ccache finding a masquerading likelyprof): it then only runs the real
 * compiler, so no spelling of CC can make the wrapper recurse.
 */
#define LP_CC_MARKER "LIKELYPROF_IN_CC"

/* Programs that run a compiler named by their first argument. */
static const char *const launchers[] = {
	"ccache", "sccache", "distcc", "icecc", NULL
};

/* Compiler options whose value is the next argument. */
static const char *const opts_with_value[] = {
	"-o", "-I", "-D", "-U", "-include", "-imacros", "-iquote", "-isystem",
	"-idirafter", "-iprefix", "-iwithprefix", "-iwithprefixbefore",
	"-isysroot", "-x", "-MF", "-MT", "-MQ", "-L", "-l", "-Xlinker",
	"-Xassembler", "-Xpreprocessor", "-Xclang", "-aux-info", "-T", "-u",
	"-z", "--param", "-arch", "-target", "-G", "-A", "-e", "--sysroot",
	"-specs", "-wrapper", "-dumpdir", "-dumpbase", "-dumpbase-ext",
	NULL
};

/*
 * Options that write files beside the object (dependencies, temporaries):
 * the plain compile that only serves the diagnostics must not write them
 * over the real build's.
 */
static const char *const side_output_opts[] = {
	"-MD", "-MMD", "-MP", "-MF", "-MT", "-MQ", "-save-temps",
	"--save-temps", "-aux-info", NULL
};

static int in_list(const char *arg, const char *const *list)
{
	size_t i;

	for (i = 0; list[i]; i++)
		if (!strcmp(arg, list[i]))
			return 1;
	return 0;
}

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static const char *base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

/* What each argument of the user's command line is. */
enum arg_kind {
	ARG_OPTION,     /* passed to every step */
	ARG_VALUE,      /* the value of the option before it */
	ARG_SOURCE,     /* C or C++ source: instrumented */
	ARG_OTHER_SRC,  /* compiled, not instrumented: .S, .i, headers */
	ARG_INPUT,      /* object, library: for the link only */
	ARG_OUTPUT,     /* -o, its value follows */
	ARG_LANG,       /* -x, its value follows */
	ARG_SIDE,       /* writes a side file (-MD, -MF FILE) */
	ARG_LINK        /* for the linker: clang warns of it in a compile */
};

/* What the command line asks the compiler to do. */
struct mode {
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
static enum arg_kind kind_by_name(const char *a, const char *lang)
{
	static const char *const c_like[] = {
		".c", ".cc", ".cp", ".cxx", ".cpp", ".CPP", ".c++", ".C",
		".m", ".mm", ".M", NULL
	};
	static const char *const other[] = {
		".i", ".ii", ".mi", ".mii", ".s", ".S", ".sx", ".h", ".hh",
		".hpp", ".hxx", ".H", ".h++", ".tcc", NULL
	};
	size_t i;

	if (lang && strcmp(lang, "none")) {
		static const char *const langs[] = {
			"c", "c++", "objective-c", "objective-c++", NULL
		};

		return in_list(lang, langs) ? ARG_SOURCE : ARG_OTHER_SRC;
	}
	for (i = 0; c_like[i]; i++)
		if (ends_with(a, c_like[i]))
			return ARG_SOURCE;
	for (i = 0; other[i]; i++)
		if (ends_with(a, other[i]))
			return ARG_OTHER_SRC;
	return ARG_INPUT;
}

static int is_side_output(const char *a)
{
	return in_list(a, side_output_opts) || !strncmp(a, "-MF", 3) ||
	       !strncmp(a, "-MT", 3) || !strncmp(a, "-MQ", 3) ||
	       !strncmp(a, "-save-temps=", 12) || !strncmp(a, "-Wp,-MD,", 8) ||
	       !strncmp(a, "-Wp,-MMD,", 9);
}

static int is_link_option(const char *a)
{
	static const char *const opts[] = {
		"-shared", "-pie", "-no-pie", "-static-pie", "-rdynamic",
		"-static", "-s", "-symbolic", "-nostartfiles", "-nodefaultlibs",
		"-nostdlib", "-shared-libgcc", "-static-libgcc",
		"-static-libstdc++", "-Xlinker", "-T", "-u", "-z", NULL
	};

	return in_list(a, opts) || !strncmp(a, "-l", 2) ||
	       !strncmp(a, "-L", 2) || !strncmp(a, "-Wl,", 4) ||
	       !strncmp(a, "-fuse-ld=", 9);
}

static int is_colour_option(const char *a)
{
	return !strncmp(a, "-fdiagnostics-color", 19) ||
	       !strcmp(a, "-fno-diagnostics-color") ||
	       !strcmp(a, "-fcolor-diagnostics") ||
	       !strcmp(a, "-fno-color-diagnostics");
}

/* Fills @kind (one per argument) and @m; @lang gets each source's -x. */
static void scan_args(int argc, const char **argv, enum arg_kind *kind,
		      const char **lang, struct mode *m)
{
	const char *x = NULL;
	int i, verbose = 0;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		kind[i] = ARG_OPTION;
		lang[i] = x;
		if (a[0] != '-' || !a[1]) {
			kind[i] = kind_by_name(a, x);
			if (!strcmp(a, "-") && kind[i] != ARG_INPUT)
				m->from_stdin = 1;
			if (kind[i] == ARG_SOURCE)
				m->sources++;
			else if (kind[i] == ARG_OTHER_SRC)
				m->other_sources++;
			else
				m->inputs++;
			continue;
		}
		if (in_list(a, opts_with_value)) {
			if (!strcmp(a, "-o")) {
				kind[i] = ARG_OUTPUT;
				m->has_output = 1;
			} else if (!strcmp(a, "-x")) {
				kind[i] = ARG_LANG;
				x = i + 1 < argc ? argv[i + 1] : NULL;
			} else if (is_side_output(a)) {
				kind[i] = ARG_SIDE;
			} else if (is_link_option(a)) {
				kind[i] = ARG_LINK;
				m->inputs += !strcmp(a, "-l");
			}
			if (i + 1 < argc) {
				kind[i + 1] = ARG_VALUE;
				lang[i + 1] = x;
			}
			i++;
			continue;
		}
		if (is_side_output(a))
			kind[i] = ARG_SIDE;
		else if (is_link_option(a))
			kind[i] = ARG_LINK;
		if (!strncmp(a, "-o", 2)) {
			kind[i] = ARG_OUTPUT;
			m->has_output = 1;
		} else if (!strncmp(a, "-x", 2)) {
			kind[i] = ARG_LANG;
			x = a + 2;
		}
		if (!strcmp(a, "-c") || !strcmp(a, "-S")) {
			m->compile_only = 1;
			m->assembly |= a[1] == 'S';
		}
		else if (!strcmp(a, "-E") || !strcmp(a, "-M") ||
			 !strcmp(a, "-MM"))
			m->preprocess = 1;
		else if (!strcmp(a, "-fsyntax-only"))
			m->syntax_only = 1;
		else if (!strcmp(a, "-static"))
			m->is_static = 1;
		else if (!strcmp(a, "-fPIC") || !strcmp(a, "-fpic"))
			m->pic = 1;
		else if (!strncmp(a, "-flto", 5) && strcmp(a, "-flto=none"))
			m->lto = 1;
		else if (!strcmp(a, "-fno-lto") || !strcmp(a, "-flto=none"))
			m->lto = 0;
		else if (!strcmp(a, "-fdata-sections"))
			m->data_sections = 1;
		else if (!strcmp(a, "-fno-data-sections"))
			m->data_sections = 0;
		else if (!strcmp(a, "-fPIE") || !strcmp(a, "-fpie") ||
			 !strcmp(a, "-fno-PIC") || !strcmp(a, "-fno-pic"))
			m->pic = 0;
		else if (!strcmp(a, "-nostdlib") ||
			 !strcmp(a, "-nodefaultlibs"))
			m->nostdlib = 1;
		else if (!strcmp(a, "-m32"))
			m->multilib = "32";
		else if (!strcmp(a, "-mx32"))
			m->multilib = "x32";
		else if (!strcmp(a, "-m64"))
			m->multilib = NULL;
		else if (!strcmp(a, "-v"))
			verbose = 1;
		else if (!strcmp(a, "--version") || !strcmp(a, "--help") ||
			 !strncmp(a, "-print-", 7) || !strncmp(a, "-dump", 5) ||
			 !strcmp(a, "-###"))
			m->info_only = 1;
		else if (!strncmp(a, "-l", 2))
			m->inputs++;
		else if (is_colour_option(a))
			m->colour = a;
	}
	if (!m->sources && !m->other_sources && !m->inputs && verbose)
		m->info_only = 1;
}

/* --- finding ourselves, the header, the runtime and the compiler ------ */

/* A word of $CC that is likelyprof: by its name, or because it is us. */
static int names_likelyprof(const char *word)
{
	char *found;
	int self;

	if (!strncmp(base_name(word), "likelyprof", 10))
		return 1;
	found = strchr(word, '/') ? lp_xstrdup(word) : NULL;
	if (!found) {
		/* only a PATH lookup that lands on us counts */
		const char *path = getenv("PATH");
		const char *p, *end;

		for (p = path ? path : ""; *p; p = *end ? end + 1 : end) {
			end = strchr(p, ':');
			if (!end)
				end = p + strlen(p);
			found = lp_xstrfmt("%.*s/%s", (int)(end - p), p, word);
			if (access(found, X_OK) == 0)
				break;
			free(found);
			found = NULL;
			if (!*end)
				break;
		}
	}
	self = found && lp_is_self(found);
	free(found);
	return self;
}

static int file_exists(const char *dir, const char *name)
{
	char *path = lp_xstrfmt("%s/%s", dir, name);
	struct stat st;
	int ok = stat(path, &st) == 0;

	free(path);
	return ok;
}

/*
 * Where the header and runtime are: the environment, else the build tree
 * (./likelyprof next to include/ and lib/), else the install prefix
 * (bin/../include, bin/../lib).  0, or -1 with a message.
 */
static int find_dirs(char **inc, char **lib)
{
	const char *env_inc = getenv("LIKELYPROF_INCLUDE_DIR");
	const char *env_lib = getenv("LIKELYPROF_LIB_DIR");
	char *exe = lp_self_path(), *slash = strrchr(exe, '/');
	const char *dir = exe, *up;

	if (slash)
		*slash = '\0';
	else
		dir = ".";
	up = file_exists(dir, "include/likelyprof.h") ? "" : "/..";
	*inc = env_inc && *env_inc ? lp_xstrdup(env_inc)
				   : lp_xstrfmt("%s%s/include", dir, up);
	*lib = env_lib && *env_lib ? lp_xstrdup(env_lib)
				   : lp_xstrfmt("%s%s/lib", dir, up);
	free(exe);
	if (!file_exists(*inc, "likelyprof.h"))
		return lp_error("cannot find likelyprof.h in '%s' "
				"(set LIKELYPROF_INCLUDE_DIR)", *inc);
	return 0;
}

/* Pushes the words of @s split on blanks; they point into @s. */
static void push_words(struct lp_args *a, char *s)
{
	char *tok, *save = NULL;

	for (tok = strtok_r(s, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save))
		lp_args_push(a, tok);
}

/*
 * The compiler for `likelyprof cc`: the words of $CC ("gcc -m32",
 * "ccache gcc").  A $CC that leads to likelyprof names no compiler: in
 * CC="ccache likelyprof cc", ccache has already run us, and what follows
 * us is our subcommand and arguments; the default compiler is taken.
 * @a gets the words; the return value holds them and is freed when @a is
 * done.
 */
static char *compiler_from_env(struct lp_args *a, const char *var,
			       const char *dflt, int reentered)
{
	const char *env = reentered ? NULL : getenv(var);
	struct lp_args words = LP_ARGS_INIT;
	char *copy = NULL;
	size_t i, start = 0;

	if (env && *env) {
		copy = lp_xstrdup(env);
		push_words(&words, copy);
		for (i = 0; i < words.n; i++)
			if (names_likelyprof(words.v[i]))
				start = i + 1;
		/*
		 * CC="likelyprof cc -O2": the words after us are our own
		 * arguments, which the shell already gave us, not a
		 * compiler.
		 */
		for (i = 0; !start && i < words.n; i++)
			lp_args_push(a, words.v[i]);
	}
	if (!a->n)
		lp_args_push(a, dflt);
	free(words.v);
	return copy;
}

/* --- running the compiler ----------------------------------------------- */

/*
 * Shared-library code reaches thread-local storage through
 * __tls_get_addr, and gcc calls it at every counter access.  By default
 * the counters of -fPIC code take the initial-exec model, anchored where
 * the header can (one GOT load per function; see likelyprof.h).
 * LIKELYPROF_TLS=dynamic, for modules that are dlopen()ed late, keeps
 * dynamic TLS; there TLS
 * descriptors (-mtls-dialect=gnu2) let gcc compute the module's base once
 * per basic block instead of calling at every access.  The dialect only
 * changes how TLS is addressed, so the project's own code is unaffected.
 * clang 14 knows no such option, hence the probe.
 */
static int tls_setting_valid(void)
{
	const char *tls = getenv("LIKELYPROF_TLS");

	return !tls || !*tls || !strcmp(tls, "initial-exec") ||
	       !strcmp(tls, "dynamic");
}

static int pic_tls_initial_exec(void)
{
	const char *tls = getenv("LIKELYPROF_TLS");

	return !tls || strcmp(tls, "dynamic") != 0;
}

/* Whether @compiler accepts @option in a compile of C. */
static int accepts_option(const struct lp_args *compiler, const char *option)
{
	struct lp_args probe = LP_ARGS_INIT;
	int null = open("/dev/null", O_RDWR), ok;

	lp_args_append(&probe, compiler);
	lp_args_push(&probe, option);
	lp_args_push(&probe, "-fsyntax-only");
	lp_args_push(&probe, "-xc");
	lp_args_push(&probe, "/dev/null");
	ok = null >= 0 && lp_run(&probe, null, null) == 0;
	if (null >= 0)
		close(null);
	free(probe.v);
	return ok;
}

/* An unlinked scratch file for a compiler's stderr, or -1. */
static int scratch_file(void)
{
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl = lp_xstrfmt("%s/likelyprof-cc-XXXXXX",
				tmpdir && *tmpdir ? tmpdir : "/tmp");
	int fd = mkstemp(tmpl);

	if (fd >= 0)
		unlink(tmpl);
	free(tmpl);
	return fd;
}

/* Copies all of @fd, from its start, to our stderr. */
static void replay(int fd)
{
	char buf[8192];
	ssize_t n;

	fflush(stderr);
	if (lseek(fd, 0, SEEK_SET) < 0)
		return;
	while ((n = read(fd, buf, sizeof(buf))) > 0) {
		const char *p = buf;

		while (n > 0) {
			ssize_t w = write(2, p, (size_t)n);

			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0)
				return;
			p += w;
			n -= w;
		}
	}
}

/*
 * "FILE:LINE" of the first diagnostic in @fd that names a line outside
 * the header, told by its shape (gcc and clang both start one so in every
 * language); the caller frees it; NULL when there is none.
 */
static char *first_failing_line(int fd)
{
	char line[4096];
	FILE *f;
	char *where = NULL;
	int dup_fd = dup(fd);

	if (dup_fd < 0 || lseek(dup_fd, 0, SEEK_SET) < 0 ||
	    !(f = fdopen(dup_fd, "r"))) {
		if (dup_fd >= 0)
			close(dup_fd);
		return NULL;
	}
	while (!where && fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');
		size_t digits;

		if (!colon || colon == line || line[0] == ' ')
			continue;
		digits = strspn(colon + 1, "0123456789");
		if (!digits || colon[1 + digits] != ':')
			continue;
		*colon = '\0';
		if (!ends_with(line, "likelyprof.h"))
			where = lp_xstrfmt("%s:%.*s", line, (int)digits,
					   colon + 1);
	}
	fclose(f);
	return where;
}

/* --- one command -------------------------------------------------------- */

struct cc {
	struct lp_args compiler;       /* the real compiler's words */
	int argc;
	const char **argv;          /* the user's arguments */
	enum arg_kind *kind;
	const char **lang;
	struct mode m;
	struct lp_args instrument;     /* -D..., -include, -mtls-dialect */
	struct lp_args group;          /* the assembler pass: -B, clang's -f */
	struct lp_args link;           /* the runtime, after the user's args */
	int colour;                 /* the plain run must ask for colour */
	char *scratch;              /* a folder, made on first use */
	unsigned scratch_files;
	char *owned[8];             /* strings the args point into */
	size_t nowned;
};

static const char *own(struct cc *cc, char *s)
{
	if (cc->nowned == sizeof(cc->owned) / sizeof(cc->owned[0]))
		lp_bug("too many strings");
	cc->owned[cc->nowned++] = s;
	return s;
}

/* A new path in the scratch folder ending in @suffix, or NULL. */
static char *scratch_path(struct cc *cc, const char *suffix)
{
	if (!cc->scratch) {
		const char *tmpdir = getenv("TMPDIR");
		char *tmpl = lp_xstrfmt("%s/likelyprof-cc-XXXXXX",
					tmpdir && *tmpdir ? tmpdir : "/tmp");

		if (!mkdtemp(tmpl)) {
			lp_error("cannot make a folder in '%s': %s",
				 tmpdir && *tmpdir ? tmpdir : "/tmp",
				 strerror(errno));
			free(tmpl);
			return NULL;
		}
		cc->scratch = tmpl;
	}
	return lp_xstrfmt("%s/%u%s", cc->scratch, cc->scratch_files++, suffix);
}

/* Removes the scratch folder and whatever the compiler left in it. */
static void scratch_remove(struct cc *cc)
{
	DIR *d;
	struct dirent *e;

	if (!cc->scratch)
		return;
	d = opendir(cc->scratch);
	while (d && (e = readdir(d)))
		if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
			unlinkat(dirfd(d), e->d_name, 0);
	if (d)
		closedir(d);
	rmdir(cc->scratch);
	free(cc->scratch);
	cc->scratch = NULL;
}

/* STEP_UNGROUPED: instrumented, without the assembler pass */
enum step { STEP_DIAG, STEP_INSTRUMENTED, STEP_UNGROUPED, STEP_PLAIN };

/*
 * The compile of source argument @src into @out (NULL: where the compiler
 * puts it): every option of the user's, no other input.  The diagnostics
 * step writes no side file and asks for the colour the user would see.
 */
static void compile_args(const struct cc *cc, struct lp_args *a, int src,
			 const char *out, enum step step)
{
	int i;

	lp_args_append(a, &cc->compiler);
	if (step == STEP_INSTRUMENTED || step == STEP_UNGROUPED)
		lp_args_append(a, &cc->instrument);
	if (step == STEP_INSTRUMENTED)
		lp_args_append(a, &cc->group);
	for (i = 0; i < cc->argc; i++) {
		enum arg_kind k = cc->kind[i];

		if (k == ARG_OUTPUT || k == ARG_LANG)
			i += !cc->argv[i][2];
		else if ((k == ARG_SIDE && step == STEP_DIAG) ||
			 (k == ARG_LINK && !cc->m.compile_only))
			i += i + 1 < cc->argc && cc->kind[i + 1] == ARG_VALUE;
		else if (k != ARG_SOURCE && k != ARG_OTHER_SRC &&
			 k != ARG_INPUT)
			lp_args_push(a, cc->argv[i]);  /* their values too */
		else if (i == src) {
			if (cc->lang[i]) {
				lp_args_push(a, "-x");
				lp_args_push(a, cc->lang[i]);
			}
			lp_args_push(a, cc->argv[i]);
			if (cc->lang[i])
				lp_args_push(a, "-xnone");
		}
	}
	if (!cc->m.compile_only)
		lp_args_push(a, "-c");
	if (step == STEP_INSTRUMENTED || step == STEP_UNGROUPED)
		lp_args_push(a, "-w");
	if (step == STEP_DIAG && cc->colour)
		lp_args_push(a, "-fdiagnostics-color=always");
	if (out) {
		lp_args_push(a, "-o");
		lp_args_push(a, out);
	}
}

/* Runs one step of a compile; stderr to @err_fd (-1: inherited). */
static int compile_step(const struct cc *cc, int src, const char *out,
			enum step step, int err_fd)
{
	struct lp_args a = LP_ARGS_INIT;
	int status;

	compile_args(cc, &a, src, out, step);
	status = lp_run(&a, -1, err_fd);
	free(a.v);
	return status;
}

/*
 * Compiles source argument @src into @out (NULL: the compiler's default
 * name); see the top of the file.  The exit status.
 */
static int compile_source(struct cc *cc, int src, const char *out)
{
	char *diag_out, *where;
	int diag_err, err, status;

	if (cc->kind[src] == ARG_OTHER_SRC)
		return compile_step(cc, src, out, STEP_PLAIN, -1);
	diag_out = scratch_path(cc, cc->m.assembly ? ".s" : ".o");
	diag_err = scratch_file();
	err = scratch_file();
	if (!diag_out || diag_err < 0 || err < 0) {
		/* no scratch space: the instrumented build as it comes */
		status = compile_step(cc, src, out, STEP_INSTRUMENTED, -1);
		goto out;
	}
	status = compile_step(cc, src, diag_out, STEP_DIAG, diag_err);
	if (status) {
		replay(diag_err);
		goto out;
	}
	status = compile_step(cc, src, out, STEP_INSTRUMENTED, err);
	if (status && cc->group.n && !ftruncate(err, 0) &&
	    lseek(err, 0, SEEK_SET) == 0) {
		/* the pass, or gas on clang's text: count without it */
		status = compile_step(cc, src, out, STEP_UNGROUPED, err);
		if (!status)
			lp_note("%s: runs of hints not grouped: the compile "
				"failed with the assembler pass",
				cc->argv[src]);
	}
	if (!status) {
		replay(diag_err);
		goto out;
	}
	where = first_failing_line(err);
	if (where && strncmp(where, cc->argv[src], strlen(cc->argv[src])))
		lp_note("%s: cannot be instrumented (%s); compiled without "
			"profiling", cc->argv[src], where);
	else
		lp_note("%s: cannot be instrumented; compiled without "
			"profiling", where ? where : cc->argv[src]);
	free(where);
	status = compile_step(cc, src, out, STEP_PLAIN, -1);
out:
	if (diag_err >= 0)
		close(diag_err);
	if (err >= 0)
		close(err);
	free(diag_out);
	return status;
}

/*
 * The whole command with the instrumentation added (for preprocessing,
 * pure links, a source on stdin), or as it is.
 */
static int run_whole(const struct cc *cc, int instrument, int link)
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
static int compile_and_link(struct cc *cc)
{
	struct lp_args a = LP_ARGS_INIT;
	char **obj = lp_xcalloc((size_t)cc->argc, sizeof(*obj));
	int i, status = 0;

	for (i = 0; i < cc->argc; i++) {
		int st;

		if (cc->kind[i] != ARG_SOURCE && cc->kind[i] != ARG_OTHER_SRC)
			continue;
		obj[i] = scratch_path(cc, ".o");
		if (!obj[i]) {
			status = LP_EXIT_ERROR;
			break;
		}
		st = compile_source(cc, i, obj[i]);
		if (st && !status)
			status = st;
	}
	if (!status) {
		lp_args_append(&a, &cc->compiler);
		for (i = 0; i < cc->argc; i++) {
			if (obj[i])
				lp_args_push(&a, obj[i]);
			else if (cc->kind[i] == ARG_LANG)
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
static int add_runtime(struct cc *cc, const char *lib)
{
	const struct mode *m = &cc->m;
	const char *dir = lib;
	const char *file = m->is_static ? "liblikelyprof.a"
					: "liblikelyprof.so";

	if (m->multilib) {
		dir = own(cc, lp_xstrfmt("%s/%s", lib, m->multilib));
		if (!file_exists(dir, file))
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
static int wants_colour(const struct mode *m)
{
	const char *term = getenv("TERM"), *gcc_colors = getenv("GCC_COLORS");

	if (m->colour && strcmp(m->colour, "-fdiagnostics-color=auto"))
		return 0;
	return isatty(2) && term && strcmp(term, "dumb") &&
	       !(gcc_colors && !*gcc_colors);
}

/* True when every source to instrument is C (the pass knows C's stubs). */
static int only_c_sources(const struct cc *cc)
{
	const char *name = cc->compiler.v[cc->compiler.n - 1];
	int i;

	if (strstr(base_name(name), "++"))
		return 0;       /* a C++ driver compiles .c as C++ */
	for (i = 0; i < cc->argc; i++)
		if (cc->kind[i] == ARG_SOURCE &&
		    (cc->lang[i] ? strcmp(cc->lang[i], "c") :
				   !ends_with(cc->argv[i], ".c")))
			return 0;
	return 1;
}

/*
 * A compiler that assembles in process (clang) hands its text to an
 * assembler, the pass's, when told -fno-integrated-as; gcc rejects the
 * option, and a name that says gcc spares the probe.
 */
static int assembles_in_process(const struct cc *cc)
{
	const char *name = base_name(cc->compiler.v[cc->compiler.n - 1]);
	char *real = realpath(cc->compiler.v[cc->compiler.n - 1], NULL);
	int gcc = strstr(name, "gcc") || strstr(name, "g++") ||
		  (real && (strstr(base_name(real), "gcc") ||
			    strstr(base_name(real), "g++")));

	free(real);
	return !gcc && accepts_option(&cc->compiler, "-fno-integrated-as");
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
static void group_runs(struct cc *cc, const char *lib)
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
static void tls_initial_exec(struct cc *cc, const struct mode *m)
{
	lp_args_push(&cc->instrument, "-DLIKELYPROF_TLS_INITIAL_EXEC");
	if (m->data_sections)
		lp_args_push(&cc->instrument, "-DLIKELYPROF_DATA_SECTIONS");
}

static int run_command(struct cc *cc)
{
	const struct mode *m = &cc->m;
	int i, status = 0, instrument, link;
	char *inc = NULL, *lib = NULL;

	instrument = !m->info_only && m->sources && !m->syntax_only;
	link = !m->info_only && !m->compile_only && !m->preprocess &&
	       !m->syntax_only && (m->sources || m->other_sources ||
				   m->inputs);
	if (!instrument && !link)
		return run_whole(cc, 0, 0);
	if (find_dirs(&inc, &lib)) {
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
		if (m->pic && pic_tls_initial_exec())
			tls_initial_exec(cc, m);
		else if (m->pic && accepts_option(&cc->compiler,
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
			if (cc->kind[i] == ARG_OUTPUT)
				out = cc->argv[i][2] ? cc->argv[i] + 2
				      : i + 1 < cc->argc ? cc->argv[i + 1]
							 : NULL;
		for (i = 0; i < cc->argc; i++) {
			int st;

			if (cc->kind[i] != ARG_SOURCE &&
			    cc->kind[i] != ARG_OTHER_SRC)
				continue;
			st = compile_source(cc, i, out);
			if (st && !status)
				status = st;
		}
	}
out:
	scratch_remove(cc);
	free(inc);
	free(lib);
	return status;
}

int cmd_cc(int argc, const char **argv)
{
	const char *name = argv[0];
	int reentered = getenv(LP_CC_MARKER) != NULL;
	int is_cc = !strcmp(name, "cc"), is_cxx = !strcmp(name, "c++");
	struct cc cc;
	char *words = NULL, *found = NULL;
	size_t i;
	int status;

	if (lp_wants_help(argc, argv) && (is_cc || is_cxx)) {
		fputs(is_cc ? usage_cc : usage_cxx, stdout);
		return LP_EXIT_OK;
	}
	if (!tls_setting_valid()) {
		lp_error("LIKELYPROF_TLS is '%s'; it may be 'initial-exec' "
			 "(the default) or 'dynamic'",
			 getenv("LIKELYPROF_TLS"));
		return LP_EXIT_ERROR;
	}
	memset(&cc, 0, sizeof(cc));
	argc--;
	argv++;
	if (is_cc || is_cxx) {
		words = compiler_from_env(&cc.compiler, is_cc ? "CC" : "CXX",
					  is_cc ? "cc" : "c++", reentered);
	} else {
		/* launcher form: likelyprof [ccache] COMPILER args */
		lp_args_push(&cc.compiler, name);
		if (in_list(base_name(name), launchers) && argc &&
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
	scan_args(argc, argv, cc.kind, cc.lang, &cc.m);
	/* reached from the compiler we ran: the outer run instruments */
	status = reentered ? run_whole(&cc, 0, 0) : run_command(&cc);

	free(cc.kind);
	free(cc.lang);
	free(cc.compiler.v);
	free(cc.instrument.v);
	free(cc.group.v);
	free(cc.link.v);
	for (i = 0; i < cc.nowned; i++)
		free(cc.owned[i]);
	free(found);
	free(words);
	return status;
}
