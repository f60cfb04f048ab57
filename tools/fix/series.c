/*
 * series.c - unified diffs and an mbox of patches that git am applies
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "fix/series.h"
#include "likelyprof.h"
#include "usage.h"

#define CONTEXT 3

/* The lines of a buffer: line i is [start[i], start[i + 1]). */
struct lines {
	size_t *start;
	size_t n;
};

static void split_lines(const char *buf, size_t len, struct lines *l)
{
	size_t i, k = 0;

	l->n = 0;
	for (i = 0; i < len; i++)
		l->n += buf[i] == '\n';
	if (len && buf[len - 1] != '\n')
		l->n++;
	l->start = lp_xmalloc((l->n + 1) * sizeof(size_t));
	l->start[k++] = 0;
	for (i = 0; i < len; i++)
		if (buf[i] == '\n' && i + 1 < len)
			l->start[k++] = i + 1;
	l->start[l->n] = len;
}

static size_t line_of(const struct lines *l, size_t off)
{
	return lp_line_index(l->start, l->n, off);
}

/* Writes @mark and one line of [s, s + n), which may lack its newline. */
static void put_line(FILE *out, char mark, const char *s, size_t n)
{
	fputc(mark, out);
	fwrite(s, 1, n, out);
	if (!n || s[n - 1] != '\n')
		fputs("\n\\ No newline at end of file\n", out);
}

/* Writes each line of [s, s + n) with @mark; @return : how many. */
static size_t put_lines(FILE *out, char mark, const char *s, size_t n)
{
	size_t count = 0;

	while (n) {
		const char *nl = memchr(s, '\n', n);
		size_t k = nl ? (size_t)(nl - s) + 1 : n;

		put_line(out, mark, s, k);
		s += k;
		n -= k;
		count++;
	}
	return count;
}

static size_t count_lines(const char *s, size_t n)
{
	size_t c = 0, i;

	for (i = 0; i < n; i++)
		c += s[i] == '\n';
	return c + (n && s[n - 1] != '\n');
}

/* A run of changed old lines [la, lb] and the text that replaces them. */
struct block {
	size_t la, lb;
	char *text;
	size_t len;
};

/* git's default funcname: the last line before @line that starts a word. */
static void put_funcname(FILE *out, const char *buf, const struct lines *l,
			 size_t line)
{
	while (line-- > 0) {
		const char *s = buf + l->start[line];
		size_t n = l->start[line + 1] - l->start[line];

		if (!n || !(((*s | 32) >= 'a' && (*s | 32) <= 'z') ||
			    *s == '_' || *s == '$'))
			continue;
		if (n > 80)
			n = 80;
		while (n && (s[n - 1] == '\n' || s[n - 1] == '\r' ||
			     s[n - 1] == ' ' || s[n - 1] == '\t'))
			n--;
		fputc(' ', out);
		fwrite(s, 1, n, out);
		return;
	}
}

static void put_range(FILE *out, char sign, size_t start, size_t count)
{
	if (count == 1)
		fprintf(out, "%c%zu", sign, start);
	else
		fprintf(out, "%c%zu,%zu", sign, count ? start : start - 1,
			count);
}

size_t lp_write_diff(FILE *out, const struct lp_patch_file *f, size_t *del)
{
	struct lines l;
	struct block *b = NULL;
	size_t nb = 0, i, k, added = 0, newlen;
	long delta = 0;
	char *after;

	*del = 0;
	after = lp_edits_apply(f->edits, f->buf, f->len, &newlen);
	free(after);                    /* sorts the edits */
	split_lines(f->buf, f->len, &l);
	for (i = 0; i < f->edits->nr; i++) {
		const struct lp_edit *e = &f->edits->v[i];
		size_t la = line_of(&l, e->start);
		size_t lb = line_of(&l, e->end > e->start ? e->end - 1
							   : e->start);

		if (nb && la <= b[nb - 1].lb + 1) {
			if (lb > b[nb - 1].lb)
				b[nb - 1].lb = lb;
			continue;
		}
		b = lp_xrealloc(b, (nb + 1) * sizeof(*b));
		b[nb].la = la;
		b[nb].lb = lb;
		nb++;
	}
	/* the new text of each block: its old lines with their edits */
	for (i = 0, k = 0; i < nb; i++) {
		size_t from = l.start[b[i].la], to = l.start[b[i].lb + 1];
		struct lp_edits part = LP_EDITS_INIT;

		part.v = f->edits->v + k;
		while (k < f->edits->nr && f->edits->v[k].start < to) {
			f->edits->v[k].start -= from;
			f->edits->v[k].end -= from;
			part.nr++;
			k++;
		}
		b[i].text = lp_edits_apply(&part, f->buf + from, to - from,
					   &b[i].len);
		for (k -= part.nr; part.nr; part.nr--, k++) {
			f->edits->v[k].start += from;
			f->edits->v[k].end += from;
		}
	}
	fprintf(out, "diff --git a/%s b/%s\n--- a/%s\n+++ b/%s\n", f->path,
		f->path, f->path, f->path);
	for (i = 0; i < nb;) {
		size_t j = i, start, end, oc, nc = 0, at;

		while (j + 1 < nb && b[j + 1].la - b[j].lb - 1 <= 2 * CONTEXT)
			j++;
		start = b[i].la > CONTEXT ? b[i].la - CONTEXT : 0;
		end = b[j].lb + CONTEXT < l.n ? b[j].lb + CONTEXT : l.n - 1;
		oc = end - start + 1;
		for (k = i; k <= j; k++)
			nc += count_lines(b[k].text, b[k].len);
		nc += oc;
		for (k = i; k <= j; k++)
			nc -= b[k].lb - b[k].la + 1;
		fputs("@@ ", out);
		put_range(out, '-', start + 1, oc);
		fputc(' ', out);
		put_range(out, '+', (size_t)((long)start + 1 + delta), nc);
		fputs(" @@", out);
		put_funcname(out, f->buf, &l, start);
		fputc('\n', out);
		for (at = start, k = i; at <= end;) {
			if (k <= j && at == b[k].la) {
				size_t from = l.start[b[k].la];
				size_t to = l.start[b[k].lb + 1];

				*del += put_lines(out, '-', f->buf + from,
						  to - from);
				added += put_lines(out, '+', b[k].text,
						   b[k].len);
				at = b[k].lb + 1;
				k++;
				continue;
			}
			put_line(out, ' ', f->buf + l.start[at],
				 l.start[at + 1] - l.start[at]);
			at++;
		}
		delta += (long)nc - (long)oc;
		i = j + 1;
	}
	for (i = 0; i < nb; i++)
		free(b[i].text);
	free(b);
	free(l.start);
	return added;
}

/*-************************************
 *  The mbox
 **************************************/

/* Quoted-printable, RFC 2045: what keeps a CR through git am. */
static void put_qp(FILE *out, const char *s, size_t n)
{
	size_t col = 0, i;

	for (i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		int last = i + 1 == n || s[i + 1] == '\n';
		int plain = (c >= 33 && c <= 126 && c != '=') ||
			    ((c == ' ' || c == '\t') && !last);
		size_t w = plain ? 1 : 3;

		if (c == '\n') {
			fputc('\n', out);
			col = 0;
			continue;
		}
		if (col + w > 75) {
			fputs("=\n", out);
			col = 0;
		}
		if (plain)
			fputc(c, out);
		else
			fprintf(out, "=%02X", c);
		col += w;
	}
}

static void put_date(FILE *out, long long when)
{
	time_t t = (time_t)when;
	struct tm tm;
	static const char *const day[] = {
		"Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"
	};
	static const char *const mon[] = {
		"Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep",
		"Oct", "Nov", "Dec"
	};

	gmtime_r(&t, &tm);
	fprintf(out, "Date: %s, %d %s %d %02d:%02d:%02d +0000\n",
		day[tm.tm_wday], tm.tm_mday, mon[tm.tm_mon],
		tm.tm_year + 1900, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

static size_t digits(size_t n)
{
	size_t d = 1;

	while (n >= 10) {
		n /= 10;
		d++;
	}
	return d;
}

static void put_diffstat(FILE *out, const struct lp_patch *p,
			 const size_t *add, const size_t *del)
{
	size_t i, name = 0, most = 0, ta = 0, td = 0;

	for (i = 0; i < p->nfiles; i++) {
		if (strlen(p->files[i].path) > name)
			name = strlen(p->files[i].path);
		if (add[i] + del[i] > most)
			most = add[i] + del[i];
	}
	for (i = 0; i < p->nfiles; i++) {
		size_t a = add[i], d = del[i], k;

		/* scale the graph as git does past 50 columns */
		if (most > 50) {
			a = (a * 50 + most - 1) / most;
			d = (d * 50 + most - 1) / most;
		}
		fprintf(out, " %-*s | %*zu ", (int)name, p->files[i].path,
			(int)digits(most), add[i] + del[i]);
		for (k = 0; k < a; k++)
			fputc('+', out);
		for (k = 0; k < d; k++)
			fputc('-', out);
		fputc('\n', out);
		ta += add[i];
		td += del[i];
	}
	fprintf(out, " %zu file%s changed", p->nfiles,
		p->nfiles == 1 ? "" : "s");
	if (ta)
		fprintf(out, ", %zu insertion%s(+)", ta, ta == 1 ? "" : "s");
	if (td)
		fprintf(out, ", %zu deletion%s(-)", td, td == 1 ? "" : "s");
	fputc('\n', out);
}

/*
 * git am applies a series in order, so each patch's diff of a file is
 * made against the file as the patches before it left it: else a hunk
 * whose context holds an earlier patch's line (two one-line functions in
 * a row, each its own patch) does not apply.  A file's state is the
 * edits applied so far, in the bytes of the tree's file.
 */
struct applied {
	const char *path;
	struct lp_edits done;
};

/* How far byte @at of the tree's file moved under the edits @done. */
static long moved(const struct lp_edits *done, size_t at)
{
	long shift = 0;
	size_t i;

	for (i = 0; i < done->nr; i++)
		if (done->v[i].end <= at)
			shift += (long)strlen(done->v[i].text) -
				 (long)(done->v[i].end - done->v[i].start);
	return shift;
}

/*
 * Writes @f's diff against its file as @a (the edits before) leaves it,
 * then adds @f's edits to @a.  @return : lp_write_diff()'s.
 */
static size_t write_chained(FILE *out, const struct lp_patch_file *f,
			    struct applied *a, size_t *del)
{
	struct lp_edits now = LP_EDITS_INIT;
	struct lp_patch_file at = *f;
	char *base = NULL;
	size_t i, added;

	if (a->done.nr) {
		base = lp_edits_apply(&a->done, f->buf, f->len, &at.len);
		at.buf = base;
		for (i = 0; i < f->edits->nr; i++) {
			const struct lp_edit *e = &f->edits->v[i];
			long shift = moved(&a->done, e->start);

			lp_edits_add(&now, (size_t)((long)e->start + shift),
				     (size_t)((long)e->end + shift), e->text);
		}
		at.edits = &now;
	}
	added = lp_write_diff(out, &at, del);
	for (i = 0; i < f->edits->nr; i++)
		lp_edits_add(&a->done, f->edits->v[i].start,
			     f->edits->v[i].end, f->edits->v[i].text);
	lp_edits_release(&now);
	free(base);
	return added;
}

/* The state of @path among @a (@n of them), added if new. */
static struct applied *applied_to(struct applied **a, size_t *n,
				  const char *path)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*a)[i].path, path))
			return &(*a)[i];
	*a = lp_xrealloc(*a, (*n + 1) * sizeof(**a));
	(*a)[*n].path = path;
	memset(&(*a)[*n].done, 0, sizeof((*a)[*n].done));
	return &(*a)[(*n)++];
}

int lp_write_series(FILE *out, const struct lp_patch *p, size_t n,
		    const char *author, long long date)
{
	struct applied *files = NULL;
	size_t i, k, nfiles = 0;

	for (i = 0; i < n; i++) {
		char *text = NULL, *diffs = NULL;
		size_t tlen = 0, dlen = 0;
		size_t *add = lp_xcalloc(p[i].nfiles, sizeof(size_t));
		size_t *del = lp_xcalloc(p[i].nfiles, sizeof(size_t));
		FILE *d = open_memstream(&diffs, &dlen);
		FILE *body;

		if (!d)
			lp_die("out of memory");
		for (k = 0; k < p[i].nfiles; k++)
			add[k] = write_chained(d, &p[i].files[k],
					       applied_to(&files, &nfiles,
							  p[i].files[k].path),
					       &del[k]);
		fclose(d);
		body = open_memstream(&text, &tlen);
		if (!body)
			lp_die("out of memory");
		fputs(p[i].body, body);
		fputs("---\n", body);
		put_diffstat(body, &p[i], add, del);
		fputc('\n', body);
		fwrite(diffs, 1, dlen, body);
		fprintf(body, "-- \nlikelyprof %s\n\n", LP_VERSION_STRING);
		fclose(body);

		fputs("From 0000000000000000000000000000000000000000 "
		      "Mon Sep 17 00:00:00 2001\n", out);
		fprintf(out, "From: %s\n", author);
		put_date(out, date);
		fprintf(out, "Subject: [PATCH %zu/%zu] %s\n", i + 1, n,
			p[i].subject);
		fputs("MIME-Version: 1.0\n"
		      "Content-Type: text/plain; charset=UTF-8\n", out);
		if (memchr(text, '\r', tlen)) {
			fputs("Content-Transfer-Encoding: quoted-printable\n\n",
			      out);
			put_qp(out, text, tlen);
		} else {
			fputs("Content-Transfer-Encoding: 8bit\n\n", out);
			fwrite(text, 1, tlen, out);
		}
		free(text);
		free(diffs);
		free(add);
		free(del);
	}
	for (i = 0; i < nfiles; i++)
		lp_edits_release(&files[i].done);
	free(files);
	return ferror(out) ? -1 : 0;
}

/*-************************************
 *  git
 **************************************/

char *lp_git_output(const char *dir, const char *const *args)
{
	const char **argv;
	size_t n = 0, len = 0, cap = 4096;
	char *buf;
	int fd[2], status;
	pid_t pid;
	ssize_t got;

	while (args[n])
		n++;
	argv = lp_xcalloc(n + 4, sizeof(*argv));
	argv[0] = "git";
	argv[1] = "-C";
	argv[2] = dir;
	memcpy(argv + 3, args, n * sizeof(*argv));
	if (pipe(fd)) {
		free(argv);
		return NULL;
	}
	pid = fork();
	if (pid < 0) {
		close(fd[0]);
		close(fd[1]);
		free(argv);
		return NULL;
	}
	if (!pid) {
		int null = open("/dev/null", O_RDWR);

		dup2(fd[1], 1);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 2);
		}
		close(fd[0]);
		close(fd[1]);
		execvp("git", (char *const *)argv);
		_exit(127);
	}
	close(fd[1]);
	free(argv);
	buf = lp_xmalloc(cap);
	while ((got = read(fd[0], buf + len, cap - len - 1)) != 0) {
		if (got < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		len += (size_t)got;
		if (cap - len < 2)
			buf = lp_xrealloc(buf, cap *= 2);
	}
	close(fd[0]);
	buf[len] = '\0';
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		free(buf);
		return NULL;
	}
	return buf;
}

/* The "prefix" of "prefix: what" in a subject, or NULL. */
static char *subject_prefix(const char *s, size_t n)
{
	const char *colon;
	size_t k;

	/* "[PATCH v2] mm: ..." as some trees keep it */
	while (n && *s == '[') {
		const char *close = memchr(s, ']', n);

		if (!close)
			return NULL;
		n -= (size_t)(close + 1 - s);
		s = close + 1;
		while (n && *s == ' ') {
			s++;
			n--;
		}
	}
	colon = memchr(s, ':', n);
	if (!colon || colon == s || colon - s > 40 ||
	    (size_t)(colon - s) + 1 >= n || colon[1] != ' ')
		return NULL;
	for (k = 0; s + k < colon; k++)
		if (s[k] == ' ' || s[k] == '"')
			return NULL;
	return lp_xstrfmt("%.*s", (int)(colon - s), s);
}

char *lp_subsystem(const char *dir, const char *rel, int git)
{
	static const char *const log[] = {
		"log", "--no-merges", "-n", "200", "--format=%s", "--",
		NULL, NULL
	};
	const char *args[sizeof(log) / sizeof(log[0])];
	char **names = NULL, *out = NULL, *best = NULL, *slash, *line;
	size_t *votes = NULL, n = 0, i, most = 0;

	if (git) {
		memcpy(args, log, sizeof(log));
		args[6] = rel;
		out = lp_git_output(dir, args);
	}
	for (line = out; line && *line;) {
		char *nl = strchr(line, '\n');
		size_t len = nl ? (size_t)(nl - line) : strlen(line);
		char *p = subject_prefix(line, len);

		line = nl ? nl + 1 : line + len;
		if (!p)
			continue;
		for (i = 0; i < n && strcmp(names[i], p); i++)
			;
		if (i < n) {
			free(p);
			votes[i]++;
			continue;
		}
		names = lp_xrealloc(names, (n + 1) * sizeof(*names));
		votes = lp_xrealloc(votes, (n + 1) * sizeof(*votes));
		names[n] = p;
		votes[n++] = 1;
	}
	/* the most votes; a tie goes to the most recent */
	for (i = 0; i < n; i++)
		if (votes[i] > most) {
			most = votes[i];
			best = names[i];
		}
	best = best ? lp_xstrdup(best) : NULL;
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(votes);
	free(out);
	if (best)
		return best;
	slash = strchr(rel, '/');
	if (slash)
		return lp_xstrfmt("%.*s", (int)(slash - rel), rel);
	best = lp_xstrdup(rel);
	if (strrchr(best, '.') && strrchr(best, '.') != best)
		*strrchr(best, '.') = '\0';
	return best;
}

char *lp_wrap(const char *text, size_t width)
{
	size_t cap = strlen(text) * 2 + 2, n = 0, col = 0;
	char *out = lp_xmalloc(cap);
	const char *s = text;

	while (*s) {
		size_t w;

		if (*s == '\n') {
			out[n++] = '\n';
			col = 0;
			s++;
			continue;
		}
		if (*s == ' ') {
			s++;
			continue;
		}
		w = strcspn(s, " \n");
		if (col && col + 1 + w > width) {
			out[n++] = '\n';
			col = 0;
		} else if (col) {
			out[n++] = ' ';
			col++;
		}
		memcpy(out + n, s, w);
		n += w;
		col += w;
		s += w;
	}
	out[n] = '\0';
	return out;
}
