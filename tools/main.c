/*
 * main.c - main(): the command table, help, and the stdout check
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "builtin.h"
#include "output.h"
#include "likelyprof.h"
#include "progress.h"
#include "usage.h"

struct cmd {
	const char *name;
	int (*fn)(int argc, const char **argv);
	const char *help;
	/*
	 * The options that take a value, space-separated, for a command
	 * whose options may come anywhere before "--" (NULL: options end at
	 * the first operand, as they must where the operands are a command
	 * line or a compiler's arguments).
	 */
	const char *value_options;
};

/* Sorted by name. */
static const struct cmd commands[] = {
	{ "annotate", cmd_annotate, "the source with each hint's counts "
	  "beside it", "--src --context -o --output --file --function "
	  "--verdict --flip-at --remove-at --min-hits --setting-processes "
	  "--restate-at --hint-macro" },
	{ "c++", cmd_cc, "compile C++ with every __builtin_expect counted",
	  NULL },
	{ "cc", cmd_cc, "compile C with every __builtin_expect counted", NULL },
	{ "check", cmd_check, "warn about annotations that are wrong",
	  "--flip-at --remove-at --min-hits --setting-processes --restate-at "
	  "--src --format --suggest-at --suggest-min --link --rows -o --output "
	  "--file --function --verdict --hint-macro" },
	{ "fix", cmd_fix, "write the patches that remove or flip them",
	  "--src --split --label --flip-at --remove-at --min-hits "
	  "--setting-processes --restate-at --file --function --verdict "
	  "--hint-macro" },
	{ "judge", cmd_judge, "judge the hints of an unmodified binary",
	  NULL },
	/* NULL: merge reads its options in order, --weight N FILE binds */
	{ "merge", cmd_merge, "sum profiles from several runs or machines",
	  NULL },
	{ "overlap", cmd_overlap, "how alike two profiles are",
	  "-n --top --min-hits" },
	{ "report", cmd_report, "print the kernel's branch_annotated table",
	  "--format --group --min-hits --top --width --src --link --rows -o "
	  "--output --file --function --hint-macro" },
	{ "run", cmd_run, "run a program and collect its merged profile",
	  NULL },
};
#define NCOMMANDS (sizeof(commands) / sizeof(commands[0]))

static const char usage_text[] =
	"usage: likelyprof <command> [<args>]\n"
	"       likelyprof <compiler> [<compiler args>]   (launcher form)\n"
	"       likelyprof --version | --help\n";

static void print_usage(FILE *out)
{
	size_t i;

	fputs(usage_text, out);
	fputs("\ncommands:\n", out);
	for (i = 0; i < NCOMMANDS; i++)
		fprintf(out, "   %-8s %s\n", commands[i].name,
			commands[i].help);
	fputs("\n'likelyprof <command> --help' tells more about each.\n"
	      "Typical use:\n"
	      "   make CC=\"likelyprof cc\"\n"
	      "   likelyprof run -- ./prog args\n"
	      "   likelyprof report prog.lprof\n"
	      "   likelyprof check prog.lprof\n"
	      "   likelyprof fix --src . prog.lprof > fixes.mbox\n", out);
}

/* True when @arg is an option of @list that takes its value apart. */
static int takes_value(const char *list, const char *arg)
{
	size_t n = strlen(arg);
	const char *p = list;

	while ((p = strstr(p, arg))) {
		if ((p == list || p[-1] == ' ') && (p[n] == ' ' || !p[n]))
			return 1;
		p += n;
	}
	return 0;
}

/*
 * Moves the options of argv[1..] (with their values) before the operands,
 * keeping the order within each, as getopt_long() does: `report P
 * --format json` is `report --format json P`.  An operand before "--"
 * moves after it, so that nothing after "--" is read as an option.
 */
static void permute_options(int argc, const char **argv, const char *list)
{
	const char **operands = lp_xcalloc((size_t)argc, sizeof(*operands));
	int i, n = 0, out = 1;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		const char *a = argv[i];

		if (a[0] != '-' || !a[1]) {
			operands[n++] = a;
			continue;
		}
		argv[out++] = a;
		if (takes_value(list, a) && i + 1 < argc)
			argv[out++] = argv[++i];
	}
	if (n && i < argc)
		argv[out++] = argv[i++];  /* the "--" */
	memmove(argv + out + n, argv + i, (size_t)(argc - i) * sizeof(*argv));
	memcpy(argv + out, operands, (size_t)n * sizeof(*argv));
	free(operands);
}

/* --version anywhere among a command's options, as --help is. */
static int wants_version(int argc, const char **argv, const char *list)
{
	int i;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--version"))
			return 1;
		if (!list && argv[i][0] != '-')
			break;
		i += takes_value(list ? list : "-o --output --wait", argv[i]);
	}
	return 0;
}

static int print_version(void)
{
	printf("likelyprof %s (profile format %d)\n", LP_VERSION_STRING, 1);
	return LP_EXIT_OK;
}

static int run_command(const struct cmd *cmd, int argc, const char **argv)
{
	if (cmd->fn == cmd_cc)
		return cmd->fn(argc, argv);
	if (wants_version(argc, argv, cmd->value_options))
		return print_version();
	if (cmd->value_options)
		permute_options(argc, argv, cmd->value_options);
	lp_progress_setup(0);
	return cmd->fn(argc, argv);
}

static const struct cmd *find_command(const char *name)
{
	size_t i;

	for (i = 0; i < NCOMMANDS; i++)
		if (!strcmp(commands[i].name, name))
			return &commands[i];
	return NULL;
}

/*
 * The launcher form (CMAKE_C_COMPILER_LAUNCHER=likelyprof) puts the
 * compiler's name or path where a subcommand would be.
 */
static int looks_like_compiler(const char *arg)
{
	/* and the launchers that take a compiler: likelyprof ccache cc */
	static const char *const names[] = {
		"gcc", "g++", "clang", "clang++", "cc", "c++", "c89", "c99",
		"ccache", "sccache", "distcc", "icecc"
	};
	const char *base = strrchr(arg, '/');
	size_t i;

	if (base)
		return access(arg, X_OK) == 0;
	base = arg;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++) {
		size_t n = strlen(names[i]);
		const char *hit = strstr(base, names[i]);

		/* gcc, gcc-12, x86_64-linux-gnu-gcc, clang-14 */
		if (hit && (hit == base || hit[-1] == '-') &&
		    (hit[n] == '\0' || hit[n] == '-'))
			return 1;
	}
	return 0;
}

static size_t edit_distance(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), i, j;
	size_t row[64];

	if (lb >= 64)
		return (size_t)-1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (j = 1; j <= lb; j++) {
			size_t up = row[j];
			size_t best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			diag = up;
		}
	}
	return row[lb];
}

static LP_NORETURN void unknown_command(const char *name)
{
	const char *best = NULL;
	size_t best_d = 3, i;

	for (i = 0; i < NCOMMANDS; i++) {
		size_t d = edit_distance(name, commands[i].name);

		if (d < best_d) {
			best_d = d;
			best = commands[i].name;
		}
	}
	if (best)
		fprintf(stderr, "likelyprof: '%s' is not a command; "
			"did you mean '%s'?\n", name, best);
	else
		fprintf(stderr, "likelyprof: '%s' is not a command "
			"(see 'likelyprof --help')\n", name);
	exit(LP_EXIT_ERROR);
}

/*
 * A write error on stdout (a full disk) must not pass as success; the
 * file of -o (output.c) takes its place only after a command that did
 * its work (0, or check's 1) wrote all of it.
 */
static int check_stdout(int status)
{
	int ok = 1;

	if (fflush(stdout) || ferror(stdout)) {
		if (errno != EPIPE)
			fprintf(stderr, "likelyprof: cannot write output: %s\n",
				strerror(errno));
		ok = 0;
	} else if (fclose(stdout) && errno != EPIPE && errno != EBADF) {
		fprintf(stderr, "likelyprof: cannot write output: %s\n",
			strerror(errno));
		ok = 0;
	}
	if (lp_output_done(ok && status != LP_EXIT_ERROR) < 0 || !ok)
		return LP_EXIT_ERROR;
	return status;
}

/*
 * A name that is itself a compiler, for CC= and CMAKE_C_COMPILER= (which
 * take no subcommand): likelyprof-cc and likelyprof-c++ are `likelyprof
 * cc` and `likelyprof c++`; likelyprof-gcc-12 is `likelyprof gcc-12`; a
 * link named gcc in a folder put first in PATH (as ccache's masquerade
 * folder does) is `likelyprof gcc`, and runs the next gcc in PATH.  NULL
 * for the command's own name.
 */
static const char *compiler_name(const char *argv0)
{
	const char *base = strrchr(argv0, '/');

	base = base ? base + 1 : argv0;
	if (!strncmp(base, "likelyprof-", 11) && base[11])
		return base + 11;
	if (!strncmp(base, "likelyprof", 10) || !*base)
		return NULL;
	return base;
}

int main(int argc, char **argv)
{
	const char **args = (const char **)argv;
	const struct cmd *cmd;
	const char *compiler = compiler_name(args[0]);

	/* gcc's assembler, as likelyprof cc puts us there (cmd-as.c) */
	if (compiler && !strcmp(compiler, "as"))
		return cmd_as(argc, args);
	if (compiler) {
		args[0] = compiler;
		return check_stdout(cmd_cc(argc, args));
	}
	if (argc < 2) {
		print_usage(stderr);
		return LP_EXIT_ERROR;
	}
	if (!strcmp(args[1], "--help") || !strcmp(args[1], "-h") ||
	    !strcmp(args[1], "help")) {
		if (argc > 2 && (cmd = find_command(args[2]))) {
			const char *sub[] = { cmd->name, "--help", NULL };

			return check_stdout(cmd->fn(2, sub));
		}
		print_usage(stdout);
		return check_stdout(LP_EXIT_OK);
	}
	if (!strcmp(args[1], "--version") || !strcmp(args[1], "-V"))
		return check_stdout(print_version());
	cmd = find_command(args[1]);
	if (cmd)
		return check_stdout(run_command(cmd, argc - 1, args + 1));
	if (args[1][0] != '-' && looks_like_compiler(args[1]))
		return cmd_cc(argc - 1, args + 1);
	if (args[1][0] == '-') {
		fprintf(stderr, "likelyprof: unknown option '%s'\n", args[1]);
		/* CMAKE_C_COMPILER=likelyprof runs us with compiler options */
		fputs("as the compiler itself (CC=, CMAKE_C_COMPILER=), name "
		      "likelyprof-cc or likelyprof-c++\n", stderr);
		fputs(usage_text, stderr);
		return LP_EXIT_ERROR;
	}
	unknown_command(args[1]);
}
