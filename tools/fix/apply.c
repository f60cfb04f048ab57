/*
 * apply.c - write fix's edits into the tree, all of them or none
 *
 * Each new text goes to a temporary file beside its original first; only
 * when all are written are they renamed over the originals.  Nothing can
 * make a set of renames atomic against an editor, so the originals are
 * watched instead: each is held open from just before its rename, and
 * given a second name (a hard link) that keeps its inode reachable.  When
 * every rename is done, an original whose size or time moved since it was
 * read (an editor's write that landed before or after the rename), or a
 * name that no longer holds the new file (an editor's own rename), means
 * the edits were made to text that is gone: every file is put back, by
 * renaming its original inode back, late edit and all.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fix/apply.h"
#include "usage.h"
#include "write-file.h"

/*
 * The temporaries of the run, for the signal handler: a SIGINT or SIGTERM
 * while they exist removes them and then ends fix as the signal would.
 */
static char *const *volatile temps;
static volatile size_t n_temps;

static void on_kill(int sig)
{
	size_t i;

	for (i = 0; i < n_temps; i++)
		if (temps[i])
			unlink(temps[i]);
	signal(sig, SIG_DFL);
	raise(sig);
}

/* The folder of @path, which has one slash at least. */
static char *dir_of(const char *path)
{
	const char *slash = strrchr(path, '/');

	return lp_xstrfmt("%.*s", (int)(slash - path + (slash == path)), path);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

struct dir_locks {
	int *fd;
	size_t nr;
};

static void unlock_dirs(struct dir_locks *l)
{
	size_t i;

	for (i = 0; i < l->nr; i++)
		close(l->fd[i]);
	free(l->fd);
	l->fd = NULL;
	l->nr = 0;
}

/*
 * Another `fix --apply` in the same folder would take this one's
 * temporaries for a killed run's and remove them: each folder written in
 * is locked, with flock on the folder itself, so that nothing is left in
 * the tree and the lock of a killed run goes with it.  In name order, so
 * that two runs cannot each hold what the other waits for.
 */
static int lock_dirs(struct lp_apply_file *p, size_t n, struct dir_locks *l)
{
	char **dirs = lp_xcalloc(n + 1, sizeof(*dirs));
	size_t i, k = 0;
	int ret = 0;

	for (i = 0; i < n; i++)
		dirs[i] = dir_of(p[i].path);
	qsort(dirs, n, sizeof(*dirs), cmp_str);
	l->fd = lp_xcalloc(n + 1, sizeof(*l->fd));
	l->nr = 0;
	for (i = 0; i < n && !ret; i = k) {
		int fd = open(dirs[i], O_RDONLY | O_DIRECTORY | O_CLOEXEC);

		for (k = i + 1; k < n && !strcmp(dirs[k], dirs[i]); k++)
			;
		if (fd < 0) {
			ret = lp_error("cannot open folder '%s': %s", dirs[i],
				       strerror(errno));
		} else if (flock(fd, LOCK_EX | LOCK_NB) < 0) {
			ret = errno == EWOULDBLOCK ?
				lp_error("another 'likelyprof fix --apply' is "
					 "writing in '%s'; nothing written",
					 dirs[i]) :
				lp_error("cannot lock folder '%s': %s",
					 dirs[i], strerror(errno));
			close(fd);
		} else {
			l->fd[l->nr++] = fd;
		}
	}
	for (i = 0; i < n; i++)
		free(dirs[i]);
	free(dirs);
	if (ret)
		unlock_dirs(l);
	return ret;
}

/*
 * Temporaries a killed run left beside @path (".NAME.lp-XXXXXX", the
 * names of write_temp() and of the originals' second names) go before
 * this run writes its own.  The folder is locked: no live run owns them.
 */
static void remove_stale_temps(const char *path)
{
	const char *slash = strrchr(path, '/');
	char *dir = dir_of(path);
	char *prefix = lp_xstrfmt(".%s.lp-", slash + 1);
	size_t plen = strlen(prefix);
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		char *stale;

		if (strncmp(e->d_name, prefix, plen) ||
		    strlen(e->d_name + plen) != 6)
			continue;
		stale = lp_xstrfmt("%s/%s", dir, e->d_name);
		unlink(stale);
		free(stale);
	}
	if (d)
		closedir(d);
	free(prefix);
	free(dir);
}

/*
 * A file without write permission is one its owner locked (a version
 * control system's checkout, generated code): each is named, and nothing
 * is written.
 */
static int refuse_read_only(const struct lp_apply_file *p, size_t n)
{
	size_t i;
	int ret = 0;

	for (i = 0; i < n; i++)
		if (!(p[i].file->st.st_mode & 0222))
			ret = lp_error("'%s' is read-only (mode %04o); nothing "
				       "written (make it writable to let fix "
				       "edit it)", p[i].file->rel,
				       (unsigned)(p[i].file->st.st_mode &
						  07777));
	return ret;
}

/*
 * Writes @len bytes of @text to a temporary file beside @path with the
 * mode, owner and group of @was (fix run as root on a user's tree leaves
 * the files the user's); @return : its name, with its inode in @ino.
 */
static char *write_temp(const char *path, const char *text, size_t len,
			const struct stat *was, ino_t *ino)
{
	const char *slash = strrchr(path, '/');
	char *tmp = lp_xstrfmt("%.*s.%s.lp-XXXXXX", (int)(slash - path + 1),
			       path, slash + 1);
	int fd = mkstemp(tmp);
	struct stat now;

	if (fd < 0) {
		lp_error("cannot create a file beside '%s': %s", path,
			 strerror(errno));
		free(tmp);
		return NULL;
	}
	if (lp_write_all(fd, text, len) || fstat(fd, &now) ||
	    ((now.st_uid != was->st_uid || now.st_gid != was->st_gid) &&
	     fchown(fd, was->st_uid, was->st_gid)) ||
	    fchmod(fd, was->st_mode & 07777) || fsync(fd) || close(fd)) {
		lp_error("cannot write '%s': %s", tmp, strerror(errno));
		unlink(tmp);
		free(tmp);
		return NULL;
	}
	if (ino)
		*ino = now.st_ino;
	return tmp;
}

/* Is @now the file @was, as it was read: same inode, size and time? */
static int same_file(const struct stat *now, const struct stat *was)
{
	return S_ISREG(now->st_mode) && now->st_ino == was->st_ino &&
	       now->st_dev == was->st_dev && now->st_size == was->st_size &&
	       now->st_mtim.tv_sec == was->st_mtim.tv_sec &&
	       now->st_mtim.tv_nsec == was->st_mtim.tv_nsec;
}

static int unchanged(const char *path, const struct stat *was)
{
	struct stat now;

	return !lstat(path, &now) && same_file(&now, was);
}

/*
 * A second name for the original at @path, so that it can be put back
 * whole; NULL where the file system has no hard links (the original is
 * then put back as a copy).
 */
static char *second_name(const char *path)
{
	static const char set[] = "abcdefghijklmnopqrstuvwxyz0123456789";
	const char *slash = strrchr(path, '/');
	unsigned long seed = (unsigned long)getpid() ^
			     (unsigned long)time(NULL);
	int tries;

	for (tries = 0; tries < 100; tries++) {
		char *back = lp_xstrfmt("%.*s.%s.lp-XXXXXX",
					(int)(slash - path + 1), path,
					slash + 1);
		char *x = back + strlen(back) - 6;
		int k;

		for (k = 0; k < 6; k++) {
			seed = seed * 6364136223846793005UL +
			       1442695040888963407UL;
			x[k] = set[(seed >> 33) % (sizeof(set) - 1)];
		}
		if (!link(path, back))
			return back;
		free(back);
		if (errno != EEXIST)
			return NULL;
	}
	return NULL;
}

/* Puts the original of @f back by copying what @f->old_fd holds now. */
static int restore_copy(struct lp_apply_file *f)
{
	char *text = NULL, *tmp;
	size_t len = 0;
	int ret;

	if (lseek(f->old_fd, 0, SEEK_SET) < 0 ||
	    lp_read_all(f->old_fd, &text, &len) < 0)
		return -1;
	tmp = write_temp(f->path, text, len, &f->file->st, NULL);
	ret = tmp && !rename(tmp, f->path) ? 0 : -1;
	if (tmp && ret)
		unlink(tmp);
	free(tmp);
	free(text);
	return ret;
}

/*
 * Undoes the rename of @f.  A name that no longer holds the new file was
 * replaced by someone else after the rename: theirs stays.
 */
static void restore(struct lp_apply_file *f)
{
	struct stat now;

	if (!f->renamed)
		return;
	if (lstat(f->path, &now) || now.st_ino != f->new_ino)
		return;
	if (f->back && !rename(f->back, f->path)) {
		free(f->back);
		f->back = NULL;
		return;
	}
	if (restore_copy(f))
		lp_error("could not restore '%s'", f->file->rel);
}

/*
 * After the renames: did any original change since it was read, or any
 * name stop holding the new file?  @return : the first such, or NULL.
 */
static const struct lp_apply_file *moved(const struct lp_apply_file *p,
					  size_t n)
{
	struct stat now;
	size_t i;

	for (i = 0; i < n; i++) {
		if (fstat(p[i].old_fd, &now) ||
		    !same_file(&now, &p[i].file->st))
			return &p[i];
		if (lstat(p[i].path, &now) || now.st_ino != p[i].new_ino)
			return &p[i];
	}
	return NULL;
}

/* The tests write to a held original here, as an editor could. */
static int test_edit_fd(const struct lp_apply_file *p, const char *env)
{
	return getenv(env) ? open(p[0].path, O_WRONLY | O_APPEND) : -1;
}

static void test_edit(int fd)
{
	if (fd >= 0 && write(fd, "/* mine */\n", 11) == 11)
		close(fd);
}

/* Writes every temporary; 0 or -1 (said). */
static int write_temps(struct lp_apply_file *p, size_t n, char **names)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (!unchanged(p[i].path, &p[i].file->st))
			return lp_error("'%s' changed while fix ran; nothing "
					"written", p[i].file->rel);
		p[i].tmp = write_temp(p[i].path, p[i].text, p[i].len,
				      &p[i].file->st, &p[i].new_ino);
		names[i] = p[i].tmp;
		n_temps = i + 1;
		if (!p[i].tmp)
			return -1;
	}
	return 0;
}

/*
 * Renames every temporary over its original, each checked last thing
 * before its own rename; 0, or -1 (said) with what was renamed put back.
 */
static int rename_all(struct lp_apply_file *p, size_t n, char **names)
{
	const char *fail_at = getenv("LIKELYPROF_TEST_FAIL_RENAME");
	struct stat was;
	size_t i, k;

	for (i = 0; i < n; i++) {
		p[i].old_fd = open(p[i].path, O_RDONLY | O_NOFOLLOW |
				   O_CLOEXEC);
		if (p[i].old_fd < 0 || fstat(p[i].old_fd, &was) ||
		    !same_file(&was, &p[i].file->st)) {
			lp_error("'%s' changed while fix ran; nothing written",
				 p[i].file->rel);
			break;
		}
		p[i].back = second_name(p[i].path);
		/* the tests make the n-th rename fail to see the way back */
		if ((fail_at && (size_t)atoi(fail_at) == i + 1 &&
		     (errno = EIO)) || rename(p[i].tmp, p[i].path)) {
			lp_error("cannot replace '%s': %s", p[i].file->rel,
				 strerror(errno));
			break;
		}
		p[i].renamed = 1;
		names[i] = p[i].back;
	}
	if (i == n)
		return 0;
	for (k = 0; k < i; k++)
		restore(&p[k]);
	return -1;
}

static void release(struct lp_apply_file *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		if (p[i].tmp && !p[i].renamed)
			unlink(p[i].tmp);
		if (p[i].back)
			unlink(p[i].back);
		if (p[i].old_fd >= 0)
			close(p[i].old_fd);
		free(p[i].tmp);
		free(p[i].back);
		free(p[i].path);
		p[i].tmp = p[i].back = p[i].path = NULL;
	}
}

static int apply_locked(struct lp_apply_file *p, size_t n, char **names)
{
	const struct lp_apply_file *m;
	size_t i;
	int late;

	if (refuse_read_only(p, n))
		return -1;
	for (i = 0; i < n; i++)
		remove_stale_temps(p[i].path);
	if (write_temps(p, n, names))
		return -1;
	/* the tests edit a file here, as a user could while fix writes */
	test_edit(test_edit_fd(p, "LIKELYPROF_TEST_EDIT_FIRST"));
	late = test_edit_fd(p, "LIKELYPROF_TEST_EDIT_LATE");
	if (rename_all(p, n, names)) {
		if (late >= 0)
			close(late);
		return -1;
	}
	test_edit(late);
	if ((m = moved(p, n))) {
		for (i = 0; i < n; i++)
			restore(&p[i]);
		return lp_error("'%s' changed while fix ran; every file put "
				"back as it was", m->file->rel);
	}
	for (i = 0; i < n; i++)
		if (p[i].file->st.st_nlink > 1)
			lp_note("'%s' had %lu hard links; the others keep "
				"the old text", p[i].file->rel,
				(unsigned long)p[i].file->st.st_nlink);
	return 0;
}

int lp_apply_edits(const char *root, struct lp_apply_file *p, size_t n)
{
	char **names = lp_xcalloc(n + 1, sizeof(*names));
	struct sigaction sa, old_int, old_term;
	struct dir_locks locks = { NULL, 0 };
	size_t i;
	int ret;

	for (i = 0; i < n; i++) {
		p[i].path = lp_xstrfmt("%s/%s", root, p[i].file->rel);
		p[i].old_fd = -1;
	}
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_kill;
	sigfillset(&sa.sa_mask);
	temps = names;
	sigaction(SIGINT, &sa, &old_int);
	sigaction(SIGTERM, &sa, &old_term);
	ret = lock_dirs(p, n, &locks);
	if (!ret)
		ret = apply_locked(p, n, names);
	n_temps = 0;
	release(p, n);
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGTERM, &old_term, NULL);
	unlock_dirs(&locks);
	free(names);
	return ret;
}
