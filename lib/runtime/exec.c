/*
 * exec.c - the profile written before exec, and the public calls
 * (likelyprof_dump() and the rest of include/likelyprof.h)
 */
#include <dlfcn.h>
#include <link.h>
#include <stdint.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <pthread.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <poll.h>
#include <stdarg.h>
#include <sys/auxv.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>

#include "format.h"
#include "runtime.h"
#include "likelyprof.h"
#include "stub.h"

/* --- exec ------------------------------------------------------------- */

/*
 * The exec functions write the profile first, as gcov's do: the new image
 * starts from nothing, and the old one's exit dump never comes.  The real
 * function is the next definition (libc's), found by dlsym(RTLD_NEXT).  A
 * vfork() child shares the parent's memory and counts; it writes nothing
 * (its pid is not the one the runtime knows), so the parent's counts are
 * not written twice.  A failed exec leaves the process running, and its
 * next dump replaces the same file.
 */
static void dump_before_exec(void)
{
	int saved = errno;

	if (lp__in_lock)
		return;
	lp__lock();
	if (lp__rt.init_done && getpid() == lp__rt.pid)
		lp__dump_locked(NULL);
	lp__unlock();
	errno = saved;
}

static void *real_fn(const char *name)
{
	void *fn = dlsym(RTLD_NEXT, name);

	if (!fn)
		errno = ENOSYS;
	return fn;
}

#define LP_REAL(type, name) ((type)real_fn(name))

typedef int (*execve_fn)(const char *, char *const[], char *const[]);
typedef int (*execv_fn)(const char *, char *const[]);
typedef int (*fexecve_fn)(int, char *const[], char *const[]);
typedef int (*execveat_fn)(int, const char *, char *const[], char *const[],
			   int);

LP_API int execve(const char *path, char *const argv[], char *const envp[])
{
	execve_fn fn = LP_REAL(execve_fn, "execve");

	dump_before_exec();
	return fn ? fn(path, argv, envp) : -1;
}

LP_API int execv(const char *path, char *const argv[])
{
	execv_fn fn = LP_REAL(execv_fn, "execv");

	dump_before_exec();
	return fn ? fn(path, argv) : -1;
}

LP_API int execvp(const char *file, char *const argv[])
{
	execv_fn fn = LP_REAL(execv_fn, "execvp");

	dump_before_exec();
	return fn ? fn(file, argv) : -1;
}

LP_API int execvpe(const char *file, char *const argv[], char *const envp[])
{
	execve_fn fn = LP_REAL(execve_fn, "execvpe");

	dump_before_exec();
	return fn ? fn(file, argv, envp) : -1;
}

LP_API int fexecve(int fd, char *const argv[], char *const envp[])
{
	fexecve_fn fn = LP_REAL(fexecve_fn, "fexecve");

	dump_before_exec();
	return fn ? fn(fd, argv, envp) : -1;
}

LP_API int execveat(int dirfd, const char *path, char *const argv[],
		    char *const envp[], int flags)
{
	execveat_fn fn = LP_REAL(execveat_fn, "execveat");

	dump_before_exec();
	return fn ? fn(dirfd, path, argv, envp, flags) : -1;
}

/*
 * execl, execlp, execle: the list becomes an array on the stack (no
 * malloc), then the array form above does the rest.
 */
static size_t list_len(va_list ap)
{
	size_t n = 1;

	while (va_arg(ap, char *))
		n++;
	return n;
}

/* Fills @argv (@n + 1 entries), reading the list up to its NULL. */
static void list_fill(char **argv, size_t n, const char *arg, va_list *ap)
{
	size_t i;

	argv[0] = (char *)arg;
	for (i = 1; i <= n; i++)
		argv[i] = va_arg(*ap, char *);
}

#define LP_EXECL(call, arg)                                                  \
	va_list ap;                                                          \
	size_t n;                                                            \
	va_start(ap, arg);                                                   \
	n = list_len(ap);                                                    \
	va_end(ap);                                                          \
	{                                                                    \
		char *argv[n + 1];                                           \
		char *const *envp_ = NULL;                                   \
		va_start(ap, arg);                                           \
		list_fill(argv, n, arg, &ap);                                \
		if (LP_EXECL_WANTS_ENV)                                      \
			envp_ = va_arg(ap, char *const *);                   \
		va_end(ap);                                                  \
		(void)envp_;                                                 \
		return call;                                                 \
	}

#define LP_EXECL_WANTS_ENV 0
LP_API int execl(const char *path, const char *arg, ...)
{
	LP_EXECL(execv(path, argv), arg)
}

LP_API int execlp(const char *file, const char *arg, ...)
{
	LP_EXECL(execvp(file, argv), arg)
}
#undef LP_EXECL_WANTS_ENV
#define LP_EXECL_WANTS_ENV 1
LP_API int execle(const char *path, const char *arg, ...)
{
	LP_EXECL(execve(path, argv, envp_), arg)
}
#undef LP_EXECL_WANTS_ENV

/* --- public API -------------------------------------------------------- */

LP_API int likelyprof_dump(const char *path)
{
	int saved = errno, err;

	if (lp__in_lock)
		return -LP_EBUSY;
	lp__lock();
	err = lp__dump_locked(path);
	lp__unlock();
	if (!err)
		errno = saved;
	return err;
}

LP_API int likelyprof_reset(void)
{
	struct lp_module *m;
	struct lp_dynsite *d;
	struct lp_thread *t;
	size_t i;

	if (lp__in_lock)
		return -LP_EBUSY;
	lp__lock();
	for (m = lp__rt.modules; m; m = m->next)
		memset(m->cells, 0, sizeof(*m->cells) *
		       (size_t)(m->last - m->first));
	for (d = lp__rt.dyn_all; d; d = d->all)
		memset(&d->cell, 0, sizeof(d->cell));
	for (t = lp__rt.threads; t; t = t->next)
		for (i = 0; t->live && i < t->n; i++)
			lp__counter_rearm(t->slots[i].ctr);
	lp__unlock();
	return 0;
}

