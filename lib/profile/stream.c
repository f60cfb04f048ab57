/*
 * stream.c - read a profile record by record, in memory bounded by its
 * longest line rather than by its size
 *
 * A fleet's merge reads thousands of profiles at once; held whole, they
 * would take the sum of their sizes.  A stream reads its file a buffer at
 * a time and parses each buffer's complete lines with the reader of
 * profile.c (lp_read_records()), so every record is checked exactly as a
 * whole reading checks it.  What a stream cannot do is left to that
 * reading: standard input (a merge may have to start over), kernel
 * tables and CSV (their rows come in any order), and a profile that turns
 * out not to be in the writer's order.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "stream.h"

/*
 * With a helper thread (lp_prof_stream_prefetch()), the helper owns the
 * reading side (buf and what follows it, and chunk[fill]) and the caller
 * the other chunk; they trade chunks under the lock.
 */
struct lp_prof_stream {
	const char *name;
	int fd;
	char *buf;
	size_t cap, start, len;         /* buf[start..len): read, not parsed */
	int eof;                        /* read() said so */
	int done;                       /* every line parsed */
	struct lp_read_state st;
	size_t lineno;
	struct lp_diag *diag;
	struct lp_profile head;         /* the header and meta records */
	struct lp_profile chunk[2];     /* the current chunk and the next */
	int cur;                        /* the caller's */
	size_t next;                    /* next site of chunk[cur] */
	int finished;                   /* chunk[cur] is the last */
	const struct lp_prof_site *prev;        /* the site returned last */
	/* the helper thread, when there is one */
	pthread_t helper;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int threaded;
	int ready;              /* chunk[!cur] is parsed, with ready_err */
	int ready_err, ready_last;
	int quit;
};

/* Reads more of the file behind what is left to parse; 0 or -LP_EIO. */
static int fill(struct lp_prof_stream *s)
{
	ssize_t got;

	if (s->start) {
		memmove(s->buf, s->buf + s->start, s->len - s->start);
		s->len -= s->start;
		s->start = 0;
	}
	if (s->len == s->cap) {
		/* a line longer than the buffer: make room for it */
		char *b = s->cap > SIZE_MAX / 2 ? NULL :
			  realloc(s->buf, s->cap * 2);

		if (!b)
			return -LP_ENOMEM;
		s->buf = b;
		s->cap *= 2;
	}
	do
		got = read(s->fd, s->buf + s->len, s->cap - s->len);
	while (got < 0 && errno == EINTR);
	if (got < 0) {
		snprintf(s->diag->msg, sizeof(s->diag->msg), "%s: %s",
			 s->name, strerror(errno));
		return -LP_EIO;
	}
	if (!got)
		s->eof = 1;
	s->len += (size_t)got;
	return 0;
}

/*
 * Parses buf[start..end) into @into, carrying the reading's state; the
 * last part of the file (@last) must hold the end record.
 */
static int parse(struct lp_prof_stream *s, struct lp_profile *into,
		 size_t end, int last)
{
	struct lp_reader r;
	int err;

	if (memchr(s->buf + s->start, '\0', end - s->start)) {
		snprintf(s->diag->msg, sizeof(s->diag->msg),
			 "%s: binary data (NUL byte)", s->name);
		return -LP_EBINARY;
	}
	lp_reader_init(&r, s->name, s->buf + s->start, end - s->start,
		       s->diag);
	r.lineno = s->lineno;
	s->st.first_part = !last;
	err = lp_read_records(into, &r, &s->st);
	s->lineno = r.lineno;
	s->start = end;
	if (last)
		s->done = 1;
	return err;
}

/* The end of the last complete line in buf[start..len), or 0. */
static size_t last_line_end(const struct lp_prof_stream *s)
{
	const char *nl = memrchr(s->buf + s->start, '\n', s->len - s->start);

	return nl ? (size_t)(nl - s->buf) + 1 : 0;
}

/* Reads and parses the next chunk of lines into @into. */
static int parse_next(struct lp_prof_stream *s, struct lp_profile *into)
{
	size_t end;
	int err;

	lp_profile_clear(into);
	for (;;) {
		if (s->eof) {
			end = s->len;
			break;
		}
		end = last_line_end(s);
		/* parse what a buffer holds, not a line at a time */
		if (end && s->len == s->cap)
			break;
		if ((err = fill(s)) < 0)
			return err;
	}
	return parse(s, into, end, s->eof);
}

/* The helper: parses the next chunk whenever the caller took the last. */
static void *prefetch(void *arg)
{
	struct lp_prof_stream *s = arg;
	int err, last;

	do {
		pthread_mutex_lock(&s->lock);
		while (s->ready && !s->quit)
			pthread_cond_wait(&s->cond, &s->lock);
		if (s->quit) {
			pthread_mutex_unlock(&s->lock);
			break;
		}
		pthread_mutex_unlock(&s->lock);
		err = parse_next(s, &s->chunk[!s->cur]);
		last = s->done;
		pthread_mutex_lock(&s->lock);
		s->ready = 1;
		s->ready_err = err;
		s->ready_last = last;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
	} while (!err && !last);
	return NULL;
}

/*
 * Makes the next chunk the current one, parsed here or by the helper.
 * The order of the last site and the next is checked before the old
 * chunk goes back to the helper, which reuses it.
 */
static int refill(struct lp_prof_stream *s)
{
	struct lp_profile *into = &s->chunk[!s->cur];
	int err, last;

	if (s->threaded) {
		pthread_mutex_lock(&s->lock);
		while (!s->ready)
			pthread_cond_wait(&s->cond, &s->lock);
		err = s->ready_err;
		last = s->ready_last;
		pthread_mutex_unlock(&s->lock);
	} else {
		err = parse_next(s, into);
		last = s->done;
	}
	if (err < 0)
		return err;
	/* meta after a site: the output's meta is written before its sites */
	if (into->meta_nr ||
	    (s->prev && into->nr && lp_site_cmp(s->prev, &into->sites[0]) > 0))
		return LP_STREAM_UNSORTED;
	s->prev = NULL;
	s->cur = !s->cur;
	s->next = 0;
	s->finished = last;
	if (s->threaded) {
		pthread_mutex_lock(&s->lock);
		s->ready = 0;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
	}
	return 0;
}

int lp_prof_stream_prefetch(struct lp_prof_stream *s)
{
	if (s->threaded || s->finished)
		return 0;
	if (pthread_mutex_init(&s->lock, NULL))
		return -1;
	if (pthread_cond_init(&s->cond, NULL)) {
		pthread_mutex_destroy(&s->lock);
		return -1;
	}
	if (pthread_create(&s->helper, NULL, prefetch, s)) {
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
		return -1;
	}
	s->threaded = 1;
	return 0;
}

/*
 * True when the line at @p (@n bytes) starts the records a chunk holds:
 * the header chunk ends before it.
 */
static int is_body(const char *p, size_t n)
{
	return (n >= 5 && !memcmp(p, "site\t", 5)) ||
	       (n >= 4 && !memcmp(p, "end\t", 4));
}

/*
 * Reads until the first site or end record is in the buffer and parses
 * the lines before it: the header and meta, which a merge needs before
 * it writes anything.  Returns 1 when the input is not a likelyprof
 * profile (the caller reads it whole and gets its error or its rows).
 */
static int read_head(struct lp_prof_stream *s)
{
	size_t pos = 0, kind_known = 0;
	int err;

	for (;;) {
		const char *p = s->buf + pos, *end = s->buf + s->len;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n;

		if (!nl) {
			if (s->eof)
				return 1;       /* the whole reading says why */
			if ((err = fill(s)) < 0)
				return err;
			continue;
		}
		n = (size_t)(nl - p);
		if (!kind_known && n && p[0] != '#') {
			if (n < strlen(LP_PROFILE_MAGIC) ||
			    memcmp(p, LP_PROFILE_MAGIC,
				   strlen(LP_PROFILE_MAGIC)))
				return 1;
			kind_known = 1;
		}
		if (kind_known && is_body(p, n))
			break;
		pos += n + 1;
	}
	return parse(s, &s->head, pos, 0);
}

int lp_prof_stream_open(struct lp_prof_stream **out, const char *path,
			size_t bufsize, struct lp_diag *diag)
{
	struct lp_prof_stream *s;
	struct stat st;
	int err;

	*out = NULL;
	diag->msg[0] = '\0';
	/*
	 * A pipe or a device cannot be read twice, as a merge that starts
	 * over must: it is read whole, once (a missing file fails there).
	 */
	if (!strcmp(path, "-") || stat(path, &st) || !S_ISREG(st.st_mode))
		return LP_STREAM_WHOLE;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -LP_ENOMEM;
	s->name = path;
	s->diag = diag;
	s->cap = bufsize < 4096 ? 4096 : bufsize;
	s->buf = malloc(s->cap);
	s->fd = open(path, O_RDONLY | O_CLOEXEC);
	if (!s->buf || s->fd < 0) {
		err = s->buf ? -LP_EIO : -LP_ENOMEM;
		if (s->fd < 0)
			err = errno == ENOENT ? -LP_ENOENT : -LP_EIO;
		snprintf(diag->msg, sizeof(diag->msg), "%s: %s", path,
			 strerror(errno));
		lp_prof_stream_close(s);
		return err;
	}
	posix_fadvise(s->fd, 0, 0, POSIX_FADV_SEQUENTIAL);
	err = read_head(s);
	if (err) {
		lp_prof_stream_close(s);
		return err;
	}
	*out = s;
	return 0;
}

const struct lp_profile *lp_prof_stream_meta(const struct lp_prof_stream *s)
{
	return &s->head;
}

int lp_prof_stream_next(struct lp_prof_stream *s,
			const struct lp_prof_site **site)
{
	for (;;) {
		struct lp_profile *c = &s->chunk[s->cur];
		int err;

		if (s->next < c->nr) {
			const struct lp_prof_site *x = &c->sites[s->next++];

			if (s->prev && lp_site_cmp(s->prev, x) > 0)
				return LP_STREAM_UNSORTED;
			s->prev = x;
			*site = x;
			return 1;
		}
		if (s->finished)
			return 0;
		if ((err = refill(s)))
			return err;
	}
}

void lp_prof_stream_close(struct lp_prof_stream *s)
{
	if (!s)
		return;
	if (s->threaded) {
		pthread_mutex_lock(&s->lock);
		s->quit = 1;
		pthread_cond_signal(&s->cond);
		pthread_mutex_unlock(&s->lock);
		pthread_join(s->helper, NULL);
		pthread_cond_destroy(&s->cond);
		pthread_mutex_destroy(&s->lock);
	}
	if (s->fd >= 0)
		close(s->fd);
	free(s->buf);
	lp_profile_release(&s->head);
	lp_profile_release(&s->chunk[0]);
	lp_profile_release(&s->chunk[1]);
	free(s);
}
