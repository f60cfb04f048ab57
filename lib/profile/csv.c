/*
 * csv.c - reads back what `likelyprof report --format csv` writes
 *
 * A spreadsheet or a script may have filtered or edited the rows; merging
 * them again must give the profile they describe.  RFC 4180: fields
 * separated by commas, quoted when they hold a comma, a quote or a line
 * break, quotes doubled inside; records end in LF or CRLF.  The columns
 * are fixed: file,line,function,expect,correct,incorrect,constant,
 * condition.  A CSV row carries no translation unit, so the copies of a
 * static inline stay apart by their order, as in a kernel table.
 */
#include <limits.h>
#include <string.h>

#include "internal.h"

static const char csv_header[] =
	"file,line,function,expect,correct,incorrect,constant,condition";

enum { F_FILE, F_LINE, F_FUNC, F_EXPECT, F_CORRECT, F_INCORRECT,
       F_CONSTANT, F_COND, NFIELDS };

int lp_csv_header(const char *line, size_t len)
{
	size_t n = sizeof(csv_header) - 1;

	if (len && line[len - 1] == '\r')
		len--;
	return len == n && !memcmp(line, csv_header, n);
}

struct csv_field {
	char *text;             /* unquoted, in the profile's pool */
	size_t len;
};

/*
 * Reads one field at *pp, unquoting into the pool; stops after its
 * separator (',' or the end of the record).  @return : 1 if the record
 * goes on, 0 at its end, -1 on a malformed field (@why says how).
 */
static int read_field(struct lp_profile *out, struct lp_reader *r,
		      const char **pp, struct csv_field *f, const char **why)
{
	const char *p = *pp, *end = r->end;
	char *dst;

	f->len = 0;
	/* a field is never longer than the rest of the input */
	dst = lp_pool_reserve(out, (size_t)(end - p) + 1);
	if (!dst) {
		*why = "out of memory";
		return -1;
	}
	f->text = dst;
	if (p < end && *p == '"') {
		for (p++;; p++) {
			if (p == end) {
				*why = "a quoted field is not closed";
				return -1;
			}
			if (*p == '\n')
				r->lineno++;
			if (*p == '"') {
				if (p + 1 < end && p[1] == '"') {
					dst[f->len++] = '"';
					p++;
					continue;
				}
				p++;
				break;
			}
			dst[f->len++] = *p;
		}
	} else {
		while (p < end && *p != ',' && *p != '\n' && *p != '\r') {
			if (*p == '"') {
				*why = "a quote inside an unquoted field";
				return -1;
			}
			dst[f->len++] = *p++;
		}
	}
	dst[f->len] = '\0';
	lp_pool_commit(out, f->len + 1);
	if (p < end && *p == ',') {
		*pp = p + 1;
		return 1;
	}
	if (p < end && *p == '\r')
		p++;
	if (p < end && *p != '\n') {
		*why = "text after a quoted field";
		return -1;
	}
	*pp = p < end ? p + 1 : p;
	return 0;
}

static int parse_expect(const struct csv_field *f, long *v)
{
	const char *s = f->text;
	uint64_t mag;
	int neg = 0;

	if (!f->len) {
		*v = LP_EXPECT_UNKNOWN;
		return 0;
	}
	if (!strcmp(s, "if")) {
		*v = LP_EXPECT_IF;
		return 0;
	}
	if (*s == '-') {
		neg = 1;
		s++;
	}
	if (lp_parse_u64(s, f->len - (size_t)neg, &mag) < 0 ||
	    mag > (uint64_t)LONG_MAX + (uint64_t)neg)
		return -1;
	*v = neg ? (long)(0 - mag) : (long)mag;
	/* the two values that stand for "?" and "if" are not numbers here */
	return *v == LP_EXPECT_UNKNOWN || *v == LP_EXPECT_IF ? -1 : 0;
}

static int row(struct lp_profile *out, struct lp_reader *r,
	       struct csv_field *f)
{
	struct lp_prof_site s;
	static const char *const names[] = {
		[F_LINE] = "line", [F_CORRECT] = "correct",
		[F_INCORRECT] = "incorrect", [F_CONSTANT] = "constant",
	};
	uint64_t *counts[] = { &s.correct, &s.incorrect, &s.constant };
	int i;

	memset(&s, 0, sizeof(s));
	s.file = f[F_FILE].text;
	s.func = f[F_FUNC].text;
	s.cond = f[F_COND].text;
	s.unit = f[F_FILE].text + f[F_FILE].len;       /* "" */
	s.src_line = r->lineno;
	if (lp_parse_lineno(f[F_LINE].text, f[F_LINE].len, &s.line) < 0)
		return lp_reader_fail(r, -LP_EPARSE, "bad %s '%s'",
				      names[F_LINE], f[F_LINE].text);
	if (parse_expect(&f[F_EXPECT], &s.expect) < 0)
		return lp_reader_fail(r, -LP_EPARSE, "bad expect '%s'",
				      f[F_EXPECT].text);
	for (i = F_CORRECT; i <= F_CONSTANT; i++)
		if (lp_parse_u64(f[i].text, f[i].len,
				 counts[i - F_CORRECT]) < 0)
			return lp_reader_fail(r, -LP_EPARSE, "bad %s '%s'",
					      names[i], f[i].text);
	if (lp_profile_push(out, &s) < 0)
		return lp_reader_fail(r, -LP_ENOMEM, "out of memory");
	return 0;
}

int lp_csv_read(struct lp_profile *out, struct lp_reader *r)
{
	const char *p;

	while (lp_reader_next(r))
		if (lp_csv_header(r->line, r->len))
			break;
	p = r->next;
	while (p < r->end) {
		struct csv_field f[NFIELDS];
		const char *why = NULL;
		size_t start_line = ++r->lineno;
		int n = 0, more = 1, err;

		/* an empty line (a trailing one, most often) is no record */
		if (*p == '\n' ||
		    (*p == '\r' && p + 1 < r->end && p[1] == '\n')) {
			p += *p == '\r' ? 2 : 1;
			continue;
		}
		while (more) {
			struct csv_field spare;

			more = read_field(out, r, &p,
					  n < NFIELDS ? &f[n] : &spare, &why);
			if (more < 0) {
				r->lineno = start_line;
				return lp_reader_fail(r, -LP_EPARSE, "%s",
						      why);
			}
			n++;
		}
		if (n != NFIELDS) {
			r->lineno = start_line;
			return lp_reader_fail(r, -LP_EPARSE,
				"expected %d fields, found %d", NFIELDS, n);
		}
		err = row(out, r, f);
		if (err < 0)
			return err;
	}
	return 0;
}
