/*
 * builtin.h - the subcommands, one file each (tools/cmd-<name>.c)
 *
 * Each takes the arguments after the command name (argv[0] is the
 * subcommand's own name) and returns the exit status: 0, 1 (check found
 * annotations to change) or 2 (error).  "--help" prints the usage to
 * stdout and returns 0.
 */
#ifndef LP_BUILTIN_H
#define LP_BUILTIN_H

int cmd_annotate(int argc, const char **argv);
int cmd_cc(int argc, const char **argv);      /* cc, c++, and launcher */
int cmd_run(int argc, const char **argv);
int cmd_report(int argc, const char **argv);
int cmd_merge(int argc, const char **argv);
int cmd_check(int argc, const char **argv);
int cmd_fix(int argc, const char **argv);
int cmd_judge(int argc, const char **argv);
int cmd_overlap(int argc, const char **argv);
int cmd_as(int argc, const char **argv);      /* gcc's, by its name */

#endif /* LP_BUILTIN_H */
