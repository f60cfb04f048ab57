/*
 * read.c - read a whole profile: a likelyprof profile, a kernel table or
 * a CSV export, told apart by its first line, from a buffer or a file,
 * in two threads when it is big
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigmem.h"
#include "internal.h"
#include "keymap.h"
#include "profile.h"
#include "simd.h"

/*
 * Reads a whole profile, in two threads when it is big: the reading is
 * half of report's time at a million sites, and the lines of a profile
 * can be read in any order but for the header, the end record and the
 * count it gives.  The second half is read as if the header came before
 * it; where the first half does not end as a plain stretch of records
 * (no header yet, or the end record already), the profile is read again
 * in one piece, so that every error is the one a single reading gives,
 * at the same line.
 */
struct part {
	struct lp_profile prof;
	struct lp_reader r;
	struct lp_diag diag;
	struct lp_read_state st;
	int err;
};

static void *read_part(void *arg)
{
	struct part *pt = arg;

	pt->err = lp_read_records(&pt->prof, &pt->r, &pt->st);
	return NULL;
}

static int adopt_rest(struct lp_profile *p, struct lp_profile *tmp);

/*
 * The second part's sites go straight into @out's array, behind room for
 * one site per line of the first part: copying half a million sites from
 * an array of its own cost as much as reading them.  Before the part is
 * released, its window into @out's array is taken away from it.
 */
static void part_release(struct part *pt)
{
	pt->prof.sites = NULL;
	pt->prof.nr = pt->prof.alloc = 0;
	lp_profile_release(&pt->prof);
}

/*
 * @out's array has room for a site per line (the caller sized it), and
 * @first_lines is the number of lines in the first half of the buffer.
 */
static int read_split(struct lp_profile *out, struct lp_reader *r,
		      size_t split_min, size_t first_lines)
{
	size_t len = (size_t)(r->end - r->buf), lines;
	const char *mid;
	struct part second;
	struct lp_read_state st = { 0, 0, 1, 0, 0, 0, 0 };
	pthread_t helper;
	int err;

	mid = len >= split_min && len >= 2 ?
	      memchr(r->buf + len / 2, '\n', len - len / 2) : NULL;
	/* lines of the first part: those of the first half, and mid's */
	lines = first_lines + 1;
	if (!mid || mid + 1 >= r->end || out->nr || out->alloc <= lines) {
		st.first_part = 0;
		return lp_read_records(out, r, &st);
	}
	mid++;
	memset(&second, 0, sizeof(second));
	lp_profile_init(&second.prof);
	second.prof.sites = out->sites + lines;
	second.prof.alloc = out->alloc - lines;
	lp_reader_init(&second.r, r->name, mid, (size_t)(r->end - mid),
		       &second.diag);
	second.r.lineno = lines;
	second.st.seen_header = 1;
	second.st.second_part = 1;
	if (pthread_create(&helper, NULL, read_part, &second)) {
		part_release(&second);
		st.first_part = 0;
		return lp_read_records(out, r, &st);
	}
	r->end = mid;
	err = lp_read_records(out, r, &st);
	pthread_join(helper, NULL);
	if (!err && (!st.seen_header || st.seen_end)) {
		/* not a plain stretch of records: read it in one piece */
		part_release(&second);
		lp_profile_release(out);
		lp_reader_init(r, r->name, r->buf, len, r->diag);
		st = (struct lp_read_state){ 0, 0, 0, 0, 0, 0, 0 };
		return lp_read_records(out, r, &st);
	}
	/* the end record's count comes before any error after it */
	if (!err && second.st.end_line &&
	    second.st.end_count != st.sites + second.st.sites) {
		r->lineno = second.st.end_line;
		err = lp_end_count_error(r, second.st.end_count,
				      st.sites + second.st.sites);
	}
	if (!err && second.err) {
		memcpy(r->diag, &second.diag, sizeof(second.diag));
		err = second.err;
	}
	if (!err) {
		memmove(out->sites + out->nr, second.prof.sites,
			second.prof.nr * sizeof(*out->sites));
		out->nr += second.prof.nr;
		second.prof.nr = 0;
		if (adopt_rest(out, &second.prof) < 0)
			err = lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	}
	part_release(&second);
	return err;
}

/* Moves @tmp's strings and meta into @p; 0 or -LP_ENOMEM. */
static int adopt_rest(struct lp_profile *p, struct lp_profile *tmp)
{
	size_t i;

	lp_pool_splice(p, tmp);
	for (i = 0; i < tmp->meta_nr; i++)
		if (lp_profile_add_meta(p, tmp->meta[i].key,
					tmp->meta[i].value) < 0)
			return -LP_ENOMEM;
	return lp_meta_tidy(p);
}

/*
 * Moves what @tmp holds into @p: sites appended, meta set.  Cannot fail
 * half-way: all allocation happens before anything moves.
 */
static int adopt(struct lp_profile *p, struct lp_profile *tmp,
		 const char *name)
{
	if (!p->name && name && !(p->name = strdup(name)))
		return -LP_ENOMEM;
	if (!p->nr) {
		struct lp_prof_site *old = p->sites;

		p->sites = tmp->sites;
		p->nr = tmp->nr;
		p->alloc = tmp->alloc;
		p->origin = tmp->origin;
		tmp->sites = old;
		tmp->nr = 0;
		tmp->alloc = 0;
		free(old);
		tmp->sites = NULL;
	} else {
		if (lp_grow((void **)&p->sites, &p->alloc, p->nr + tmp->nr,
			 sizeof(*p->sites)) < 0)
			return -LP_ENOMEM;
		if (tmp->nr)    /* tmp->sites may be NULL */
			memcpy(p->sites + p->nr, tmp->sites,
			       tmp->nr * sizeof(*p->sites));
		p->nr += tmp->nr;
		tmp->nr = 0;
		/* a mix of a profile and a kernel table is a profile */
		if (p->origin != tmp->origin)
			p->origin = LP_ORIGIN_PROFILE;
	}
	return adopt_rest(p, tmp);
}

static int is_blank(const char *s, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
			return 0;
	return 1;
}

/*
 * Counts the LF bytes of @n bytes at @s and ORs into *@nul whether one of
 * them is a NUL.  A pass over 100 MiB, so sixteen bytes at a time: each
 * compare adds its matches to byte counters, summed before they can wrap.
 */
static size_t count_newlines(const char *s, size_t n, int *nul)
{
	size_t count = 0, i = 0;
	int any = 0;

#ifdef __SSE2__
	const __m128i lf = _mm_set1_epi8('\n'), zero = _mm_setzero_si128();

	while (i + 16 <= n) {
		__m128i acc = zero, z = zero, sum;
		size_t stop = n - i >= 255 * 16 ? i + 255 * 16 : n - 15;

		for (; i < stop; i += 16) {
			const void *at = s + i;
			__m128i v = _mm_loadu_si128((const __m128i *)at);

			acc = _mm_sub_epi8(acc, _mm_cmpeq_epi8(v, lf));
			z = _mm_or_si128(z, _mm_cmpeq_epi8(v, zero));
		}
		sum = _mm_sad_epu8(acc, zero);
		count += (size_t)_mm_cvtsi128_si32(sum) +
			 (size_t)_mm_extract_epi16(sum, 4);
		any |= _mm_movemask_epi8(z);
	}
#endif
	for (; i < n; i++) {
		count += s[i] == '\n';
		any |= !s[i];
	}
	*nul |= any != 0;
	return count;
}

struct count_job {
	const char *s;
	size_t n, newlines;
	int nul;
};

static void *count_job(void *arg)
{
	struct count_job *job = arg;

	job->newlines = count_newlines(job->s, job->n, &job->nul);
	return NULL;
}

/*
 * One pass finds NUL bytes and counts the lines of the whole buffer
 * (returned) and of its first half (*@first, for read_split()); a big
 * buffer's halves are counted in two threads, as they are read.
 */
static size_t count_halves(const char *buf, size_t len, size_t split_min,
			   size_t *first, int *nul)
{
	struct count_job second = { buf + len / 2, len - len / 2, 0, 0 };
	pthread_t helper;
	int threaded = len >= split_min &&
		       !pthread_create(&helper, NULL, count_job, &second);

	*first = count_newlines(buf, len / 2, nul);
	if (threaded)
		pthread_join(helper, NULL);
	else
		count_job(&second);
	*nul |= second.nul;
	return *first + second.newlines + 1;
}

int lp_profile_read_buf(struct lp_profile *p, const char *name,
			const char *buf, size_t len, struct lp_diag *diag)
{
	return lp_profile_read_buf_split(p, name, buf, len, diag,
					 LP_READ_SPLIT_MIN);
}

int lp_profile_read_buf_split(struct lp_profile *p, const char *name,
			      const char *buf, size_t len,
			      struct lp_diag *diag, size_t split_min)
{
	struct lp_profile tmp = LP_PROFILE_INIT;
	enum lp_prof_origin kind = LP_ORIGIN_PROFILE;
	struct lp_reader r;
	const char *nul;
	size_t n = strlen(LP_PROFILE_MAGIC), first_lines, lines;
	int err, found = 0, has_nul = 0;

	if (!name)
		name = "<input>";
	lp_reader_init(&r, name, buf, len, diag);
	diag->msg[0] = '\0';
	lines = count_halves(buf, len, split_min, &first_lines, &has_nul);
	if (has_nul) {
		nul = memchr(buf, '\0', len);
		/* name the line, so a profile with one damaged byte is found */
		while (lp_reader_next(&r) && r.next <= nul)
			;
		return lp_reader_fail(&r, -LP_EBINARY,
				      "binary data (NUL byte)");
	}
	/* The first line that is not a comment or blank tells the kind. */
	while (lp_reader_next(&r)) {
		if ((r.len && r.line[0] == '#') || is_blank(r.line, r.len))
			continue;
		found = 1;
		if (r.len >= n && !memcmp(r.line, LP_PROFILE_MAGIC, n))
			break;
		if (lp_csv_header(r.line, r.len)) {
			kind = LP_ORIGIN_CSV;
			break;
		}
		kind = lp_ktable_header(r.line, r.len);
		if (kind == LP_ORIGIN_PROFILE)
			return lp_reader_fail(&r, -LP_EPARSE,
				"not a likelyprof profile or kernel branch "
				"table");
		break;
	}
	if (!found) {
		r.lineno = 0;
		return lp_reader_fail(&r, -LP_EEMPTY, len ?
				      "no profile or table in input" :
				      "empty input");
	}
	lp_reader_init(&r, name, buf, len, diag);
	/* one record per line: size the array once, not by doubling */
	if (lp_grow((void **)&tmp.sites, &tmp.alloc, lines,
		 sizeof(*tmp.sites)) < 0)
		return lp_reader_fail(&r, -LP_ENOMEM, "out of memory");
	if (kind == LP_ORIGIN_PROFILE)
		err = read_split(&tmp, &r, split_min, first_lines);
	else if (kind == LP_ORIGIN_CSV)
		err = lp_csv_read(&tmp, &r);
	else
		err = lp_ktable_read(&tmp, &r, kind);
	tmp.origin = kind;
	if (!err && adopt(p, &tmp, name) < 0) {
		r.lineno = 0;
		err = lp_reader_fail(&r, -LP_ENOMEM, "out of memory");
	}
	lp_profile_release(&tmp);
	return err;
}

/*
 * A pipe or device is read up to this much: /dev/zero or `yes |` must end
 * in an error, not in the memory running out.  A million-site profile is
 * about 150 MiB.
 */
#define LP_STREAM_MAX ((size_t)1 << 30)

/*
 * Reads all of @fd into a malloc'd buffer.  A NUL byte in what came so
 * far ends the reading: no profile holds one, and the parser then names
 * the input as binary.  Past LP_STREAM_MAX it fails with EFBIG.
 */
static int slurp(int fd, char **out, size_t *len)
{
	size_t cap = 1 << 16, n = 0;
	struct stat st;
	char *buf;

	if (!fstat(fd, &st) && S_ISREG(st.st_mode) && st.st_size > 0 &&
	    (uint64_t)st.st_size < SIZE_MAX - 1)
		cap = (size_t)st.st_size + 1;
	buf = malloc(cap);
	if (!buf) {
		errno = ENOMEM;
		return -1;
	}
	for (;;) {
		ssize_t got;

		if (n == cap) {
			char *b = cap > SIZE_MAX / 2 ? NULL :
				  realloc(buf, cap * 2);

			if (!b) {
				free(buf);
				errno = ENOMEM;
				return -1;
			}
			buf = b;
			cap *= 2;
		}
		got = read(fd, buf + n, cap - n);
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			int e = errno;

			free(buf);
			errno = e;
			return -1;
		}
		if (!got || memchr(buf + n, '\0', (size_t)got)) {
			n += (size_t)got;
			break;
		}
		n += (size_t)got;
		if (n > LP_STREAM_MAX) {
			free(buf);
			errno = EFBIG;
			return -1;
		}
	}
	*out = buf;
	*len = n;
	return 0;
}

int lp_profile_read_file(struct lp_profile *p, const char *path,
			 struct lp_diag *diag)
{
	int is_stdin = !strcmp(path, "-");
	const char *name = is_stdin ? "<stdin>" : path;
	struct stat st;
	char *buf = NULL;
	size_t len = 0;
	int fd, err, e;

	diag->msg[0] = '\0';
	fd = is_stdin ? 0 : open(path, O_RDONLY | O_CLOEXEC);
	/*
	 * Mapping a big profile saves copying it and zeroing as much fresh
	 * memory: a fifth of the time of a report at a million sites.
	 */
	if (fd > 0 && !fstat(fd, &st) && S_ISREG(st.st_mode) &&
	    st.st_size > 0 && (uint64_t)st.st_size < SIZE_MAX) {
		void *map = mmap(NULL, (size_t)st.st_size, PROT_READ,
				 MAP_PRIVATE | MAP_POPULATE, fd, 0);

		if (map != MAP_FAILED) {
			close(fd);
			err = lp_profile_read_buf(p, name, map,
						  (size_t)st.st_size, diag);
			munmap(map, (size_t)st.st_size);
			return err;
		}
	}
	if (fd < 0 || slurp(fd, &buf, &len) < 0) {
		e = errno;
		if (fd > 0)
			close(fd);
		if (e == EFBIG)
			snprintf(diag->msg, sizeof(diag->msg), "%s: more than "
				 "%zu MiB from a stream; not a profile", name,
				 LP_STREAM_MAX >> 20);
		else
			snprintf(diag->msg, sizeof(diag->msg), "%s: %s", name,
				 strerror(e));
		if (e == ENOMEM)
			return -LP_ENOMEM;
		return e == ENOENT ? -LP_ENOENT : -LP_EIO;
	}
	if (!is_stdin)
		close(fd);
	err = lp_profile_read_buf(p, name, buf, len, diag);
	free(buf);
	return err;
}

