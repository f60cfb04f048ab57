/*
 * find.c - finding ourselves, the header, the runtime and the compiler
 * (likelyprof cc, tools/cmd-cc.c)
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
#include "cc/args.h"
#include "cc/find.h"
#include "spawn.h"
#include "usage.h"


/* A word of $CC that is likelyprof: by its name, or because it is us. */
static int names_likelyprof(const char *word)
{
	char *found;
	int self;

	if (!strncmp(lp_cc_base_name(word), "likelyprof", 10))
		return 1;
	found = strchr(word, '/') ? lp_xstrdup(word) : NULL;
	if (!found) {
		/* only a PATH lookup that lands on us counts */
		const char *path = getenv("PATH");

		if (path && *path)
			found = lp_path_search(path, word, lp_path_executable,
					       NULL);
	}
	self = found && lp_is_self(found);
	free(found);
	return self;
}

int lp_cc_file_exists(const char *dir, const char *name)
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
int lp_cc_find_dirs(char **inc, char **lib)
{
	const char *env_inc = getenv("LIKELYPROF_INCLUDE_DIR");
	const char *env_lib = getenv("LIKELYPROF_LIB_DIR");
	char *exe = lp_self_path(), *slash = strrchr(exe, '/');
	const char *dir = exe, *up;

	if (slash)
		*slash = '\0';
	else
		dir = ".";
	up = lp_cc_file_exists(dir, "include/likelyprof.h") ? "" : "/..";
	*inc = env_inc && *env_inc ? lp_xstrdup(env_inc)
				   : lp_xstrfmt("%s%s/include", dir, up);
	*lib = env_lib && *env_lib ? lp_xstrdup(env_lib)
				   : lp_xstrfmt("%s%s/lib", dir, up);
	free(exe);
	if (!lp_cc_file_exists(*inc, "likelyprof.h"))
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
char *lp_cc_compiler_from_env(struct lp_args *a, const char *var,
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
int lp_cc_tls_setting_valid(void)
{
	const char *tls = getenv("LIKELYPROF_TLS");

	return !tls || !*tls || !strcmp(tls, "initial-exec") ||
	       !strcmp(tls, "dynamic");
}

int lp_cc_pic_tls_initial_exec(void)
{
	const char *tls = getenv("LIKELYPROF_TLS");

	return !tls || strcmp(tls, "dynamic") != 0;
}

/* Whether @compiler accepts @option in a compile of C. */
int lp_cc_accepts_option(const struct lp_args *compiler, const char *option)
{
	struct lp_args probe = LP_ARGS_INIT;
	int null = open("/dev/null", O_RDWR), ok;

	lp_args_append(&probe, compiler);
	lp_args_push(&probe, option);
	/*
	 * -E, not -fsyntax-only: ccache hands a preprocessing to the
	 * compiler as it is, where it drops options it knows (such as
	 * -frewrite-includes) from a compile it runs itself, and the
	 * probe then said yes for gcc.
	 */
	lp_args_push(&probe, "-E");
	lp_args_push(&probe, "-xc");
	lp_args_push(&probe, "/dev/null");
	lp_args_push(&probe, "-o");
	lp_args_push(&probe, "/dev/null");
	ok = null >= 0 && lp_run(&probe, null, null) == 0;
	if (null >= 0)
		close(null);
	free(probe.v);
	return ok;
}

