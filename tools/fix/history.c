/*
 * history.c - a site's line, read in the revision the profile was made
 * from, and mapped forward through the diffs to the working tree
 *
 * A kernel developer whose profile came from last month's build does not
 * guess which annotation line 2206 was: `git log -L` shows it.  This is
 * the same, for the sites the other evidence placed weakly or not at all,
 * and for every flip: the newest revision of the file in which the
 * profile's line is an annotation of the profile's function (and points
 * the profile's way, when the profile says) is taken as the profiled one,
 * and `git diff -U0` from it to the working tree carries the line
 * forward.  A line inside a changed hunk changed since: it is not mapped,
 * and a flip of it is refused.  Only git is run, with fixed arguments and
 * no shell; what it prints is parsed as text.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/series.h"
#include "fix/tree.h"
#include "fold.h"
#include "ktable.h"
#include "usage.h"

/* How many revisions of a file are read at most, newest first. */
#define LP_HISTORY_MAX 200

int lp_tree_is_git(struct lp_tree *t)
{
	static const char *const q[] = {
		"rev-parse", "--is-inside-work-tree", NULL
	};
	char *out;

	if (t->git < 0) {
		out = lp_git_output(t->real, q);
		t->git = out && !strncmp(out, "true", 4);
		free(out);
	}
	return t->git;
}

/* The file's revisions, newest first, one hash a line; cached. */
static const char *revisions(struct lp_tree *t, struct lp_srcfile *f)
{
	char max[32];
	const char *q[] = {
		"log", "--format=%H", max, "--", f->rel, NULL
	};

	if (!f->revs) {
		snprintf(max, sizeof(max), "-n%d", LP_HISTORY_MAX);
		f->revs = lp_git_output(t->real, q);
		if (!f->revs)
			f->revs = lp_xstrdup("");
	}
	return f->revs;
}

/*
 * Is @p's line an annotation of its function in @old (the file at some
 * revision)?  One that points the other way does not count: that is
 * what a flip since would look like.
 */
static int holds_site(struct lp_tree *t, struct lp_srcfile *old,
		      const struct lp_judged *p, int kernel)
{
	struct lp_slots S = { NULL, 0, 0 };
	int readable = lp_profile_name_readable(p->func), n = 0;
	size_t i;

	for (i = 0; i < old->nfuncs; i++)
		if (!readable || lp_func_name_is(t, old, &old->funcs[i],
						 p->func, kernel) >=
				 LP_NAME_PREFIXED)
			lp_function_slots(t, old, &old->funcs[i], &S);
	for (i = 0; i < S.nr; i++) {
		const struct lp_slot *s = &S.v[i];

		if (s->call_file != old || p->line < s->lo || p->line > s->hi)
			continue;
		if (p->expect != LP_EXPECT_UNKNOWN &&
		    s->expect != LP_EXPECT_UNKNOWN && s->expect != p->expect)
			continue;
		if (lp_cond_compare(t, p->cond, s->cond) == LP_COND_DIFFERENT)
			continue;
		n++;
	}
	lp_slots_release(&S);
	return n == 1;
}

/* Reads @f as it was at @rev into @old; 0 on success. */
static int load_revision(struct lp_tree *t, struct lp_srcfile *f,
			 const char *rev, struct lp_srcfile *old)
{
	char *spec = lp_xstrfmt("%s:./%s", rev, f->rel);
	const char *q[] = { "show", spec, NULL };
	char *text = lp_git_output(t->real, q);

	free(spec);
	memset(old, 0, sizeof(*old));
	if (!text)
		return -1;
	old->rel = f->rel;
	old->buf = text;
	old->len = strlen(text);
	lp_lex(&old->lx, old->buf, old->len);
	lp_find_functions(old);
	old->loaded = 1;
	return 0;
}

static void release_revision(struct lp_srcfile *old)
{
	old->rel = NULL;
	lp_srcfile_unload(old);
}

/*
 * Maps @line of revision @rev to the working tree through `git diff
 * -U0`.  @return : the line now, or 0 when a hunk changed it.
 */
static unsigned map_forward(struct lp_tree *t, struct lp_srcfile *f,
			    const char *rev, unsigned line)
{
	const char *q[] = {
		"diff", "-U0", "--no-color", "--no-ext-diff", rev, "--",
		f->rel, NULL
	};
	char *out = lp_git_output(t->real, q), *s;
	long shift = 0;

	if (!out)
		return 0;
	for (s = out; (s = strstr(s, "\n@@ -")); s++) {
		unsigned long a, b = 1, c, d = 1;
		char *e = s + 5;

		a = strtoul(e, &e, 10);
		if (*e == ',')
			b = strtoul(e + 1, &e, 10);
		if (strncmp(e, " +", 2))
			continue;
		c = strtoul(e + 2, &e, 10);
		if (*e == ',')
			d = strtoul(e + 1, &e, 10);
		(void)c;
		if (!b) {
			/* inserted after line a */
			if (a < line)
				shift += (long)d;
			continue;
		}
		if (line >= a && line < a + b) {
			free(out);
			return 0;
		}
		if (a + b <= line)
			shift += (long)d - (long)b;
	}
	free(out);
	return (unsigned)((long)line + shift);
}

static char *short_rev(struct lp_tree *t, const char *rev)
{
	const char *q[] = { "log", "-n1", "--format=%h (\"%s\")", rev, NULL };
	char *out = lp_git_output(t->real, q);
	size_t n = out ? strcspn(out, "\n") : 0;

	if (!out || !n) {
		free(out);
		return lp_xstrfmt("%.12s", rev);
	}
	out[n] = '\0';
	return out;
}

int lp_history_place(struct lp_tree *t, struct lp_srcfile *f,
		     const struct lp_judged *p, int kernel,
		     unsigned *slot_line, char **changed)
{
	const char *revs = revisions(t, f), *r;
	char rev[64];

	*changed = NULL;
	for (r = revs; *r;) {
		size_t n = strcspn(r, "\n");
		struct lp_srcfile old;
		int hit;

		if (n >= sizeof(rev) || !n)
			break;
		memcpy(rev, r, n);
		rev[n] = '\0';
		r += n + (r[n] == '\n');
		if (load_revision(t, f, rev, &old))
			continue;
		hit = holds_site(t, &old, p, kernel);
		release_revision(&old);
		if (!hit)
			continue;
		*slot_line = map_forward(t, f, rev, (unsigned)p->line);
		if (*slot_line)
			return 1;
		r = short_rev(t, rev);
		*changed = lp_xstrfmt("line %ld of '%s' changed since %s, "
				      "where the profile's annotation was",
				      p->line, f->rel, r);
		free((char *)r);
		return 0;
	}
	return 0;
}

/*
 * The messages of the tree's recent commits, each after a \001 and its
 * "abbrev ("subject")" line; read once.
 */
static const char *messages(struct lp_tree *t)
{
	char max[32];
	const char *q[] = {
		"log", max, "--format=%x01%h (\"%s\")%n%B", NULL
	};

	if (!t->messages) {
		snprintf(max, sizeof(max), "-n%d", 5 * LP_HISTORY_MAX);
		t->messages = lp_git_output(t->real, q);
		if (!t->messages)
			t->messages = lp_xstrdup("");
	}
	return t->messages;
}

char *lp_history_quoted(struct lp_tree *t, const struct lp_judged *p)
{
	const char *all, *hit = NULL, *head;
	char row[LP_KERNEL_ROW_MAX];
	size_t i, n;

	if (!lp_tree_is_git(t) || !p->nrows)
		return NULL;
	all = messages(t);
	for (i = 0; i < p->nrows && !hit; i++) {
		n = lp_kernel_row(row, p->rows[i].row);
		if (n && row[n - 1] == '\n')
			row[--n] = '\0';
		for (hit = strstr(all, row); hit; hit = strstr(hit + 1, row))
			if ((hit == all || hit[-1] == '\n') &&
			    (hit[n] == '\n' || !hit[n]))
				break;  /* a whole line of a message */
	}
	if (!hit)
		return NULL;
	for (head = hit; head > all && head[-1] != '\001'; head--)
		;
	return lp_xstrfmt("%.*s", (int)strcspn(head, "\n"), head);
}

/* Are @a and @b the same line but for @name in one and @other in the other? */
static int swapped(const char *a, const char *b, const char *name,
		   const char *other)
{
	struct lp_lexed la = LP_LEXED_INIT, lb = LP_LEXED_INIT;
	size_t i, diff = 0;
	int ok;

	lp_lex(&la, a, strlen(a));
	lp_lex(&lb, b, strlen(b));
	ok = la.nr == lb.nr;
	for (i = 0; ok && i < la.nr; i++) {
		size_t n = la.tok[i].end - la.tok[i].start;

		if (n == lb.tok[i].end - lb.tok[i].start &&
		    !memcmp(a + la.tok[i].start, b + lb.tok[i].start, n))
			continue;
		diff++;
		ok = (lp_tok_is(&la, i, name) && lp_tok_is(&lb, i, other)) ||
		     (lp_tok_is(&la, i, other) && lp_tok_is(&lb, i, name));
	}
	lp_lexed_release(&la);
	lp_lexed_release(&lb);
	return ok && diff == 1;
}

char *lp_history_flipped(struct lp_tree *t, const struct lp_srcfile *f,
			 unsigned line, const char *name, const char *other)
{
	char range[64];
	const char *q[] = {
		"log", "-n1", "--format=%x01%h (\"%s\")", range, NULL
	};
	char *out, *minus = NULL, *plus = NULL, *s, *why = NULL;
	int nminus = 0, nplus = 0;

	if (!other || !lp_tree_is_git(t) ||
	    (size_t)snprintf(range, sizeof(range), "-L%u,%u:", line, line) >=
	    sizeof(range))
		return NULL;
	s = lp_xstrfmt("%s%s", range, f->rel);
	q[3] = s;
	out = lp_git_output(t->real, q);
	free(s);
	for (s = out; s && (s = strchr(s, '\n')); ) {
		char *l = ++s, *e = strchr(l, '\n');

		if (e)
			*e = '\0';
		if (l[0] == '-' && strncmp(l, "---", 3)) {
			nminus++;
			minus = l + 1;
		} else if (l[0] == '+' && strncmp(l, "+++", 3)) {
			nplus++;
			plus = l + 1;
		}
		if (!e)
			break;
		*e = '\n';
		s = e;
	}
	if (out && nminus == 1 && nplus == 1) {
		char *m = lp_xstrfmt("%.*s", (int)strcspn(minus, "\n"), minus);
		char *p = lp_xstrfmt("%.*s", (int)strcspn(plus, "\n"), plus);

		if (swapped(m, p, name, other))
			why = lp_xstrfmt("%.*s", (int)strcspn(out + 1, "\n"),
					 out + 1);
		free(m);
		free(p);
	}
	free(out);
	return why;
}
