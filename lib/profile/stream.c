/*
 * stream.c - read a profile record by record, in memory bounded by a
 * chunk of it rather than by its size
 *
 * A fleet's merge reads thousands of profiles at once; held whole, they
 * would take the sum of their sizes.  A stream maps its file and reads
 * it a chunk of lines at a time, giving back the pages of the chunks
 * read, so that what stays resident is a few chunks per input.  A site
 * record whose text needs no escape is read in place (lp_mrec_parse());
 * every other line goes through the reader of profile.c
 * (lp_read_records()), so every record is checked exactly as a whole
 * reading checks it.  What a stream cannot do is left to that reading:
 * standard input (a merge may have to start over), kernel tables and
 * CSV (their rows come in any order), and a profile that turns out not
 * to be in the writer's order.
 */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "internal.h"
#include "stream.h"

/* Pages given back at a time (drop_behind()) */
#define DROP_STEP ((size_t)2 << 20)

/* The records of a chunk of lines, and the strings of those decoded. */
struct chunk {
	struct lp_mrec *recs;
	size_t nr, alloc;
	struct lp_profile slow;         /* the sites the reader read */
	size_t start;                   /* the file offset of its lines */
};

/*
 * With a helper thread (lp_prof_stream_prefetch()), the helper owns the
 * reading side (pos and what follows it, and chunk[!cur]) and the caller
 * the other chunk; they trade chunks under the lock.
 */
struct lp_prof_stream {
	const char *name;
	const char *map;                /* the whole file, mapped */
	size_t size;
	size_t pos;                     /* the first line not parsed */
	size_t chunk_bytes;             /* the lines a chunk holds, about */
	size_t dropped;                 /* pages before it are given back */
	int done;                       /* every line parsed */
	struct lp_read_state st;
	size_t lineno;
	struct lp_diag *diag;
	struct lp_profile head;         /* the header and meta records */
	struct chunk chunk[2];          /* the current chunk and the next */
	int cur;                        /* the caller's */
	size_t next;                    /* next record of chunk[cur] */
	int finished;                   /* chunk[cur] is the last */
	const struct lp_mrec *prev;     /* the record returned last */
	void (*hook)(void *ctx, struct lp_mrec *recs, size_t n);
	void *hook_ctx;
	/* the helper thread, when there is one */
	pthread_t helper;
	pthread_mutex_t lock;
	pthread_cond_t cond;
	int threaded;
	int ready;              /* chunk[!cur] is parsed, with ready_err */
	int ready_err, ready_last;
	int quit;
};

/*
 * Reads the lines of map[pos..end) into @into with the reader, carrying
 * the reading's state; the last part of the file (@last) must hold the
 * end record.
 */
static int parse(struct lp_prof_stream *s, struct lp_profile *into,
		 size_t end, int last)
{
	struct lp_reader r;
	int err;

	if (memchr(s->map + s->pos, '\0', end - s->pos)) {
		snprintf(s->diag->msg, sizeof(s->diag->msg),
			 "%s: binary data (NUL byte)", s->name);
		return -LP_EBINARY;
	}
	lp_reader_init(&r, s->name, s->map + s->pos, end - s->pos, s->diag);
	r.lineno = s->lineno;
	s->st.first_part = !last;
	err = lp_read_records(into, &r, &s->st);
	s->lineno = r.lineno;
	s->pos = end;
	return err;
}

/*
 * A line lp_mrec_parse() left to the reader (a comment, the end record,
 * an escape, damage): read into the chunk's profile, and a site it
 * gives into the chunk's records.  A meta record among the sites puts
 * the input out of the order a stream can merge.
 */
static int read_slow(struct lp_prof_stream *s, struct chunk *c, size_t end)
{
	size_t before = c->slow.nr;
	int err = parse(s, &c->slow, end, 0);

	if (err)
		return err;
	if (c->slow.meta_nr)
		return LP_STREAM_UNSORTED;
	if (c->slow.nr > before)
		lp_mrec_of_site(&c->recs[c->nr++],
				&c->slow.sites[c->slow.nr - 1]);
	return 0;
}

/*
 * Gives back the pages of the lines the caller is done with (those
 * before its chunk): mapped pages count as the process's memory, and a
 * merge of many big inputs would otherwise hold them all.
 */
static void drop_behind(struct lp_prof_stream *s)
{
	size_t page = (size_t)sysconf(_SC_PAGESIZE);
	size_t upto = s->chunk[s->cur].start & ~(page - 1);

	/* in steps of a few MiB: each is a TLB flush on every thread */
	if (upto < s->dropped + DROP_STEP)
		return;
	(void)madvise((void *)(s->map + s->dropped), upto - s->dropped,
		      MADV_DONTNEED);
	s->dropped = upto;
}

/* Reads the next chunk of lines into @into, and the end of the file. */
static int parse_next(struct lp_prof_stream *s, struct chunk *into)
{
	const char *map = s->map, *end = map + s->size;
	size_t stop = s->size - s->pos > s->chunk_bytes ?
		      s->pos + s->chunk_bytes : s->size;
	int err;

	drop_behind(s);
	into->nr = 0;
	into->start = s->pos;
	lp_profile_clear(&into->slow);
	while (s->pos < stop) {
		const char *p = map + s->pos;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t next = nl ? (size_t)(nl + 1 - map) : s->size;

		if (into->nr == into->alloc &&
		    lp_grow((void **)&into->recs, &into->alloc, into->nr + 1,
			    sizeof(*into->recs)) < 0)
			return -LP_ENOMEM;
		if (nl && !s->st.seen_end &&
		    lp_mrec_parse(&into->recs[into->nr], p, (size_t)(nl - p),
				  end, &into->slow)) {
			into->recs[into->nr++].s.src_line = ++s->lineno;
			s->st.sites++;
			s->pos = next;
		} else if ((err = read_slow(s, into, next))) {
			return err;
		} else if (!into->nr || into->recs[into->nr - 1].s.src_line !=
					s->lineno) {
			continue;       /* a line that is no site */
		}
		/* while the record is in the cache */
		if (s->hook)
			s->hook(s->hook_ctx, &into->recs[into->nr - 1], 1);
	}
	if (s->pos == s->size) {
		/* no end record read: the reader says so */
		if ((err = parse(s, &into->slow, s->size, 1)) < 0)
			return err;
		s->done = 1;
	}
	return 0;
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
 * The order of the last record and the next is checked before the old
 * chunk goes back to the helper, which reuses it.
 */
static int refill(struct lp_prof_stream *s)
{
	struct chunk *into = &s->chunk[!s->cur];
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
	if (err)
		return err;
	if (s->prev && into->nr && lp_mrec_cmp(s->prev, &into->recs[0]) > 0)
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

void lp_prof_stream_hook(struct lp_prof_stream *s,
			 void (*hook)(void *ctx, struct lp_mrec *recs,
				      size_t n),
			 void *ctx)
{
	s->hook = hook;
	s->hook_ctx = ctx;
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
 * Finds the first site or end record and parses the lines before it:
 * the header and meta, which a merge needs before it writes anything.
 * Returns 1 when the input is not a likelyprof profile (the caller
 * reads it whole and gets its error or its rows).
 */
static int read_head(struct lp_prof_stream *s)
{
	size_t pos = 0, kind_known = 0;

	for (;;) {
		const char *p = s->map + pos, *end = s->map + s->size;
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t n;

		if (!nl)
			return 1;       /* the whole reading says why */
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

/* Maps @path; 0, LP_STREAM_WHOLE or -LP_E* with @diag filled. */
static int map_file(struct lp_prof_stream *s, const char *path,
		    struct lp_diag *diag)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	struct stat st;
	void *map;

	if (fd < 0) {
		snprintf(diag->msg, sizeof(diag->msg), "%s: %s", path,
			 strerror(errno));
		return errno == ENOENT ? -LP_ENOENT : -LP_EIO;
	}
	/* empty, or too big to map here: the whole reading copes */
	if (fstat(fd, &st) || !S_ISREG(st.st_mode) || !st.st_size ||
	    (uint64_t)st.st_size > SIZE_MAX / 2) {
		close(fd);
		return LP_STREAM_WHOLE;
	}
	map = mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	close(fd);
	if (map == MAP_FAILED)
		return LP_STREAM_WHOLE;
	(void)madvise(map, (size_t)st.st_size, MADV_SEQUENTIAL);
	s->map = map;
	s->size = (size_t)st.st_size;
	return 0;
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
	s->chunk_bytes = bufsize < 4096 ? 4096 : bufsize;
	err = map_file(s, path, diag);
	if (!err)
		err = read_head(s);
	if (err) {
		lp_prof_stream_close(s);
		return err;
	}
	s->chunk[0].start = s->chunk[1].start = s->pos;
	*out = s;
	return 0;
}

const struct lp_profile *lp_prof_stream_meta(const struct lp_prof_stream *s)
{
	return &s->head;
}

int lp_prof_stream_next(struct lp_prof_stream *s, const struct lp_mrec **rec)
{
	for (;;) {
		struct chunk *c = &s->chunk[s->cur];
		int err;

		if (s->next < c->nr) {
			const struct lp_mrec *x = &c->recs[s->next++];

			if (s->prev && lp_mrec_cmp(s->prev, x) > 0)
				return LP_STREAM_UNSORTED;
			s->prev = x;
			*rec = x;
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
	int i;

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
	if (s->map)
		munmap((void *)s->map, s->size);
	lp_profile_release(&s->head);
	for (i = 0; i < 2; i++) {
		free(s->chunk[i].recs);
		lp_profile_release(&s->chunk[i].slow);
	}
	free(s);
}
