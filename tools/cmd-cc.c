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
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "builtin.h"
#include "cc/args.h"
#include "cc/copy.h"
#include "cc/expand.h"
#include "cc/find.h"
#include "cc/hintmacro.h"
#include "cc/unseen.h"
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
		if (!lp_cc_ends_with(line, "likelyprof.h"))
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
	struct lp_args expand;      /* STEP_EXPAND's own options */
	struct lp_hint_macros macros;  /* --hint-macro */
	struct lp_unseen_forms forms;  /* what the unit compiled is read for */
	int clang;                  /* -1 until asked */
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

/*
 * STEP_UNGROUPED: instrumented, without the assembler pass; STEP_EXPAND:
 * the unit printed with its includes expanded (expand.c)
 */
enum step {
	STEP_DIAG, STEP_INSTRUMENTED, STEP_UNGROUPED, STEP_PLAIN, STEP_EXPAND
};

/* A dependency file's option (-MD, -MF F, -Wp,-MD,F), not -save-temps. */
static int is_deps_option(const char *a)
{
	return !strncmp(a, "-M", 2) || !strncmp(a, "-Wp,-M", 6);
}

/*
 * Whether a side-file option at @a is not for @step: the diagnostics
 * compile writes none (but the headers it read, to cc->diag_deps), the
 * expanding run only the dependency file, the compile of an expanded
 * unit all but that one.
 */
static int side_skipped(const struct cc *cc, const char *a, enum step step)
{
	if (step == STEP_DIAG)
		return 1;
	if (step == STEP_EXPAND)
		return !is_deps_option(a);
	return cc->copy && cc->copy->expanded && step != STEP_PLAIN &&
	       is_deps_option(a);
}

/*
 * The compiler's words, without a launcher in front (ccache) for the
 * compile of an expanded unit: ccache preprocesses a source itself and
 * compiles what it got as plain preprocessed text, where gcc's
 * directives-only text still holds its #defines.  Such a compile would
 * not be found in the cache anyway: its input is new each time.
 */
static void append_compiler(const struct cc *cc, struct lp_args *a,
			    enum step step)
{
	size_t k = 0;

	if (cc->copy && cc->copy->expanded && step != STEP_DIAG &&
	    step != STEP_PLAIN)
		while (k + 1 < cc->compiler.n &&
		       lp_cc_is_launcher(cc->compiler.v[k]))
			k++;
	for (; k < cc->compiler.n; k++)
		lp_args_push(a, cc->compiler.v[k]);
}

/*
 * The compile of source argument @src into @out (NULL: where the compiler
 * puts it): every option of the user's, no other input.  The diagnostics
 * step writes no side file and asks for the colour the user would see.
 */
static void compile_args(const struct cc *cc, struct lp_args *a, int src,
			 const char *out, enum step step)
{
	int i;

	append_compiler(cc, a, step);
	if (step == STEP_EXPAND) {
		lp_args_append(a, &cc->instrument);
		lp_args_append(a, &cc->expand);
		out = NULL;
	}
	if (step == STEP_INSTRUMENTED || step == STEP_UNGROUPED) {
		lp_args_append(a, &cc->instrument);
		lp_args_append(a, &cc->plain_lines);
	}
	if (step == STEP_INSTRUMENTED)
		lp_args_append(a, &cc->group);
	if (cc->copy && step != STEP_DIAG && step != STEP_PLAIN) {
		lp_args_append(a, &cc->copy->args);
		out = cc->copy->out;
	}
	for (i = 0; i < cc->argc; i++) {
		enum lp_arg_kind k = cc->kind[i];

		if (k == LP_ARG_OUTPUT || k == LP_ARG_LANG)
			i += !cc->argv[i][2];
		else if ((k == LP_ARG_SIDE &&
			  side_skipped(cc, cc->argv[i], step)) ||
			 (k == LP_ARG_LINK && !cc->m.compile_only))
			i += i + 1 < cc->argc &&
			     cc->kind[i + 1] == LP_ARG_VALUE;
		else if (k != LP_ARG_SOURCE && k != LP_ARG_OTHER_SRC &&
			 k != LP_ARG_INPUT)
			lp_args_push(a, cc->argv[i]);  /* their values too */
		else if (i == src) {
			if (cc->lang[i]) {
				lp_args_push(a, "-x");
				lp_args_push(a, cc->lang[i]);
			}
			lp_args_push(a, cc->copy && step != STEP_DIAG &&
					step != STEP_PLAIN ? cc->copy->path
							   : cc->argv[i]);
			if (cc->lang[i])
				lp_args_push(a, "-xnone");
		}
	}
	if (!cc->m.compile_only && step != STEP_EXPAND)
		lp_args_push(a, "-c");
	if (step != STEP_DIAG && step != STEP_PLAIN)
		lp_args_push(a, "-w");
	if (step == STEP_DIAG && cc->colour)
		lp_args_push(a, "-fdiagnostics-color=always");
	if (step == STEP_DIAG && cc->diag_deps) {
		lp_args_push(a, "-MMD");
		lp_args_push(a, "-MF");
		lp_args_push(a, cc->diag_deps);
	}
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
/*
 * The lines the compiler named in @fd's complaint (FILE:LINE: at the
 * start of a line, gcc's and clang's form), each made a plain line for
 * the next compile: -DLP_PLAIN_LINE_<n>=1 (include/likelyprof.h).  The
 * first location in @src's own file goes to *@where, to be named.
 * @return : how many lines are new.
 */
static size_t add_plain_lines(struct cc *cc, int fd, const char *src,
			      char **where)
{
	char line[4096];
	FILE *f;
	size_t added = 0, k;
	int dup_fd = dup(fd);

	if (dup_fd < 0 || lseek(dup_fd, 0, SEEK_SET) < 0 ||
	    !(f = fdopen(dup_fd, "r"))) {
		if (dup_fd >= 0)
			close(dup_fd);
		return 0;
	}
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':'), *def;
		size_t digits;
		int known = 0;

		if (!colon || colon == line || line[0] == ' ')
			continue;
		digits = strspn(colon + 1, "0123456789");
		if (!digits || digits > 9 || colon[1 + digits] != ':')
			continue;
		*colon = '\0';
		if (lp_cc_ends_with(line, "likelyprof.h"))
			continue;
		if (!*where && !strcmp(lp_cc_base_name(line),
				       lp_cc_base_name(src)))
			*where = lp_xstrfmt("%s:%.*s", line, (int)digits,
					    colon + 1);
		def = lp_xstrfmt("-DLP_PLAIN_LINE_%.*s=1", (int)digits,
				 colon + 1);
		for (k = 0; k < cc->plain_lines.n && !known; k++)
			known = !strcmp(cc->plain_lines.v[k], def);
		if (known) {
			free(def);
			continue;
		}
		if (!cc->plain_lines.n)
			lp_args_push(&cc->plain_lines,
				     lp_xstrdup("-DLP_PLAIN_LINES_"));
		lp_args_push(&cc->plain_lines, def);
		added++;
	}
	fclose(f);
	return added;
}

static void plain_lines_clear(struct cc *cc)
{
	size_t k;

	for (k = 0; k < cc->plain_lines.n; k++)
		free((char *)cc->plain_lines.v[k]);
	cc->plain_lines.n = 0;
}

/*
 * An instrumented compile that failed where the plain one did not: a
 * hint the compiler cannot take counted (at file scope).  Compiles again
 * with the lines it named plain, a few rounds, so that only those hints
 * go uncounted.  @return : the last status; 0 with *@where the use.
 */
static int compile_with_plain_lines(struct cc *cc, int src, const char *out,
				    int err, char **where)
{
	enum step step = cc->group.n ? STEP_UNGROUPED : STEP_INSTRUMENTED;
	int status = 1, tries;

	for (tries = 0; status && tries < 8; tries++) {
		if (!add_plain_lines(cc, err, cc->argv[src], where) ||
		    ftruncate(err, 0) || lseek(err, 0, SEEK_SET))
			break;
		status = compile_step(cc, src, out, step, err);
	}
	return status;
}

/*
 * Reads the source for the hints the header cannot see (unseen.c) into
 * @u, and says once what will not be counted.
 */
static void note_unseen_hints(const struct cc *cc, const char *src,
			      struct lp_unseen *u)
{
	char what[400];

	lp_unseen_scan(u, src, &cc->forms);
	if (lp_unseen_describe(u, what, sizeof(what)))
		lp_note("%s: not counted: %s; likelyprof-cc(1) lists the "
			"forms counted", src, what);
}

/* The instrumented compile, and without the assembler pass if need be. */
static int instrumented_step(struct cc *cc, int src, const char *out,
			     int err)
{
	int status = compile_step(cc, src, out, STEP_INSTRUMENTED, err);

	if (status && cc->group.n && !ftruncate(err, 0) &&
	    lseek(err, 0, SEEK_SET) == 0) {
		/* the pass, or gas on clang's text: count without it */
		status = compile_step(cc, src, out, STEP_UNGROUPED, err);
		if (!status)
			lp_note("%s: runs of hints not grouped: the compile "
				"failed with the assembler pass",
				cc->argv[src]);
	}
	return status;
}

/* Whether the compiler is clang (copy.c needs to know how it spells). */
static int is_clang(struct cc *cc)
{
	if (cc->clang < 0)
		cc->clang = lp_cc_accepts_option(&cc->compiler,
						 "-frewrite-includes");
	return cc->clang;
}

/*
 * A folder for the copy of source @src that is the same in each compile
 * of it (from the same folder, into the same object), so that ccache
 * finds the compile of the copy again: its path is in the options and
 * the debug information.  $TMPDIR/likelyprof-copy-UID/HASH; NULL where
 * the parent is not ours alone (the caller then takes a new scratch
 * folder), and lp_cc_copy_make() fails where HASH exists (a compile of
 * the same source at the same time).
 */
static char *stable_copy_dir(const struct cc *cc, int src, const char *out)
{
	const char *tmpdir = getenv("TMPDIR"), *parts[3];
	char *parent, *dir, cwd[PATH_MAX];
	uint64_t hash = 1469598103934665603ull;
	struct stat st;
	size_t k;

	if (!getcwd(cwd, sizeof(cwd)))
		return NULL;
	parts[0] = cwd;
	parts[1] = cc->argv[src];
	parts[2] = out ? out : "";
	for (k = 0; k < 3; k++) {       /* FNV-1a, the NULs included */
		const char *c = parts[k];

		do
			hash = (hash ^ (unsigned char)*c) * 1099511628211ull;
		while (*c++);
	}
	parent = lp_xstrfmt("%s/likelyprof-copy-%lu",
			    tmpdir && *tmpdir ? tmpdir : "/tmp",
			    (unsigned long)getuid());
	if ((mkdir(parent, 0700) && errno != EEXIST) || lstat(parent, &st) ||
	    !S_ISDIR(st.st_mode) || st.st_uid != getuid() ||
	    (st.st_mode & 077)) {
		free(parent);
		return NULL;
	}
	dir = lp_xstrfmt("%s/%016llx", parent, (unsigned long long)hash);
	free(parent);
	return dir;
}

/*
 * The instrumented compile of @copy_text, a copy of the source in which
 * the hints the header cannot see are made counted ones (@what: which,
 * for the note; @flags: LP_CC_COPY_*).  A copy that does not compile (a
 * form read wrong) costs those hints, not the build: the source is
 * compiled as it is, with a note.
 */
static int compile_copy(struct cc *cc, int src, const char *out, int err,
			const char *copy_text, size_t copy_len,
			const char *what, unsigned flags)
{
	struct lp_cc_copy copy = LP_CC_COPY_INIT;
	const char *base = lp_cc_base_name(cc->argv[src]);
	char *dir = stable_copy_dir(cc, src, out);
	int status, made;

	/* asked only where it matters: the question runs the compiler */
	if ((base == cc->argv[src] || (flags & LP_CC_COPY_EXPANDED)) &&
	    is_clang(cc))
		flags |= LP_CC_COPY_CLANG;
	made = dir && !lp_cc_copy_make(&copy, dir, copy_text, copy_len,
				       cc->argc, cc->argv, src, out, flags);
	if (!made && (dir = scratch_path(cc, ".attr")))
		made = !lp_cc_copy_make(&copy, dir, copy_text, copy_len,
					cc->argc, cc->argv, src, out, flags);
	if (!made) {
		lp_note("%s: %s not counted: no copy of the source could be "
			"made", cc->argv[src], what);
		return instrumented_step(cc, src, out, err);
	}
	cc->copy = &copy;
	status = instrumented_step(cc, src, out, err);
	cc->copy = NULL;
	lp_cc_copy_done(&copy, !status);
	if (!status || ftruncate(err, 0) || lseek(err, 0, SEEK_SET))
		return status;
	lp_note("%s: %s not counted: the copy that counts them did not "
		"compile", cc->argv[src], what);
	return instrumented_step(cc, src, out, err);
}

/* The instrumented compile, of the source's copy where it has one. */
static int compile_instrumented(struct cc *cc, int src, const char *out,
				int err, const struct lp_unseen *u)
{
	char what[160];

	if (!u->copy)
		return instrumented_step(cc, src, out, err);
	lp_unseen_counted(u, what, sizeof(what));
	return compile_copy(cc, src, out, err, u->copy, u->copy_len, what,
			    cc->m.assembly ? LP_CC_COPY_ASSEMBLY : 0);
}

/*
 * The unit printed with its includes expanded and its macros kept, into
 * a new scratch file (NULL where the compiler could not): the expanding
 * run also writes the user's dependency file.
 */
static char *expand_unit(struct cc *cc, int src, const char *out, int err)
{
	char *obj = out ? lp_xstrdup(out)
			: lp_cc_object_name(cc->argv[src], cc->m.assembly);
	char *raw = scratch_path(cc, ".ii");
	int status = 1;

	if (raw) {
		lp_cc_expand_options(&cc->expand, cc->argc, cc->argv, obj,
				     raw, is_clang(cc));
		status = compile_step(cc, src, NULL, STEP_EXPAND, err);
		lp_cc_expand_options_release(&cc->expand);
	}
	free(obj);
	if (!status)
		return raw;
	if (raw)
		unlink(raw);
	free(raw);
	return NULL;
}

/*
 * The instrumented compile of a unit whose own headers hold hints that
 * the header cannot see (@h): of its expanded text, in which those and
 * the source's own are counted (expand.c).  Where the includes cannot be
 * expanded, the source's copy as without them, with a note.
 */
static int compile_expanded(struct cc *cc, int src, const char *out,
			    int err, const struct lp_unseen *u,
			    const struct lp_cc_header_hints *h)
{
	char *raw = expand_unit(cc, src, out, err), *text = NULL, *copy;
	size_t len = 0, copy_len;
	int status;

	if (raw) {
		text = lp_unseen_read(raw, &len);
		unlink(raw);
	}
	free(raw);
	if (ftruncate(err, 0) || lseek(err, 0, SEEK_SET) || !text ||
	    !lp_cc_expanded_copy(text, len, cc->argv[src], &cc->forms,
				 &copy, &copy_len)) {
		/*
		 * Expanded but nothing to count: the compiler marked the
		 * header's text as the system's (#pragma GCC system_header)
		 */
		lp_note("%s: %s of its headers not counted: %s",
			cc->argv[src], h->counted_what,
			text ? "the compiler reads them as a system header's"
			     : "its includes could not be expanded");
		free(text);
		return compile_instrumented(cc, src, out, err, u);
	}
	free(text);
	status = compile_copy(cc, src, out, err, copy, copy_len,
			      h->counted_what, LP_CC_COPY_EXPANDED |
			      (cc->m.assembly ? LP_CC_COPY_ASSEMBLY : 0));
	free(copy);
	return status;
}

/*
 * The hints of the unit's own headers, read from the diagnostics
 * compile's list of them: what cannot be counted is said once; 1 when
 * some can, 0 else.
 */
static int header_hints(struct cc *cc, int src, struct lp_cc_header_hints *h)
{
	if (!cc->diag_deps || lp_cc_header_hints(h, cc->diag_deps,
						 &cc->forms))
		return 0;
	if (*h->note)
		lp_note("%s: not counted in a header: %s; likelyprof-cc(1) "
			"lists the forms counted", cc->argv[src], h->note);
	return h->counted > 0;
}

/*
 * Whether source argument @src is compiled as C++: its -x, else its
 * suffix, and for a .c the driver (g++ and clang++ compile it as C++).
 */
static int is_cxx_unit(const struct cc *cc, int src)
{
	const char *dot = strrchr(lp_cc_base_name(cc->argv[src]), '.');
	const char *driver = NULL;
	size_t k;

	if (cc->lang[src])
		return strstr(cc->lang[src], "c++") != NULL;
	if (dot && (!strcmp(dot, ".c") || !strcmp(dot, ".i"))) {
		/* the first word after the launchers: options follow it */
		for (k = 0; k < cc->compiler.n && !driver; k++)
			if (!lp_cc_is_launcher(cc->compiler.v[k]))
				driver = lp_cc_base_name(cc->compiler.v[k]);
		return driver && strstr(driver, "++") != NULL;
	}
	return !dot || (strcmp(dot, ".m") && strcmp(dot, ".s") &&
			strcmp(dot, ".S"));
}

static int compile_source(struct cc *cc, int src, const char *out)
{
	struct lp_cc_header_hints h;
	struct lp_unseen u;
	char *diag_out, *diag_deps, *where;
	int diag_err, err, status;

	if (cc->kind[src] == LP_ARG_OTHER_SRC)
		return compile_step(cc, src, out, STEP_PLAIN, -1);
	cc->forms.macros = &cc->macros;
	cc->forms.attributes = is_cxx_unit(cc, src);
	note_unseen_hints(cc, cc->argv[src], &u);
	diag_out = scratch_path(cc, cc->m.assembly ? ".s" : ".o");
	diag_deps = scratch_path(cc, ".d");
	diag_err = scratch_file();
	err = scratch_file();
	if (!diag_out || diag_err < 0 || err < 0) {
		/* no scratch space: the instrumented build as it comes */
		status = compile_step(cc, src, out, STEP_INSTRUMENTED, -1);
		goto out;
	}
	cc->diag_deps = diag_deps;
	status = compile_step(cc, src, diag_out, STEP_DIAG, diag_err);
	if (status) {
		replay(diag_err);
		goto out;
	}
	if (header_hints(cc, src, &h))
		status = compile_expanded(cc, src, out, err, &u, &h);
	else
		status = compile_instrumented(cc, src, out, err, &u);
	if (!status) {
		replay(diag_err);
		goto out;
	}
	where = NULL;
	status = compile_with_plain_lines(cc, src, out, err, &where);
	plain_lines_clear(cc);
	if (!status) {
		lp_note("%s: the hint at %s cannot be counted there (file "
			"scope?); compiled plain, the rest of the file "
			"counted", cc->argv[src], where ? where : "a line");
		free(where);
		replay(diag_err);
		goto out;
	}
	free(where);
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
	lp_unseen_release(&u);
	if (diag_err >= 0)
		close(diag_err);
	if (err >= 0)
		close(err);
	if (diag_deps)
		unlink(diag_deps);
	cc->diag_deps = NULL;
	free(diag_deps);
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

		if (cc->kind[i] != LP_ARG_SOURCE &&
		    cc->kind[i] != LP_ARG_OTHER_SRC)
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
static int add_runtime(struct cc *cc, const char *lib)
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

/* True when every source to instrument is C (the pass knows C's stubs). */
static int only_c_sources(const struct cc *cc)
{
	const char *name = cc->compiler.v[cc->compiler.n - 1];
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
 * option, and a name that says gcc spares the probe.
 */
static int assembles_in_process(const struct cc *cc)
{
	const char *name = lp_cc_base_name(cc->compiler.v[cc->compiler.n - 1]);
	char *real = realpath(cc->compiler.v[cc->compiler.n - 1], NULL);
	int gcc = strstr(name, "gcc") || strstr(name, "g++") ||
		  (real && (strstr(lp_cc_base_name(real), "gcc") ||
			    strstr(lp_cc_base_name(real), "g++")));

	free(real);
	return !gcc &&
	       lp_cc_accepts_option(&cc->compiler, "-fno-integrated-as");
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
static void tls_initial_exec(struct cc *cc, const struct lp_cc_mode *m)
{
	lp_args_push(&cc->instrument, "-DLIKELYPROF_TLS_INITIAL_EXEC");
	if (m->data_sections)
		lp_args_push(&cc->instrument, "-DLIKELYPROF_DATA_SECTIONS");
}

static int run_command(struct cc *cc)
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
