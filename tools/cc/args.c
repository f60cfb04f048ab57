/*
 * args.c - what each argument of a compiler's command line is, and what
 * the command asks the compiler to do (likelyprof cc, tools/cmd-cc.c)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/args.h"
#include "usage.h"

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

int lp_cc_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);

	return n >= m && !strcmp(s + n - m, suffix);
}

const char *lp_cc_base_name(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

static enum lp_arg_kind kind_by_name(const char *a, const char *lang)
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

		return in_list(lang, langs) ? LP_ARG_SOURCE : LP_ARG_OTHER_SRC;
	}
	for (i = 0; c_like[i]; i++)
		if (lp_cc_ends_with(a, c_like[i]))
			return LP_ARG_SOURCE;
	for (i = 0; other[i]; i++)
		if (lp_cc_ends_with(a, other[i]))
			return LP_ARG_OTHER_SRC;
	return LP_ARG_INPUT;
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
void lp_cc_scan_args(int argc, const char **argv, enum lp_arg_kind *kind,
		      const char **lang, struct lp_cc_mode *m)
{
	const char *x = NULL;
	int i, verbose = 0;

	memset(m, 0, sizeof(*m));
	for (i = 0; i < argc; i++) {
		const char *a = argv[i];

		kind[i] = LP_ARG_OPTION;
		lang[i] = x;
		if (a[0] != '-' || !a[1]) {
			kind[i] = kind_by_name(a, x);
			if (!strcmp(a, "-") && kind[i] != LP_ARG_INPUT)
				m->from_stdin = 1;
			if (kind[i] == LP_ARG_SOURCE)
				m->sources++;
			else if (kind[i] == LP_ARG_OTHER_SRC)
				m->other_sources++;
			else
				m->inputs++;
			continue;
		}
		if (in_list(a, opts_with_value)) {
			if (!strcmp(a, "-o")) {
				kind[i] = LP_ARG_OUTPUT;
				m->has_output = 1;
			} else if (!strcmp(a, "-x")) {
				kind[i] = LP_ARG_LANG;
				x = i + 1 < argc ? argv[i + 1] : NULL;
			} else if (is_side_output(a)) {
				kind[i] = LP_ARG_SIDE;
			} else if (is_link_option(a)) {
				kind[i] = LP_ARG_LINK;
				m->inputs += !strcmp(a, "-l");
			}
			if (i + 1 < argc) {
				kind[i + 1] = LP_ARG_VALUE;
				lang[i + 1] = x;
			}
			i++;
			continue;
		}
		if (is_side_output(a))
			kind[i] = LP_ARG_SIDE;
		else if (is_link_option(a))
			kind[i] = LP_ARG_LINK;
		if (!strncmp(a, "-o", 2)) {
			kind[i] = LP_ARG_OUTPUT;
			m->has_output = 1;
		} else if (!strncmp(a, "-x", 2)) {
			kind[i] = LP_ARG_LANG;
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


int lp_cc_is_launcher(const char *name)
{
	return in_list(lp_cc_base_name(name), launchers);
}
