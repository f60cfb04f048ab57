/*
 * dump.c - naming and writing a profile: the file (never through a link),
 * the records, and the one line of a failure
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
#include <stdio.h>           /* rename() only: no stream is used */
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

/* Output buffer of dumps; dumps are serialised by the lock. */
static char dump_buf[1 << 16];

/* --- dump -------------------------------------------------------------- */

#define LP_WRITE_WAIT_MS 2000

struct fd_sink {
	struct lp_sink sink;
	int fd;
};

static int fd_flush(struct lp_sink *sink)
{
	struct fd_sink *fs = (struct fd_sink *)sink;
	size_t done = 0;

	while (done < sink->len) {
		ssize_t n = write(fs->fd, sink->buf + done, sink->len - done);

		if (n < 0 && errno == EINTR)
			continue;
		/*
		 * A FIFO or device opened O_NONBLOCK that takes nothing for
		 * LP_WRITE_WAIT_MS: give up rather than hang the exit.
		 */
		if (n < 0 && errno == EAGAIN) {
			struct pollfd pfd = { .fd = fs->fd, .events = POLLOUT };
			int r = poll(&pfd, 1, LP_WRITE_WAIT_MS);

			if (r > 0 || (r < 0 && errno == EINTR))
				continue;
			errno = EAGAIN;
			return -LP_EIO;
		}
		if (n <= 0) {
			if (n == 0)
				errno = ENOSPC;
			return -LP_EIO;
		}
		done += (size_t)n;
	}
	sink->len = 0;
	return 0;
}

/* Appends @s to buf at *len, never past cap - 1; returns 0 or -1. */
int lp__put(char *buf, size_t cap, size_t *len, const char *s, size_t n)
{
	if (*len + n >= cap)
		return -1;
	memcpy(buf + *len, s, n);
	*len += n;
	buf[*len] = '\0';
	return 0;
}

/* @sep, then @v in two digits: the fields of a date. */
static void put2(char *buf, size_t *len, char sep, unsigned v)
{
	buf[(*len)++] = sep;
	buf[(*len)++] = (char)('0' + v / 10 % 10);
	buf[(*len)++] = (char)('0' + v % 10);
}

int lp__put_ulong(char *buf, size_t cap, size_t *len, unsigned long v)
{
	char digits[24];

	return lp__put(buf, cap, len, digits,
		       (size_t)(lp_put_u64(digits, v) - digits));
}

/* Expands %p, %h, %e and %%; other % sequences stay as they are. */
static int expand_path(char *out, size_t cap, const char *pattern)
{
	size_t len = 0;
	struct utsname uts;
	int have_uts = 0;
	const char *host;

	out[0] = '\0';
	for (; *pattern; pattern++) {
		int r;

		if (*pattern != '%' || !pattern[1]) {
			r = lp__put(out, cap, &len, pattern, 1);
		} else {
			switch (*++pattern) {
			case 'p':
				r = lp__put_ulong(out, cap, &len,
					      (unsigned long)getpid());
				break;
			case 'h':
				if (!have_uts)
					have_uts = uname(&uts) == 0;
				host = have_uts ? uts.nodename : "host";
				r = lp__put(out, cap, &len, host, strlen(host));
				break;
			case 'e':
				r = lp__put(out, cap, &len, lp__rt.program_name,
					strlen(lp__rt.program_name));
				break;
			case '%':
				r = lp__put(out, cap, &len, "%", 1);
				break;
			default:
				r = lp__put(out, cap, &len, pattern - 1, 2);
			}
		}
		if (r < 0) {
			errno = ENAMETOOLONG;
			return -1;
		}
	}
	return 0;
}

/*
 * The member that alias record @i of the @n at @first counts for, as a
 * cells[] index: 0, or -1 when it names no site of this module (a record
 * from a broken object counts nothing rather than the wrong site).
 */
static int alias_member(const struct lp_site *first, size_t n, size_t i,
			size_t *member)
{
	const struct lp_site *s = &first[i];
	/* a distance in records; unsigned, so one test bounds it both ways */
	size_t at = i + (size_t)(s->expect / (long)sizeof(*s));

	if (s->expect % (long)sizeof(*s) || (s->line & 3) > 2 || at >= n ||
	    LP_SITE_ABI_OF(first[at].abi) != LP_SITE_ABI)
		return -1;
	*member = at;
	return 0;
}

/*
 * The count of the run whose leader is record @i of @m added to each
 * member's field.  The run's alias records are the leader's and those
 * right after it, places 1, 2, ... (tools/as/group.c); one that is not
 * where its place says counts nothing.  A run's leader is never a
 * member, so runs may be added in any order.
 */
static void add_run(struct lp_module *m, size_t i)
{
	const struct lp_site *first = m->first;
	size_t n = (size_t)(m->last - first), j, member;
	unsigned long long count = m->cells[i].total[C_CORRECT] +
				   m->cells[i].sum[C_CORRECT];

	for (j = i; j < n && first[j].abi == LP_SITE_ABI_ALIAS &&
		    first[j].line >> 2 == j - i; j++)
		if (alias_member(first, n, j, &member) == 0)
			m->cells[member].sum[first[j].line & 3] += count;
}

/*
 * Each run's count added to its members.  While no run's count went
 * into a total, every count of a run is in the live threads' slots of
 * its leader, and those are few: the records of a module (two thirds of
 * them alias records, in a unit of chained hints) are not read at all.
 * The rows of alias records are never written, so their sums are zeroed
 * here (a run that two threads counted is added once).
 */
static void add_runs(void)
{
	struct lp_module *m;
	struct lp_thread *t;
	size_t i;

	if (lp__rt.runs_in_totals) {
		for (m = lp__rt.modules; m; m = m->next)
			for (i = 0; i < (size_t)(m->last - m->first); i++)
				if (m->first[i].abi == LP_SITE_ABI_ALIAS) {
					if (!(m->first[i].line >> 2))
						add_run(m, i);
					memset(m->cells[i].sum, 0,
					       sizeof(m->cells[i].sum));
				}
		return;
	}
	for (t = lp__rt.threads; t; t = t->next)
		for (i = 0; t->live && i < t->n; i++) {
			const struct lp_site *site = t->slots[i].ctr->site;
			struct lp_cell *cell = t->slots[i].cell;

			if (!site || site->abi != LP_SITE_ABI_ALIAS)
				continue;
			m = lp__module_find(site);
			if (m && !(site->line >> 2) && cell->sum[C_CORRECT] &&
			    cell == &m->cells[site - m->first])
				add_run(m, (size_t)(site - m->first));
			memset(cell->sum, 0, sizeof(cell->sum));
		}
}

/*
 * The live threads' counts into the cells' sums, zero between dumps: the
 * writer adds each total as it writes the record (sink_one), so no pass
 * copies every total first.
 */
static void sum_counts(void)
{
	struct lp_thread *t;
	size_t i;

	for (t = lp__rt.threads; t; t = t->next) {
		if (!t->live)
			continue;
		for (i = 0; i < t->n; i++) {
			struct lp_counter *c = t->slots[i].ctr;
			unsigned long long *sum = t->slots[i].cell->sum;

			sum[C_CORRECT] += lp__counter_read(&c->correct);
			sum[C_INCORRECT] += lp__counter_read(&c->incorrect);
			sum[C_CONSTANT] += lp__counter_read(&c->constant);
		}
	}
	add_runs();
}

/*
 * @func: the site's, or a C++ site's plain name (lp_dynsite).  The
 * cell's sum is taken: zero again for the next dump.
 */
static void sink_one(struct lp_sink *sink, const struct lp_site *s,
		     const char *func, struct lp_cell *c,
		     unsigned long long *count)
{
	unsigned long long correct = c->total[C_CORRECT] + c->sum[C_CORRECT];
	unsigned long long incorrect = c->total[C_INCORRECT] +
				       c->sum[C_INCORRECT];
	unsigned long long constant = c->total[C_CONSTANT] +
				      c->sum[C_CONSTANT];
	/*
	 * A folded evaluation of a hint counts once, as constant; the kernel
	 * counts it as correct too, and so does the profile.  An "if" of
	 * all-branches mode counts a folded one by its value as well.
	 */
	unsigned int abi = LP_SITE_ABI_OF(s->abi);

	memset(c->sum, 0, sizeof(c->sum));
	if (abi != LP_SITE_ABI && abi != LP_SITE_ABI_BOTH_)
		return;
	if (abi == LP_SITE_ABI && s->expect != LP_EXPECT_IF)
		correct += constant;
	lp_sink_record(sink, correct, incorrect, constant, s, func);
	(*count)++;
}

/* Days since 1970-01-01 to a civil date (proleptic Gregorian). */
static void civil_from_days(long z, long *y, unsigned *m, unsigned *d)
{
	long era, yoe, doy, mp;

	z += 719468;
	era = (z >= 0 ? z : z - 146096) / 146097;
	yoe = z - era * 146097;
	yoe = (yoe - yoe / 1460 + yoe / 36524 - yoe / 146096) / 365;
	doy = z - era * 146097 - (365 * yoe + yoe / 4 - yoe / 100);
	mp = (5 * doy + 2) / 153;
	*d = (unsigned)(doy - (153 * mp + 2) / 5 + 1);
	*m = (unsigned)(mp < 10 ? mp + 3 : mp - 9);
	*y = yoe + era * 400 + (*m <= 2);
}

/*
 * Where and when: host, time (UTC, ISO 8601), and the build of the
 * program and of every instrumented module, "HEX PATH".  gmtime_r()
 * may take a lock, and a dump can come from a signal handler, so the
 * date is computed here.
 */
static void sink_identity(struct lp_sink *sink)
{
	struct utsname uts;
	struct timespec ts;
	struct lp_build *b;
	char buf[2 * LP_BUILD_ID_MAX + PATH_MAX + 2];
	long y, secs;
	unsigned mo, d;
	size_t len = 0;

	if (uname(&uts) == 0)
		lp_sink_meta(sink, "host", uts.nodename);
	if (clock_gettime(CLOCK_REALTIME, &ts) == 0 && ts.tv_sec >= 0) {
		secs = (long)(ts.tv_sec % 86400);
		civil_from_days((long)(ts.tv_sec / 86400), &y, &mo, &d);
		lp__put_ulong(buf, sizeof(buf), &len, (unsigned long)y);
		put2(buf, &len, '-', mo);
		put2(buf, &len, '-', d);
		put2(buf, &len, 'T', (unsigned)(secs / 3600));
		put2(buf, &len, ':', (unsigned)(secs / 60 % 60));
		put2(buf, &len, ':', (unsigned)(secs % 60));
		buf[len++] = 'Z';
		buf[len] = '\0';
		lp_sink_meta(sink, "time", buf);
	}
	for (b = lp__rt.builds; b; b = b->next) {
		len = 0;
		if (lp__put(buf, sizeof(buf), &len, b->hex, strlen(b->hex)) ||
		    lp__put(buf, sizeof(buf), &len, " ", 1) ||
		    lp__put(buf, sizeof(buf), &len, b->path, strlen(b->path)))
			continue;
		buf[len] = '\0';
		lp_sink_meta(sink, "build", buf);
	}
}

static int write_profile(int fd)
{
	static struct lp_texts texts;   /* dumps are serialised by the lock */
	struct fd_sink fs;
	struct lp_module *m;
	struct lp_dynsite *d;
	unsigned long long count = 0;
	char pid[24];
	size_t len = 0;

	memset(&fs, 0, sizeof(fs));
	fs.sink.buf = dump_buf;
	fs.sink.cap = sizeof(dump_buf);
	fs.sink.flush = fd_flush;
	fs.sink.unexpand = 1;
	memset(&texts, 0, sizeof(texts));
	fs.sink.texts = &texts;
	fs.fd = fd;
	lp__put_ulong(pid, sizeof(pid), &len, (unsigned long)getpid());

	/* the sums, taken by the loops below whatever the writes do */
	sum_counts();
	lp_sink_header(&fs.sink);
	lp_sink_meta(&fs.sink, "program", lp__rt.program);
	lp_sink_meta(&fs.sink, "pid", pid);
	lp_sink_meta(&fs.sink, "runtime", LP_VERSION_STRING);
	sink_identity(&fs.sink);
	for (m = lp__rt.modules; m; m = m->next)
		count += lp_sink_records(&fs.sink, m->first,
					 (size_t)(m->last - m->first),
					 m->cells);
	for (d = lp__rt.dyn_all; d; d = d->all)
		sink_one(&fs.sink, &d->site, d->plain_func, &d->cell, &count);
	lp_sink_end(&fs.sink, count);
	return lp_sink_finish(&fs.sink);
}

/* Writes the profile into @fd and closes it; -LP_EIO (errno says why). */
static int write_profile_fd(int fd)
{
	int err = write_profile(fd), e = errno;

	if (close(fd) < 0 && !err) {
		err = -LP_EIO;
		e = errno;
	}
	errno = e;
	return err;
}

/*
 * Opens the FIFO or character device that lstat() found at @name, as
 * @was, without blocking and without following a link: a FIFO whose
 * reader is about to open it (`cat fifo &` racing the program) gets
 * LP_WRITE_WAIT_MS, one that nobody reads fails with ENXIO after that.
 * What was opened must be what was checked: whoever can write the folder
 * could swap the name for a link, or for another file, between the two,
 * and the profile would be written into that.
 * @return : the descriptor, or -1 with errno set (ESTALE: swapped).
 */
static int open_device(const char *name, const struct stat *was)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };
	int waited = 0, fd;
	struct stat now;

	while ((fd = open(name, O_WRONLY | O_NONBLOCK | O_NOFOLLOW |
			  O_NOCTTY | O_CLOEXEC)) < 0 &&
	       errno == ENXIO && waited < LP_WRITE_WAIT_MS) {
		nanosleep(&tick, NULL);
		waited += 10;
	}
	if (fd < 0)
		return -1;
	if (fstat(fd, &now) < 0 || now.st_dev != was->st_dev ||
	    now.st_ino != was->st_ino ||
	    (now.st_mode & S_IFMT) != (was->st_mode & S_IFMT)) {
		close(fd);
		errno = ESTALE;
		return -1;
	}
	return fd;
}

/*
 * The variant to try after @n: the next, for the first thousand; then a
 * number drawn from the clock and the pid, so that a folder of many
 * thousand variants of one name costs a few tries, not one per variant.
 */
static unsigned long next_variant(unsigned long n)
{
	struct timespec ts;
	unsigned long x;

	if (n < 1000)
		return n + 1;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	x = (unsigned long)ts.tv_nsec ^ ((unsigned long)getpid() << 20) ^ n;
	x *= 2654435761UL;
	return 1000 + (x >> 7) % 1000000000UL;
}

/*
 * Makes @name (a profile, or a mark) a new file of this process: when it
 * exists, "-2", "-3", ... go before its extension until one is free.
 * @return : the open descriptor, or -1 with errno set.
 */
int lp__reserve_unique(char *name, size_t cap)
{
	const int flags = O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_NONBLOCK | O_CLOEXEC;
	size_t len = strlen(name), ext, i;
	char *slash = strrchr(name, '/'), *dot = strrchr(name, '.');
	char tail[PATH_MAX];
	unsigned long n;
	int fd = open(name, flags, 0666);

	if (fd >= 0 || errno != EEXIST)
		return fd;
	ext = dot && dot > slash + 1 ? (size_t)(dot - name) : len;
	if (len - ext >= sizeof(tail))
		return -1;
	memcpy(tail, name + ext, len - ext + 1);
	for (n = 2;; n = next_variant(n)) {
		i = ext;
		if (lp__put(name, cap, &i, "-", 1) ||
		    lp__put_ulong(name, cap, &i, n) ||
		    lp__put(name, cap, &i, tail, strlen(tail))) {
			errno = ENAMETOOLONG;
			return -1;
		}
		fd = open(name, flags, 0666);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
}

/*
 * The name of this process's profile.  A pattern with %p gives each
 * process a file of its own: a name that exists already belongs to an
 * earlier process with the same pid (pid reuse, or the image before an
 * exec), so this one takes the next free variant and keeps it for its
 * later dumps.  A fixed name is replaced, as asked.
 */
static int claim_name(char *final, size_t cap, const char *pattern)
{
	int fd;

	if (!strstr(pattern, "%p"))
		return 0;
	if (lp__rt.have_own) {
		memcpy(final, lp__rt.own, strlen(lp__rt.own) + 1);
		return 0;
	}
	fd = lp__reserve_unique(final, cap);
	if (fd < 0)
		return -1;
	close(fd);
	memcpy(lp__rt.own, final, strlen(final) + 1);
	lp__rt.have_own = 1;
	return 0;
}

/*
 * A file name (the last part of @final) longer than LP_NAME_KEEP cannot
 * take its variant and temporary suffixes within NAME_MAX: a program
 * named with 245 characters would write no profile at all.  Its middle
 * goes, its start and its end (the pid and the extension) stay, and the
 * new name is said once.
 */
#define LP_NAME_KEEP 200
#define LP_NAME_TAIL 40
static void shorten_name(char *final)
{
	static int said;
	char *base = strrchr(final, '/');
	size_t n;

	base = base ? base + 1 : final;
	n = strlen(base);
	if (n <= LP_NAME_KEEP)
		return;
	base[LP_NAME_KEEP - LP_NAME_TAIL - 1] = '~';
	memmove(base + LP_NAME_KEEP - LP_NAME_TAIL, base + n - LP_NAME_TAIL,
		LP_NAME_TAIL + 1);
	if (!said++)
		lp__write_error("profile name too long for the file system; "
			    "writing", final, 0);
}

/*
 * A name that is no regular file.  /dev/null, a FIFO, a terminal: written
 * to as they are (a rename would put a regular file in the node's place).
 * A symbolic link is never followed: whoever can write its folder could
 * point it at any file the program may write.  Under a %p pattern
 * (@variant) such a name is only taken, and the next free variant is
 * written instead.  Block devices and sockets are refused.
 * @return : 0 written, 1 go on with a new file, or -LP_EIO (said).
 */
static int dump_special(const char *final, const struct stat *st, int variant)
{
	int fd, err;

	if (S_ISLNK(st->st_mode) && variant)
		return 1;
	if (S_ISLNK(st->st_mode)) {
		lp__write_error("not writing profile through the symbolic link",
			    final, ELOOP);
		return -LP_EIO;
	}
	if (!S_ISFIFO(st->st_mode) && !S_ISCHR(st->st_mode)) {
		lp__write_error("not writing profile into", final, ENOTSUP);
		return -LP_EIO;
	}
	fd = open_device(final, st);
	err = fd < 0 ? -LP_EIO : write_profile_fd(fd);
	if (err)
		lp__write_error("cannot write profile", final, errno);
	return err;
}

/* Called locked.  @path NULL means the configured file. */
int lp__dump_locked(const char *path)
{
	static char final[PATH_MAX], tmp[PATH_MAX];
	struct stat st;
	size_t len;
	int err, fd, own = !path;

	if (!lp__rt.init_done)
		lp__init_locked();
	if (!path) {
		/* set-user-ID, or the pattern was unusable */
		if (!lp__rt.file_pattern[0])
			return 0;
		path = lp__rt.file_pattern;
	}
	if (expand_path(final, sizeof(final), path)) {
		lp__write_error("cannot name profile", path, errno);
		return -LP_EIO;
	}
	shorten_name(final);
	/*
	 * What the name is decides how it is written: lstat(), as a link is
	 * never followed (doc/DESIGN.md, "Writing the profile").
	 */
	if (lstat(final, &st) == 0 && !S_ISREG(st.st_mode) &&
	    !S_ISDIR(st.st_mode)) {
		err = dump_special(final, &st, own && strstr(path, "%p"));
		if (err <= 0)
			return err;
	}
	if (own && claim_name(final, sizeof(final), path)) {
		lp__write_error("cannot write profile", final, errno);
		return -LP_EIO;
	}
	len = strlen(final);
	if (len + 32 >= sizeof(tmp)) {
		lp__write_error("cannot write profile", final, ENAMETOOLONG);
		return -LP_EIO;
	}
	memcpy(tmp, final, len);
	memcpy(tmp + len, ".tmp.", 6);
	len += 5;
	lp__put_ulong(tmp, sizeof(tmp), &len, (unsigned long)getpid());

	/*
	 * A new file only: no symbolic link is followed and nothing that
	 * exists is opened.  A stale temporary of a killed process with this
	 * pid is removed first.
	 */
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK |
		  O_CLOEXEC, 0666);
	if (fd < 0 && errno == EEXIST && unlink(tmp) == 0)
		fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW |
			  O_NONBLOCK | O_CLOEXEC, 0666);
	err = fd < 0 ? -LP_EIO : write_profile_fd(fd);
	if (!err && rename(tmp, final) < 0)
		err = -LP_EIO;
	if (err) {
		int e = errno;

		if (fd >= 0)
			unlink(tmp);
		lp__write_error("cannot write profile", final, e);
		errno = e;
	}
	return err;
}

/* Short, async-signal-safe names for what usually goes wrong. */
static const char *errno_text(int err)
{
	switch (err) {
	case ENOSPC: return "No space left on device";
	case EDQUOT: return "Disk quota exceeded";
	case EACCES: return "Permission denied";
	case EPERM: return "Operation not permitted";
	case EROFS: return "Read-only file system";
	case ENOENT: return "No such file or directory";
	case ENOTDIR: return "Not a directory";
	case EISDIR: return "Is a directory";
	case ENAMETOOLONG: return "File name too long";
	case EMFILE: return "Too many open files";
	case EIO: return "Input/output error";
	case EFBIG: return "File too large";
	case ENXIO: return "No such device or address";
	case EAGAIN: return "Resource temporarily unavailable";
	case ELOOP: return "not followed";
	case ENOTSUP: return "not a file, FIFO or character device";
	case ESTALE: return "replaced while it was opened";
	default: return "error";
	}
}

/*
 * One line on stderr; the program's own output is never touched.  @err 0
 * is a note: the line ends with the path.
 */
void lp__write_error(const char *what, const char *path, int err)
{
	char line[PATH_MAX + 256];
	size_t len = 0;

	lp__put(line, sizeof(line), &len, "likelyprof: ", 12);
	lp__put(line, sizeof(line), &len, what, strlen(what));
	lp__put(line, sizeof(line), &len, " '", 2);
	if (lp__put(line, sizeof(line), &len, path, strlen(path)) < 0)
		lp__put(line, sizeof(line), &len, "...", 3);
	if (!err) {     /* a note, with no error to name */
		lp__put(line, sizeof(line), &len, "'\n", 2);
		lp__write_stderr(line, len);
		return;
	}
	lp__put(line, sizeof(line), &len, "': ", 3);
	lp__put(line, sizeof(line), &len, errno_text(err),
	    strlen(errno_text(err)));
	if (!strcmp(errno_text(err), "error")) {
		lp__put(line, sizeof(line), &len, " ", 1);
		lp__put_ulong(line, sizeof(line), &len, (unsigned long)err);
	}
	lp__put(line, sizeof(line), &len, "\n", 1);
	lp__write_stderr(line, len);
}

/*
 * Only to the stderr the program started with: a program that closed fd 2
 * may have reused it for its own data, which a message would corrupt.
 */
void lp__write_stderr(const char *msg, size_t len)
{
	struct stat st;
	ssize_t r;

	if (!lp__rt.have_stderr || fstat(2, &st) ||
	    st.st_dev != lp__rt.stderr_dev ||
	    st.st_ino != lp__rt.stderr_ino)
		return;
	r = write(2, msg, len);
	(void)r;
}

