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
 * Everything else passes through: the compiler's diagnostics, its exit
 * status, its output files.  One case needs a second try: C has no way to
 * declare a site's objects at file scope, so a file that uses
 * __builtin_expect there (static int x = likely(1);) fails to compile
 * instrumented.  Its diagnostics are then held back and the file is
 * compiled again without instrumentation, with a note on stderr.
 */
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
#include "usage.h"

static const char usage_cc[] =
	"usage: likelyprof cc  [<compiler args>]    runs $CC, or cc\n"
	"       likelyprof c++ [<compiler args>]    runs $CXX, or c++\n"
	"       likelyprof <compiler> [<args>]      launcher form\n"
	"\n"
	"Compiles with every __builtin_expect counted and links the runtime.\n"
	"   make CC=\"likelyprof cc\"\n"
	"   cmake -DCMAKE_C_COMPILER_LAUNCHER=likelyprof \\\n"
	"         -DCMAKE_C_LINKER_LAUNCHER=likelyprof ..\n"
	"With -DLIKELYPROF_ALL_BRANCHES, every if of C code is counted too.\n"
	"Environment: LIKELYPROF_INCLUDE_DIR, LIKELYPROF_LIB_DIR override\n"
	"where the header and the runtime are found.\n";

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

struct args {
	const char **v;
	size_t n, alloc;
};

static void args_push(struct args *a, const char *s)
{
	if (a->n + 2 > a->alloc) {
		a->alloc = a->alloc ? a->alloc * 2 : 32;
		a->v = lp_xrealloc(a->v, a->alloc * sizeof(*a->v));
	}
	a->v[a->n++] = s;
	a->v[a->n] = NULL;
}

static int takes_value(const char *arg)
{
	size_t i;

	for (i = 0; opts_with_value[i]; i++)
		if (!strcmp(arg, opts_with_value[i]))
			return 1;
	return 0;
}

/* What the command line asks the compiler to do. */
struct mode {
	int compile_only;       /* -c, -S, -E, -fsyntax-only, -M/-MM */
	int preprocessed_input; /* .i/.ii: the header is already in */
	int inputs;             /* source, object or library files */
	int info_only;          /* --version, -v alone, -print-*, -dump* */
	int is_static;          /* -static: link the archive */
	int pic;                /* -fPIC/-fpic without -fPIE/-fpie */
	int nostdlib;           /* no -pthread then: it adds libraries */
};

static int ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

static void scan_args(int argc, const char **argv, struct mode *m)
{
	int i, verbose = 0;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			m->inputs++;
			if (ends_with(a, ".i") || ends_with(a, ".ii"))
				m->preprocessed_input = 1;
			continue;
		}
		if (takes_value(a)) {
			if (!strcmp(a, "-x") && i + 1 < argc &&
			    strstr(argv[i + 1], "cpp-output"))
				m->preprocessed_input = 1;
			i++;
			continue;
		}
		if (!strcmp(a, "-c") || !strcmp(a, "-S") || !strcmp(a, "-E") ||
		    !strcmp(a, "-fsyntax-only") || !strcmp(a, "-M") ||
		    !strcmp(a, "-MM"))
			m->compile_only = 1;
		else if (!strcmp(a, "-static"))
			m->is_static = 1;
		else if (!strcmp(a, "-fPIC") || !strcmp(a, "-fpic"))
			m->pic = 1;
		else if (!strcmp(a, "-fPIE") || !strcmp(a, "-fpie") ||
			 !strcmp(a, "-fno-PIC") || !strcmp(a, "-fno-pic"))
			m->pic = 0;
		else if (!strcmp(a, "-nostdlib") ||
			 !strcmp(a, "-nodefaultlibs"))
			m->nostdlib = 1;
		else if (!strcmp(a, "-v"))
			verbose = 1;
		else if (!strcmp(a, "--version") || !strcmp(a, "--help") ||
			 !strncmp(a, "-print-", 7) || !strncmp(a, "-dump", 5) ||
			 !strcmp(a, "-###"))
			m->info_only = 1;
		else if (!strncmp(a, "-l", 2))
			m->inputs++;
	}
	if (!m->inputs && verbose)
		m->info_only = 1;
}

/* The directory of the running executable; the caller frees it. */
static char *self_dir(void)
{
	char path[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", path, sizeof(path) - 1);
	char *slash;

	if (n <= 0)
		return lp_xstrdup(".");
	path[n] = '\0';
	slash = strrchr(path, '/');
	if (slash)
		*slash = '\0';
	return lp_xstrdup(path);
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
 * (bin/../include, bin/../lib).
 */
static void find_dirs(char **inc, char **lib)
{
	const char *env_inc = getenv("LIKELYPROF_INCLUDE_DIR");
	const char *env_lib = getenv("LIKELYPROF_LIB_DIR");
	char *dir = self_dir();
	const char *up = file_exists(dir, "include/likelyprof.h") ? "" : "/..";

	*inc = env_inc && *env_inc ? lp_xstrdup(env_inc)
				   : lp_xstrfmt("%s%s/include", dir, up);
	*lib = env_lib && *env_lib ? lp_xstrdup(env_lib)
				   : lp_xstrfmt("%s%s/lib", dir, up);
	free(dir);
	if (!file_exists(*inc, "likelyprof.h"))
		lp_die("cannot find likelyprof.h in '%s' "
		       "(set LIKELYPROF_INCLUDE_DIR)", *inc);
}

/*
 * The compiler to run: $CC/$CXX split on blanks ("gcc -m32"), unless it
 * names likelyprof itself, which would recurse.
 */
static char *push_compiler(struct args *a, const char *var, const char *dflt)
{
	const char *env = getenv(var);
	char *copy = NULL, *tok, *save = NULL;
	size_t start = a->n;

	if (env && *env) {
		copy = lp_xstrdup(env);
		for (tok = strtok_r(copy, " \t", &save); tok;
		     tok = strtok_r(NULL, " \t", &save))
			args_push(a, tok);
		if (a->n > start && strstr(a->v[start], "likelyprof"))
			a->n = start;
	}
	if (a->n == start)
		args_push(a, dflt);
	/* the words of $CC live in it: free it when @a is done */
	return copy;
}

/* Waits for @pid; returns its exit status, or 128 + signal. */
static int wait_status(pid_t pid)
{
	int status;

	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR)
			lp_die("cannot wait for the compiler: %s",
			       strerror(errno));
	if (WIFEXITED(status))
		return WEXITSTATUS(status);
	if (WIFSIGNALED(status))
		return 128 + WTERMSIG(status);
	return LP_EXIT_ERROR;
}

/*
 * Shared-library code reaches thread-local storage through
 * __tls_get_addr, and gcc calls it at every counter access.  With TLS
 * descriptors (-mtls-dialect=gnu2) gcc computes the address once per
 * function and each evaluation is again one increment; the dialect only
 * changes how TLS is addressed, so the project's own code is unaffected.
 * clang 14 knows no such option, hence the probe.
 */
static int supports_tls_descriptors(const struct args *compiler)
{
	struct args probe = { NULL, 0, 0 };
	size_t i;
	int ok;
	pid_t pid;

	for (i = 0; i < compiler->n; i++)
		args_push(&probe, compiler->v[i]);
	args_push(&probe, "-mtls-dialect=gnu2");
	args_push(&probe, "-fsyntax-only");
	args_push(&probe, "-xc");
	args_push(&probe, "/dev/null");
	fflush(NULL);
	pid = fork();
	if (pid < 0) {
		free(probe.v);
		return 0;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		if (null >= 0) {
			dup2(null, 1);
			dup2(null, 2);
		}
		execvp(probe.v[0], (char *const *)probe.v);
		_exit(127);
	}
	free(probe.v);
	ok = wait_status(pid) == 0;
	return ok;
}

/* Runs @a with stderr to @err_fd (-1: inherited); returns exit status. */
static int run(const struct args *a, int err_fd)
{
	pid_t pid;

	fflush(NULL);
	pid = fork();
	if (pid < 0)
		lp_die("cannot start '%s': %s", a->v[0], strerror(errno));
	if (!pid) {
		if (err_fd >= 0 && dup2(err_fd, 2) < 0)
			_exit(127);
		execvp(a->v[0], (char *const *)a->v);
		fprintf(stderr, "likelyprof: cannot run '%s': %s\n", a->v[0],
			strerror(errno));
		_exit(127);
	}
	return wait_status(pid);
}

static int file_scope_failure(int fd)
{
	static const char *const marks[] = {
		"braced-group within expression allowed only inside a function",
		"statement expression not allowed at file scope",
		"statement-expressions are not allowed outside functions",
	};
	char buf[8192];
	ssize_t n;
	size_t i;
	int found = 0;

	if (lseek(fd, 0, SEEK_SET) < 0)
		return 0;
	/* a mark split across two reads is re-read thanks to the overlap */
	while ((n = read(fd, buf, sizeof(buf) - 1)) > 0) {
		buf[n] = '\0';
		for (i = 0; i < sizeof(marks) / sizeof(marks[0]); i++)
			if (strstr(buf, marks[i]))
				found = 1;
		if (n == (ssize_t)sizeof(buf) - 1 &&
		    lseek(fd, -128, SEEK_CUR) < 0)
			break;
	}
	return found;
}

/* The whole of @fd from its start, NUL-terminated; the caller frees it. */
static char *slurp(int fd, size_t *len)
{
	size_t cap = 8192, n = 0;
	char *buf = lp_xmalloc(cap);
	ssize_t r;

	if (lseek(fd, 0, SEEK_SET) < 0) {
		buf[0] = '\0';
		*len = 0;
		return buf;
	}
	while ((r = read(fd, buf + n, cap - n - 1)) > 0) {
		n += (size_t)r;
		if (n + 1 == cap)
			buf = lp_xrealloc(buf, cap *= 2);
	}
	buf[n] = '\0';
	*len = n;
	return buf;
}

/* A diagnostic's first line: "file:line:col: warning: ..." and the like. */
static int is_headline(const char *line, size_t n)
{
	return n && line[0] != ' ' &&
	       (memmem(line, n, "warning:", 8) || memmem(line, n, "error:", 6));
}

static int is_continuation(const char *line, size_t n)
{
	return n && (line[0] == ' ' || memmem(line, n, "note:", 5));
}

/* The length of the line at @p, without its newline. */
static size_t line_len(const char *p, const char *end)
{
	const char *nl = memchr(p, '\n', (size_t)(end - p));

	return nl ? (size_t)(nl - p) : (size_t)(end - p);
}

/*
 * Replays the compiler's stderr byte for byte, but for two echoes of the
 * instrumentation:
 *  - the header hands a hint's condition to both arms of
 *    __builtin_choose_expr (one serves constant contexts), and gcc warns
 *    in both, so a warning inside likely(...) comes twice: a diagnostic
 *    identical to one already printed is dropped;
 *  - a warning in a hint's condition makes gcc name the include chain of
 *    the header the macro came from ("In file included from
 *    .../likelyprof.h:39, from <command-line>:"), which the plain build
 *    does not print: those lines are dropped.
 */
static void replay_diagnostics(int from)
{
	size_t len, nseen = 0, k;
	char *buf = slurp(from, &len);
	const char *p = buf, *end = buf + len;
	const char **seen = NULL;
	size_t *seen_len = NULL;

	while (p < end) {
		size_t n = line_len(p, end), blk = n;
		const char *q;
		int dup = 0;

		if (!strncmp(p, "In file included from ", 22) &&
		    memmem(p, n, "likelyprof.h:", 13)) {
			q = p + n + (p + n < end);
			/* its "                 from ..." lines */
			while (q < end && q[0] == ' ' &&
			       memmem(q, line_len(q, end), " from ", 6))
				q += line_len(q, end) + 1;
			p = q > end ? end : q;
			continue;
		}
		if (!is_headline(p, n)) {
			fwrite(p, 1, n + (p + n < end), stderr);
			p += n + 1;
			continue;
		}
		/* the diagnostic: its first line, snippets and notes */
		for (q = p + n + 1; q < end; q += line_len(q, end) + 1) {
			size_t m = line_len(q, end);

			if (!is_continuation(q, m))
				break;
			blk = (size_t)(q - p) + m;
		}
		for (k = 0; k < nseen && !dup; k++)
			dup = seen_len[k] == blk && !memcmp(seen[k], p, blk);
		if (!dup) {
			fwrite(p, 1, blk + (p + blk < end), stderr);
			seen = lp_xrealloc(seen, (nseen + 1) * sizeof(*seen));
			seen_len = lp_xrealloc(seen_len,
					       (nseen + 1) * sizeof(*seen_len));
			seen[nseen] = p;
			seen_len[nseen++] = blk;
		}
		p += blk + 1;
	}
	fflush(stderr);
	free(seen);
	free(seen_len);
	free(buf);
}

static const char *source_name(int argc, const char **argv)
{
	int i;

	for (i = 0; i < argc; i++) {
		if (argv[i][0] != '-')
			return argv[i];
		if (takes_value(argv[i]))
			i++;
	}
	return "input";
}

int cmd_cc(int argc, const char **argv)
{
	char *inc, *lib, *header, *libflag, *rpath, *archive;
	char *compiler_words = NULL;
	const char *name = argv[0];
	struct args plain = { NULL, 0, 0 }, full = { NULL, 0, 0 };
	struct mode m;
	int i, instrument, link, status;
	const char *tmpdir = getenv("TMPDIR");
	char *tmpl;
	int err_fd;

	if (lp_wants_help(argc, argv) && (!strcmp(name, "cc") ||
					  !strcmp(name, "c++"))) {
		fputs(usage_cc, stdout);
		return LP_EXIT_OK;
	}
	if (!strcmp(name, "cc"))
		compiler_words = push_compiler(&plain, "CC", "cc");
	else if (!strcmp(name, "c++"))
		compiler_words = push_compiler(&plain, "CXX", "c++");
	else
		args_push(&plain, name);
	argc--;
	argv++;

	scan_args(argc, argv, &m);
	instrument = !m.info_only && m.inputs && !m.preprocessed_input;
	link = !m.info_only && m.inputs && !m.compile_only;
	if (!instrument && !link) {
		for (i = 0; i < argc; i++)
			args_push(&plain, argv[i]);
		execvp(plain.v[0], (char *const *)plain.v);
		lp_die("cannot run '%s': %s", plain.v[0], strerror(errno));
	}

	/* owned until the compiler has run, which is until we exit */
	find_dirs(&inc, &lib);
	header = lp_xstrfmt("%s/likelyprof.h", inc);
	libflag = lp_xstrfmt("-L%s", lib);
	rpath = lp_xstrfmt("-Wl,-rpath,%s", lib);
	archive = lp_xstrfmt("%s/liblikelyprof.a", lib);

	for (i = 0; i < (int)plain.n; i++)
		args_push(&full, plain.v[i]);
	if (instrument) {
		args_push(&full, "-DLIKELYPROF_INSTRUMENT");
		args_push(&full, "-include");
		args_push(&full, header);
		if (m.pic && supports_tls_descriptors(&plain))
			args_push(&full, "-mtls-dialect=gnu2");
	}
	for (i = 0; i < argc; i++) {
		args_push(&full, argv[i]);
		args_push(&plain, argv[i]);
	}
	if (link) {
		/*
		 * After the user's objects, so the linker has seen the
		 * references; --no-as-needed because a program whose only
		 * sites sit in a shared library has no reference of its own.
		 * The plain command links the runtime too: other objects of
		 * the program are instrumented.
		 */
		struct args *both[] = { &full, &plain };
		size_t k;

		for (k = 0; k < 2; k++) {
			if (m.is_static) {
				args_push(both[k], archive);
			} else {
				args_push(both[k], libflag);
				args_push(both[k], rpath);
				args_push(both[k],
					  "-Wl,--push-state,--no-as-needed");
				args_push(both[k], "-llikelyprof");
				args_push(both[k], "-Wl,--pop-state");
			}
			if (!m.nostdlib)
				args_push(both[k], "-pthread");
			args_push(both[k], "-ldl");
		}
	}
	if (!instrument) {
		status = run(&full, -1);
		goto out;
	}

	/*
	 * Hold the diagnostics back only until we know whether the file-scope
	 * retry is needed.  Colour survives the detour when stderr is a
	 * terminal.
	 */
	if (isatty(2)) {
		args_push(&full, "-fdiagnostics-color=always");
		args_push(&plain, "-fdiagnostics-color=always");
	}
	tmpl = lp_xstrfmt("%s/likelyprof-cc-XXXXXX",
			  tmpdir && *tmpdir ? tmpdir : "/tmp");
	err_fd = mkstemp(tmpl);
	if (err_fd >= 0)
		unlink(tmpl);
	free(tmpl);
	if (err_fd < 0) {
		status = run(&full, -1);
		goto out;
	}
	status = run(&full, err_fd);
	if (status && file_scope_failure(err_fd)) {
		lp_note("%s: __builtin_expect outside a function; "
			"compiled without profiling", source_name(argc, argv));
		status = run(&plain, -1);
	} else {
		replay_diagnostics(err_fd);
	}
	close(err_fd);
out:
	free(full.v);
	free(plain.v);
	free(compiler_words);
	free(inc);
	free(lib);
	free(header);
	free(libflag);
	free(rpath);
	free(archive);
	return status;
}
