/*
 * unit.c - one source's compile under likelyprof cc
 *
 * A C unit whose source the header counts as it is (no copy, no
 * --hint-macro, no all-branches mode, no direct call of a builtin hint
 * in it or its headers: direct.c) is compiled once, instrumented,
 * keeping the user's warnings: when that compile succeeds and says
 * nothing, the plain one would have said nothing either (the header
 * keeps every warning of the project's, doc/DESIGN.md "Warnings"), and
 * it is the unit's result.  Otherwise (it spoke or failed, or the unit
 * is C++, or another of those):
 * the plain compile, into the scratch folder, gives the diagnostics and
 * the verdict, and lists the unit's own headers (-MMD).  The
 * instrumented compile then writes the real output: of the source, of
 * its copy in which the hints the header cannot see are counted
 * (unseen.c, copy.c), or of the unit with its includes expanded where
 * its headers hold such hints (expand.c).  A copy that does not compile
 * costs its hints, with a note; an instrumented failure after a plain
 * success is retried with the lines the compiler named compiled plain
 * (a file-scope hint in C), then the file is compiled plain.
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
#include <unistd.h>

#include "cc/direct.h"
#include "cc/expand.h"
#include "cc/find.h"
#include "cc/attrmacro.h"
#include "cc/unit.h"
#include "usage.h"

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


char *lp_cc_scratch_path(struct lp_cc *cc, const char *suffix)
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

void lp_cc_scratch_remove(struct lp_cc *cc)
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
 * the unit printed with its includes expanded (expand.c); STEP_PREPROCESS:
 * the unit preprocessed, as the plain compile reads it (attrmacro.c)
 */
enum step {
	STEP_DIAG, STEP_INSTRUMENTED, STEP_UNGROUPED, STEP_PLAIN, STEP_EXPAND,
	STEP_PREPROCESS
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
static int side_skipped(const struct lp_cc *cc, const char *a, enum step step)
{
	if (step == STEP_DIAG || step == STEP_PREPROCESS)
		return 1;
	if (step == STEP_EXPAND)
		return !is_deps_option(a);
	return cc->copy && cc->copy->expanded && step != STEP_PLAIN &&
	       is_deps_option(a);
}

/* The compiler's word after the launchers (ccache gcc: gcc). */
static size_t driver_word(const struct lp_cc *cc)
{
	size_t k = 0;

	while (k + 1 < cc->compiler.n && lp_cc_is_launcher(cc->compiler.v[k]))
		k++;
	return k;
}

/*
 * The compiler's words, without a launcher in front (ccache) for the
 * compile of an expanded unit: ccache preprocesses a source itself and
 * compiles what it got as plain preprocessed text, where gcc's
 * directives-only text still holds its #defines.  Such a compile would
 * not be found in the cache anyway: its input is new each time.
 */
static void append_compiler(const struct lp_cc *cc, struct lp_args *a,
			    enum step step)
{
	size_t k = 0;

	if (cc->copy && cc->copy->expanded && step != STEP_DIAG &&
	    step != STEP_PLAIN)
		k = driver_word(cc);
	for (; k < cc->compiler.n; k++)
		lp_args_push(a, cc->compiler.v[k]);
}

/*
 * The compile of source argument @src into @out (NULL: where the compiler
 * puts it): every option of the user's, no other input.  The diagnostics
 * step writes no side file and asks for the colour the user would see.
 */
static void compile_args(const struct lp_cc *cc, struct lp_args *a, int src,
			 const char *out, enum step step)
{
	int i;

	append_compiler(cc, a, step);
	if (step == STEP_EXPAND)
		lp_args_append(a, &cc->instrument);
	if (step == STEP_EXPAND || step == STEP_PREPROCESS) {
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
	if (!cc->m.compile_only && step != STEP_EXPAND &&
	    step != STEP_PREPROCESS)
		lp_args_push(a, "-c");
	if (step != STEP_DIAG && step != STEP_PLAIN && !cc->loud)
		lp_args_push(a, "-w");
	if (step == STEP_DIAG && cc->colour)
		lp_args_push(a, "-fdiagnostics-color=always");
	if ((step == STEP_DIAG || cc->loud) && cc->diag_deps) {
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
static int compile_step(const struct lp_cc *cc, int src, const char *out,
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
static size_t add_plain_lines(struct lp_cc *cc, int fd, const char *src,
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

static void plain_lines_clear(struct lp_cc *cc)
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
static int compile_with_plain_lines(struct lp_cc *cc, int src, const char *out,
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
/* The source's note: what it leaves (@what), if anything. */
static void note_source(const char *src, const char *what)
{
	if (*what)
		lp_note("%s: not counted: %s; likelyprof-cc(1) lists the "
			"forms counted", src, what);
}

/* The headers' note: what the first leaves, the others named. */
static void note_headers(const char *src, const struct lp_cc_header_hints *h)
{
	if (*h->note && !h->nalso)
		lp_note("%s: not counted in a header: %s; likelyprof-cc(1) "
			"lists the forms counted", src, h->note);
	else if (*h->note)
		lp_note("%s: not counted in a header: %s; and in %u more "
			"(%s); likelyprof-cc(1) lists the forms counted",
			src, h->note, h->nalso, h->also + 2);
}

/* The notes of what the source (@u) and its headers (@h) leave. */
static void note_left(const char *src, const struct lp_unseen *u,
		      const struct lp_cc_header_hints *h)
{
	char what[400] = "";

	lp_unseen_describe(u, what, sizeof(what));
	note_source(src, what);
	note_headers(src, h);
}

/*
 * The notes of an expanded unit: its attributes as the text compiled
 * leaves them (@left), the hint macro calls as the files' own (@u, @h).
 */
static void note_expanded(const char *src, const struct lp_unseen *u,
			  const struct lp_cc_header_hints *h,
			  const struct lp_cc_expanded_left *left)
{
	char what[620] = "";

	lp_unseen_describe_as(u, left->source, what, sizeof(what));
	note_source(src, what);
	note_headers(src, h->macros_left ? h : &left->headers);
}

/* The instrumented compile, and without the assembler pass if need be. */
static int instrumented_step(struct lp_cc *cc, int src, const char *out,
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
static int is_clang(struct lp_cc *cc)
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
static char *stable_copy_dir(const struct lp_cc *cc, int src, const char *out)
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
static int compile_copy(struct lp_cc *cc, int src, const char *out, int err,
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
	if (!made && (dir = lp_cc_scratch_path(cc, ".attr")))
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
static int compile_instrumented(struct lp_cc *cc, int src, const char *out,
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
static char *expand_unit(struct lp_cc *cc, int src, const char *out, int err)
{
	char *obj = out ? lp_xstrdup(out)
			: lp_cc_object_name(cc->argv[src], cc->m.assembly);
	char *raw = lp_cc_scratch_path(cc, ".ii");
	int status = 1;

	if (raw) {
		lp_cc_expand_options(&cc->expand, cc->argc, cc->argv, obj,
				     raw, is_clang(cc));
		status = compile_step(cc, src, NULL, STEP_EXPAND, err);
		lp_args_release_owned(&cc->expand);
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
static int compile_expanded(struct lp_cc *cc, int src, const char *out,
			    int err, const struct lp_unseen *u,
			    const struct lp_cc_header_hints *h)
{
	char *raw = expand_unit(cc, src, out, err), *text = NULL, *copy;
	struct lp_cc_expanded_left left;
	size_t len = 0, copy_len;
	int status;

	if (raw) {
		text = lp_unseen_read(raw, &len);
		unlink(raw);
	}
	free(raw);
	if (ftruncate(err, 0) || lseek(err, 0, SEEK_SET) || !text ||
	    !lp_cc_expanded_copy(text, len, cc->argv[src], &cc->forms,
				 &copy, &copy_len, &left)) {
		note_left(cc->argv[src], u, h);
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
	if (cc->forms.attributes)
		note_expanded(cc->argv[src], u, h, &left);
	else    /* C: every attribute is left, as the files' reading says */
		note_left(cc->argv[src], u, h);
	status = compile_copy(cc, src, out, err, copy, copy_len,
			      h->counted_what, LP_CC_COPY_EXPANDED |
			      (cc->m.assembly ? LP_CC_COPY_ASSEMBLY : 0));
	free(copy);
	return status;
}

/*
 * The hints of the unit's own headers, read from the diagnostics
 * compile's list of them into @h: 1 when some can be counted, 0 else.
 */
static int header_hints(struct lp_cc *cc, struct lp_cc_header_hints *h)
{
	memset(h, 0, sizeof(*h));
	if (!cc->diag_deps || lp_cc_header_hints(h, cc->diag_deps,
						 &cc->forms))
		return 0;
	return h->sum.attr.counted + h->sum.macros.counted > 0;
}

/*
 * The names that spell [[likely]] or [[unlikely]] in the unit's source
 * and own headers, with where the compiler expanded them into one
 * (attrmacro.c): the unit preprocessed once more, only where some name
 * is defined so.  @return : 1 when @am holds names to count, else 0.
 */
static int attr_macros(struct lp_cc *cc, int src, struct lp_attr_macros *am,
		       int err)
{
	char *pre, *text;
	size_t len = 0;
	int status = 1;

	if (!lp_cc_attr_macro_names(am, cc->argv[src], cc->diag_deps))
		return 0;
	if ((pre = lp_cc_scratch_path(cc, ".i"))) {
		lp_args_push(&cc->expand, lp_xstrdup("-E"));
		lp_args_push(&cc->expand, lp_xstrdup("-dD"));
		lp_args_push(&cc->expand, lp_xstrdup("-o"));
		lp_args_push(&cc->expand, lp_xstrdup(pre));
		status = compile_step(cc, src, NULL, STEP_PREPROCESS, err);
		lp_args_release_owned(&cc->expand);
	}
	text = !status ? lp_unseen_read(pre, &len) : NULL;
	if (text)
		lp_attr_macros_resolve(am, text, len);
	else
		lp_note("%s: [[likely]]/[[unlikely]] spelled by a macro (%s) "
			"not counted: the unit could not be preprocessed",
			cc->argv[src], am->nr ? am->v[0].name : "if any");
	if (pre)
		unlink(pre);
	free(pre);
	free(text);
	if (ftruncate(err, 0) || lseek(err, 0, SEEK_SET))
		return 0;
	return am->resolved && am->nr;
}

/*
 * Whether source argument @src is compiled as C++: its -x, else its
 * suffix, and for a .c the driver (g++ and clang++ compile it as C++).
 */
static int is_cxx_unit(const struct lp_cc *cc, int src)
{
	const char *dot = strrchr(lp_cc_base_name(cc->argv[src]), '.');

	if (cc->lang[src])
		return strstr(cc->lang[src], "c++") != NULL;
	if (dot && (!strcmp(dot, ".c") || !strcmp(dot, ".i")))
		return cc->compiler.n && strstr(lp_cc_base_name(
			cc->compiler.v[driver_word(cc)]), "++") != NULL;
	return !dot || (strcmp(dot, ".m") && strcmp(dot, ".s") &&
			strcmp(dot, ".S"));
}

/*
 * Removes the output of source argument @src, as a failed compile does:
 * a regular file only (not -o /dev/null).
 */
static void unlink_output(const struct lp_cc *cc, int src, const char *out)
{
	char *obj = out ? NULL : lp_cc_object_name(cc->argv[src],
						   cc->m.assembly);
	struct stat st;

	if (!lstat(out ? out : obj, &st) && S_ISREG(st.st_mode))
		unlink(out ? out : obj);
	free(obj);
}

/*
 * The one compile of a C unit (see the top): instrumented, the user's
 * warnings kept, its stderr into @err.  The unit's own headers, read
 * for a direct call of a hint (direct.c) and for their notes, come from
 * the user's dependency file where the command asks for one (which
 * names the system's headers too), else from -MMD into @deps.
 * @return : 0 when the unit is compiled and noted; 1 when the output is
 * made but the compiler spoke, or a header calls a hint directly; 2
 * when it failed.
 */
static int compile_once(struct lp_cc *cc, int src, const char *out, int err,
			const char *deps, const struct lp_unseen *u)
{
	struct lp_cc_header_hints h;
	char *obj = out ? NULL : lp_cc_object_name(cc->argv[src],
						   cc->m.assembly);
	int bare, status;
	char *user_deps = lp_cc_deps_file(cc->argc, cc->argv,
					  out ? out : obj, &bare);

	cc->loud = 1;
	cc->diag_deps = user_deps ? NULL : deps;
	status = compile_step(cc, src, out, STEP_INSTRUMENTED, err);
	cc->loud = 0;
	cc->diag_deps = user_deps ? user_deps : deps;
	if (status)
		status = 2;
	else if (lseek(err, 0, SEEK_END) || lp_cc_deps_direct_hint(
			cc->diag_deps))
		status = 1;
	else {
		header_hints(cc, &h);
		note_left(cc->argv[src], u, &h);
	}
	cc->diag_deps = NULL;
	free(user_deps);
	free(obj);
	return status;
}

/*
 * Whether source argument @src may be compiled once (see the top), its
 * source read into @u for it.
 */
static int once_possible(struct lp_cc *cc, int src, struct lp_unseen *u)
{
	int i;

	if (cc->forms.attributes || cc->macros.nr || cc->plain_lines.n ||
	    lp_cc_direct_hint(cc->argv[src]))
		return 0;
	/* every if a macro's expansion: see direct.c */
	for (i = 0; i < cc->argc; i++)
		if (strstr(cc->argv[i], "LIKELYPROF_ALL_BRANCHES"))
			return 0;
	lp_unseen_scan(u, cc->argv[src], &cc->forms);
	return !u->copy;
}

int lp_cc_compile_unit(struct lp_cc *cc, int src, const char *out)
{
	struct lp_attr_macros am = LP_ATTR_MACROS_INIT;
	struct lp_cc_header_hints h;
	struct lp_unseen u;
	char *diag_out, *diag_deps, *where;
	int diag_err, err, status, once = 2, scanned;

	if (cc->kind[src] == LP_ARG_OTHER_SRC)
		return compile_step(cc, src, out, STEP_PLAIN, -1);
	cc->forms.macros = &cc->macros;
	cc->forms.attributes = is_cxx_unit(cc, src);
	cc->forms.attr_macros = NULL;
	memset(&u, 0, sizeof(u));
	diag_out = lp_cc_scratch_path(cc, cc->m.assembly ? ".s" : ".o");
	diag_deps = lp_cc_scratch_path(cc, ".d");
	diag_err = scratch_file();
	err = scratch_file();
	if (!diag_out || diag_err < 0 || err < 0) {
		/* no scratch space: the instrumented build as it comes */
		status = compile_step(cc, src, out, STEP_INSTRUMENTED, -1);
		goto out;
	}
	scanned = once_possible(cc, src, &u);
	if (scanned) {
		once = compile_once(cc, src, out, err, diag_deps, &u);
		if (!once) {
			status = 0;
			goto out;
		}
		if (ftruncate(err, 0) || lseek(err, 0, SEEK_SET))
			once = 2;
	}
	cc->diag_deps = diag_deps;
	status = compile_step(cc, src, diag_out, STEP_DIAG, diag_err);
	if (status) {
		/* the instrumented output, made, is not the plain build's */
		if (once == 1)
			unlink_output(cc, src, out);
		replay(diag_err);
		goto out;
	}
	if (cc->forms.attributes && attr_macros(cc, src, &am, err))
		cc->forms.attr_macros = &am;
	if (!scanned) {
		lp_unseen_release(&u);
		lp_unseen_scan(&u, cc->argv[src], &cc->forms);
	}
	if (header_hints(cc, &h)) {
		/* what is left is said of the text compiled */
		status = compile_expanded(cc, src, out, err, &u, &h);
	} else {
		note_left(cc->argv[src], &u, &h);
		/* made once already: the plain compile's warnings shown */
		status = once != 1 ? compile_instrumented(cc, src, out, err,
							  &u) : 0;
	}
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
	cc->forms.attr_macros = NULL;
	lp_attr_macros_release(&am);
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

