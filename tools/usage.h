/*
 * usage.h - how the command reports problems
 *
 * Messages go to stderr as "likelyprof: <message>", lower case, no final
 * period, quoting names as '%s'.  Exit status: 0 success, 1 `check` found
 * annotations to change, 2 any error (usage, input, I/O).  Only code under
 * tools/ prints or exits; lib/ returns codes.
 */
#ifndef LP_USAGE_H
#define LP_USAGE_H

#include <stdarg.h>

#define LP_EXIT_OK 0
#define LP_EXIT_FINDINGS 1
#define LP_EXIT_ERROR 2

#define LP_NORETURN __attribute__((noreturn))
#define LP_PRINTF(f, a) __attribute__((format(printf, f, a)))

/* Prints "likelyprof: msg" and exits 2. */
LP_NORETURN LP_PRINTF(1, 2) void lp_die(const char *fmt, ...);
/* Prints "likelyprof: msg" and returns -1, for `return lp_error(...)`. */
LP_PRINTF(1, 2) int lp_error(const char *fmt, ...);
/* Prints "likelyprof: warning: msg". */
LP_PRINTF(1, 2) void lp_warning(const char *fmt, ...);
/* Prints "likelyprof: note: msg". */
LP_PRINTF(1, 2) void lp_note(const char *fmt, ...);
/* Prints "likelyprof: BUG: msg" and aborts: for the impossible. */
LP_NORETURN LP_PRINTF(1, 2) void lp_bug(const char *fmt, ...);

/* Prints @usage and a hint to stderr and exits 2 (a usage error). */
LP_NORETURN void lp_usage_error(const char *usage, const char *fmt, ...)
	LP_PRINTF(2, 3);

/*
 * True when argv[1..] asks for help ("-h" or "--help" as the first
 * argument); the subcommand then prints its usage to stdout and returns 0.
 */
int lp_wants_help(int argc, const char **argv);

/* malloc/realloc/strdup that die on exhaustion: for tools/ only. */
void *lp_xmalloc(size_t n);
void *lp_xcalloc(size_t n, size_t size);
void *lp_xrealloc(void *p, size_t n);
char *lp_xstrdup(const char *s);
/* A new string, printf-formatted; the caller frees it. */
LP_PRINTF(1, 2) char *lp_xstrfmt(const char *fmt, ...);

/*
 * Checks a --label value, a workload's name kept in a profile's meta:
 * dies with a usage error when it is empty, longer than 200 bytes or
 * holds a control character (a tab or newline would break the record).
 * @return : @s.
 */
const char *lp_label_option(const char *s, const char *usage);

/*
 * Parses a non-negative decimal option value; dies with a usage error
 * naming @opt when @s is not one.
 */
unsigned long long lp_parse_count(const char *opt, const char *s,
				  const char *usage);
/* Parses a percentage 0..100, decimals allowed ("99.5"). */
double lp_parse_percent(const char *opt, const char *s, const char *usage);

/*
 * The value of option @name at argv[*i], as "--name=V" or "--name V";
 * NULL when argv[*i] is not that option.  A usage error when the value
 * is missing.
 */
const char *lp_option_value(int argc, const char **argv, int *i,
			    const char *name, const char *usage);

/* "s" for a count of things other than one: "1 site", "2 sites". */
static inline const char *lp_plural(unsigned long long n)
{
	return n == 1 ? "" : "s";
}

#endif /* LP_USAGE_H */
