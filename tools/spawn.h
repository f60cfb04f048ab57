/*
 * spawn.h - running other programs, and finding them and ourselves
 */
#ifndef LP_SPAWN_H
#define LP_SPAWN_H

#include <stddef.h>

/* An argument vector, NULL-terminated; the strings are not owned. */
struct lp_args {
	const char **v;
	size_t n, alloc;
};

#define LP_ARGS_INIT { NULL, 0, 0 }

void lp_args_push(struct lp_args *a, const char *s);
void lp_args_append(struct lp_args *a, const struct lp_args *b);
/* Frees @a's vector and its strings, where @a owns them; @a is empty. */
void lp_args_release_owned(struct lp_args *a);

/* The running executable's path; the caller frees it. */
char *lp_self_path(void);
/* True when @path is this very executable, by any name or link. */
int lp_is_self(const char *path);
/*
 * The first "DIR/@name" of the folders of @path (a PATH list) that
 * @accept takes, in order, an empty entry (leading, trailing or between
 * two colons) being the current folder as for execvp(); the caller frees
 * it.  NULL when none is taken.
 */
char *lp_path_search(const char *path, const char *name,
		     int (*accept)(const char *cand, void *ctx), void *ctx);
/* lp_path_search()'s @accept for any file that may run (@ctx unused). */
int lp_path_executable(const char *cand, void *ctx);
/*
 * @name as execvp would find it, skipping any PATH entry that is this
 * executable; the caller frees it.
 */
char *lp_find_program(const char *name);
/*
 * Runs @a with stdout and stderr to @out_fd and @err_fd (-1: inherited);
 * its exit status, 127 when it cannot be started.
 */
int lp_run(const struct lp_args *a, int out_fd, int err_fd);

#endif /* LP_SPAWN_H */
