/*
 * cases.c - C++20 [[likely]]/[[unlikely]] on case and default labels,
 * counted at their switch's dispatch
 *
 * `case 3: [[likely]]` says that the switch goes to that statement more
 * often than not: a hint on the dispatch, not on a condition the source
 * writes.  The copy cc compiles (edits.c) evaluates the switch's value
 * once at its head, tests it against the labels of each attributed
 * statement, and switches on it:
 *
 *   switch (op) {                 switch (__extension__ ({ lp__auto
 *   case 1: case 2: [[likely]]      lp__sw = (op); (void)lp__expect_case(
 *   ...                             "case 1: case 2", 7, !!(lp__sw == (1)
 *                                   || lp__sw == (2)), 1); lp__sw; })) {
 *
 * all on the head's lines, its own text in place.  lp__expect_case
 * (likelyprof.h) is a counted __builtin_expect that records the text
 * and line it is given: the label's, where the attribute stands, so that
 * check and fix find the site where the user wrote it, though the test
 * runs at the head.  A statement's labels are one site (`default`
 * matches when no case of the switch does), and fallthrough into it is
 * not counted as going there: the hint is about the dispatch.  A case
 * label belongs to the innermost switch around it, however deep in that
 * switch's blocks.
 *
 * The attribute itself stays in the copy, so that the instrumented build
 * lays the switch out as the user's does.  Left as they are, with the
 * reason in cc's note: a statement with two attributes, and a default whose "no case matched" cannot be told
 * from the text (a #define among the labels, an #if group the switch
 * ends inside, a macro that may write labels).  #if groups among the
 * labels are written again around the default's tests of the labels
 * they hold, with a #line after them that gives the lines their numbers
 * back (default_test_grouped()).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cc/attr.h"
#include "cc/attrmacro.h"
#include "cc/cases.h"
#include "cc/edits.h"
#include "cc/stmt.h"
#include "fix/lexer.h"
#include "fix/tree.h"
#include "usage.h"

#define NONE LP_NO_MATCH

struct label {
	size_t start;           /* its `case` or `default` */
	size_t colon;           /* its ':' */
	size_t dots;            /* a GNU range's `...`, or NONE */
	int is_default;
};

/* One switch of the source and its own labels. */
struct sw {
	const struct lp_lexed *lx;
	struct lp_attr_mark *m;
	size_t nm;
	size_t head, open, close;       /* `switch`, its '(' and ')' */
	struct lp_stmt_cond cond;       /* what it switches on */
	struct label *v;
	size_t nr;
	size_t *dirs;           /* the '#' of each #if, #else... among them */
	size_t ndirs;
	int depth;              /* of those groups; below 0: one ends out */
	unsigned line;          /* the file's line where the head's edit ends */
	const char *why;        /* why its condition cannot be wrapped */
	const char *no_default; /* why a default cannot be told */
	char *calls;            /* the tests for the head, or NULL */
};

/* A growing string: what the head's edit says. */
static void append(char **s, const char *add)
{
	size_t n = *s ? strlen(*s) : 0;

	*s = lp_xrealloc(*s, n + strlen(add) + 1);
	memcpy(*s + n, add, strlen(add) + 1);
}

static void append_tokens(char **s, const struct lp_lexed *lx, size_t from,
			  size_t to)
{
	char *t = lp_tok_text(lx, from, to);

	append(s, t);
	free(t);
}

/*
 * The ':' that ends the label whose `case` is token @i (the first at
 * its depth that closes no `?`: `case ns::k:`, `case a ? 1 : 2:`), or
 * NONE; a GNU range's `...` into *@dots.
 */
static size_t label_colon(const struct lp_lexed *lx, size_t i, size_t *dots)
{
	size_t t;
	unsigned q = 0;

	*dots = NONE;
	for (t = i + 1; t < lx->nr; t = lp_stmt_next_top(lx, t)) {
		if (lp_stmt_skipped(lx, t) || lp_stmt_is(lx, t, ";") ||
		    lp_stmt_is(lx, t, "{") || lp_stmt_is(lx, t, "}") ||
		    lp_stmt_is(lx, t, ")") || lp_stmt_is(lx, t, "]"))
			return NONE;
		if (lp_stmt_is(lx, t, "?"))
			q++;
		else if (lp_stmt_is(lx, t, ":") && !q--)
			return t;
		else if (lp_stmt_is(lx, t, "..."))
			*dots = t;
	}
	return NONE;
}

/*
 * `NAME(...)` at the start of a statement and followed by what starts
 * one (`CASE(1) return x;`, `CASE(2):`): a macro that may write a label
 * this reading cannot see.
 */
static int may_write_labels(const struct lp_lexed *lx, size_t t)
{
	size_t close, next;

	if (t == 0 || !lp_tok_macro_like(lx, t) ||
	    !lp_stmt_is(lx, t + 1, "(") ||
	    (close = lx->tok[t + 1].match) == NONE || close + 1 >= lx->nr)
		return 0;
	if (!lp_stmt_is(lx, t - 1, ";") && !lp_stmt_is(lx, t - 1, "{") &&
	    !lp_stmt_is(lx, t - 1, "}") && !lp_stmt_is(lx, t - 1, ":"))
		return 0;
	next = close + 1;
	return lp_stmt_is(lx, next, ":") || lp_stmt_is(lx, next, "{") ||
	       lx->tok[next].kind == LP_TOK_IDENT;
}

/* A '(' or '[' at @t: what it holds is no label of ours. */
static int opens_no_label(const struct lp_lexed *lx, size_t t)
{
	size_t m = lx->tok[t].match;

	return (lp_stmt_is(lx, t, "(") || lp_stmt_is(lx, t, "[")) &&
	       m != NONE && m > t;
}

static void push_label(struct sw *s, size_t start, size_t colon,
		       size_t dots, int is_default)
{
	struct label *l;

	s->v = lp_xrealloc(s->v, (s->nr + 1) * sizeof(*s->v));
	l = &s->v[s->nr++];
	l->start = start;
	l->colon = colon;
	l->dots = dots;
	l->is_default = is_default;
}

/* Token @t is the '#' of a line marker: `# 12 "h.h"`, `#line 12`. */
static int is_marker(const struct lp_lexed *lx, size_t t)
{
	return (lx->tok[t].flags & LP_TOKF_DIRECTIVE) && t + 1 < lx->nr &&
	       lx->tok[t + 1].dir == t &&
	       (lx->tok[t + 1].kind == LP_TOK_NUMBER ||
		lp_tok_is(lx, t + 1, "line"));
}

/*
 * The file's number of the lexer's line @line, at or after token @t:
 * counted from the nearest line marker before @t (an expanded unit's
 * `# 12 "h.h"`, a source's own #line), else the lexer's own; 0 where
 * that marker cannot be read.
 */
static unsigned file_line(const struct lp_lexed *lx, size_t t,
			  unsigned line)
{
	const char *at, *eol;
	struct lp_cc_marker m;

	while (t-- > 0) {
		if (!is_marker(lx, t))
			continue;
		at = lx->buf + lx->tok[t].start;
		eol = memchr(at, '\n', lx->len - lx->tok[t].start);
		if (!lp_cc_line_marker(at, eol ? eol : lx->buf + lx->len, &m))
			return 0;
		return m.line + line - lx->tok[t].line - 1;
	}
	return line;
}

/*
 * How many lines the attribute at token @mark stands below the line
 * where the head's edit ends (token @end): the lexer's count, but where
 * a line marker stands between (clang's, around what its #if left out
 * of an expanded unit), the file's.
 */
static unsigned lines_below(const struct lp_lexed *lx, size_t end,
			    size_t mark)
{
	unsigned below = lx->tok[mark].line - lx->tok[end].last_line;
	size_t t;

	for (t = end + 1; t < mark; t++)
		if (is_marker(lx, t))
			return file_line(lx, mark, lx->tok[mark].line) -
			       file_line(lx, end, lx->tok[end].last_line);
	return below;
}

static const char *const conditionals[] = {
	"if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else",
	"endif"
};

/*
 * The directive whose '#' is token @t, among the labels: a conditional
 * is kept, to be written again around the default's tests of the labels
 * it holds (an #ifdef may take a case away); any other (a #define that
 * a label may use) leaves the default unknown.
 */
static void note_directive(struct sw *s, size_t t)
{
	const struct lp_lexed *lx = s->lx;
	size_t name = t + 1;

	/* a line marker of an expanded unit (clang's around what its #if
	 * left out) says nothing of the labels */
	if (is_marker(lx, t))
		return;
	if (name >= lx->nr || lx->tok[name].dir != t ||
	    !lp_tok_is_any(lx, name, conditionals,
			   sizeof(conditionals) / sizeof(conditionals[0]))) {
		s->no_default = "a directive other than #if, #else or #endif "
				"among its switch's labels";
		return;
	}
	if (lp_tok_is(lx, name, "if") || lp_tok_is(lx, name, "ifdef") ||
	    lp_tok_is(lx, name, "ifndef"))
		s->depth++;
	else if (s->depth <= 0)
		s->depth = -1;  /* opened before the switch: never undone */
	else if (lp_tok_is(lx, name, "endif"))
		s->depth--;
	s->dirs = lp_xrealloc(s->dirs, (s->ndirs + 1) * sizeof(*s->dirs));
	s->dirs[s->ndirs++] = t;
}

/*
 * The labels of the switch's body, tokens [from, to]: not those of a
 * switch inside it, nor any inside parentheses or brackets (no label is
 * there; a _Generic's default is).  @return : 0, or -1 where a label or
 * a nested switch cannot be read.
 */
static int find_labels(struct sw *s, size_t from, size_t to)
{
	const struct lp_lexed *lx = s->lx;
	size_t t = from, colon, dots, end;

	while (t <= to) {
		const struct lp_token *k = &lx->tok[t];

		if (k->flags & LP_TOKF_DIRECTIVE)
			note_directive(s, t);
		if (lp_stmt_skipped(lx, t)) {
			t++;
		} else if (lp_stmt_is(lx, t, "switch")) {
			if ((end = lp_stmt_end(lx, t)) == NONE)
				return -1;
			t = end + 1;
		} else if (lp_stmt_is(lx, t, "case")) {
			if ((colon = label_colon(lx, t, &dots)) == NONE)
				return -1;
			push_label(s, t, colon, dots, 0);
			t = colon + 1;
		} else if (lp_stmt_is(lx, t, "default") &&
			   lp_stmt_is(lx, t + 1, ":")) {
			push_label(s, t, t + 1, NONE, 1);
			t += 2;
		} else {
			if (may_write_labels(lx, t))
				s->no_default = "a macro among its switch's "
						"statements may write labels";
			t = opens_no_label(lx, t) ? k->match + 1 : t + 1;
		}
	}
	return 0;
}

/* Label @b follows label @a with only an attribute, if any, between. */
static int same_statement(const struct sw *s, const struct label *a,
			  const struct label *b)
{
	const struct lp_attr_mark *m = lp_attr_mark_at(s->m, s->nm,
						       a->colon + 1);

	return b->start == a->colon + 1 ||
	       (m && !m->funclike && b->start == m->last + 1);
}

/* `lp__sw == (X)`, or a GNU range's pair of compares, into *@out. */
static void case_test(const struct sw *s, const struct label *l, char **out)
{
	if (l->dots == NONE) {
		append(out, "lp__sw == (");
		append_tokens(out, s->lx, l->start + 1, l->colon);
		append(out, ")");
		return;
	}
	append(out, "(lp__sw >= (");
	append_tokens(out, s->lx, l->start + 1, l->dots);
	append(out, ") && lp__sw <= (");
	append_tokens(out, s->lx, l->dots + 1, l->colon);
	append(out, "))");
}

/* The directive at token @d as the source writes it, on a line of its own. */
static void append_directive(char **out, const struct lp_lexed *lx, size_t d)
{
	size_t last = d, t;
	char *text;

	for (t = d + 1; t < lx->nr && (lx->tok[t].flags & LP_TOKF_PP) &&
	     lx->tok[t].dir == d; t++)
		last = t;
	text = lp_tok_text(lx, d, last + 1);
	append(out, "\n");
	append(out, text);
	append(out, "\n");
	free(text);
}

/*
 * No case matched, with #if groups among the labels: the groups written
 * again around the tests of the labels they hold, `!(t1 ||\n#ifdef X\n
 * t2 ||\n#endif\n#line N\n0)`, the #line giving the lines after it
 * their numbers back.
 */
static void default_test_grouped(const struct sw *s, char **out)
{
	size_t k = 0, d = 0;
	char line[32];

	append(out, "!(");
	while (k < s->nr || d < s->ndirs) {
		if (d < s->ndirs &&
		    (k == s->nr || s->dirs[d] < s->v[k].start)) {
			append_directive(out, s->lx, s->dirs[d++]);
			continue;
		}
		if (!s->v[k].is_default) {
			case_test(s, &s->v[k], out);
			append(out, " || ");
		}
		k++;
	}
	snprintf(line, sizeof(line), "\n#line %u\n0)", s->line);
	append(out, line);
}

/* No case of the switch matched: `!(t1 || t2 ...)`, or 1 with none. */
static void default_test(const struct sw *s, char **out)
{
	size_t k, n = 0;

	if (s->ndirs) {
		default_test_grouped(s, out);
		return;
	}
	for (k = 0; k < s->nr; k++) {
		if (s->v[k].is_default)
			continue;
		append(out, n++ ? " || " : "!(");
		case_test(s, &s->v[k], out);
	}
	append(out, n ? ")" : "1");
}

/* The labels [a, b] as a C string literal, for the record's text. */
static void append_quoted(char **out, const struct sw *s, size_t a, size_t b)
{
	char *text = lp_tok_text(s->lx, s->v[a].start, s->v[b].colon), *c;
	char one[3] = { 0, 0, 0 };

	append(out, "\"");
	for (c = text; *c; c++) {
		one[0] = *c == '"' || *c == '\\' ? '\\' : *c == '\n' ? ' ' : *c;
		one[1] = *c == '"' || *c == '\\' ? *c : '\0';
		append(out, one);
	}
	append(out, "\"");
	free(text);
}

/* The counted test of the statement labelled [a, b], for the head. */
static void add_call(struct sw *s, size_t a, size_t b,
		     const struct lp_attr_mark *mark)
{
	const struct lp_lexed *lx = s->lx;
	size_t k;
	char line[48];

	append(&s->calls, " (void)lp__expect_case(");
	append_quoted(&s->calls, s, a, b);
	/*
	 * The label's line as an offset from the head's, where the test
	 * lands: in a unit whose includes are expanded (expand.c), the
	 * lexer's line is not the file's, but the distance is the same.
	 */
	snprintf(line, sizeof(line), ", __LINE__ + %u, !!(",
		 lines_below(lx, s->close - 1, mark->tok));
	append(&s->calls, line);
	for (k = a; k <= b; k++) {
		if (k > a)
			append(&s->calls, " || ");
		if (s->v[k].is_default)
			default_test(s, &s->calls);
		else
			case_test(s, &s->v[k], &s->calls);
	}
	append(&s->calls, mark->likely ? "), 1);" : "), 0);");
}

static void add_site(const struct sw *s, size_t a, size_t b,
		     const struct lp_attr_mark *mark,
		     struct lp_attr_site **sites, size_t *n)
{
	struct lp_attr_site *site;

	*sites = lp_xrealloc(*sites, (*n + 2) * sizeof(**sites));
	site = &(*sites)[(*n)++];
	memset(site, 0, sizeof(*site));
	site->stmt = mark->tok < s->v[a].start ? mark->tok : s->v[a].start;
	site->from = s->v[a].start;
	site->to = s->v[b].colon;
	site->then = mark->tok;
	site->then_last = mark->last;
	site->other = site->other_last = NONE;
	site->open = NONE;
	site->expect = mark->likely;
	site->lo = site->hi = s->lx->tok[mark->tok].line;
	site->label = 1;
}

/*
 * The one undecided mark on the statement labelled [a, b] (before any
 * of its labels or after the last), or NULL; *@more when there are two.
 */
static struct lp_attr_mark *group_mark(const struct sw *s, size_t a,
				       size_t b, int *more)
{
	struct lp_attr_mark *found = NULL, *m;
	size_t k;

	*more = 0;
	for (k = a; k <= b + 1; k++) {
		if (k <= b)
			m = lp_attr_mark_before(s->m, s->nm, s->v[k].start);
		else
			m = lp_attr_mark_at(s->m, s->nm, s->v[b].colon + 1);
		if (!m || m->why || m->funclike)
			continue;
		if (found)
			m->why = "two attributes on one statement's labels";
		*more |= found != NULL;
		if (!found)
			found = m;
	}
	return found;
}

/* Decides the statement labelled [a, b]. */
static void plan_group(struct sw *s, size_t a, size_t b,
		       struct lp_attr_site **sites, size_t *nsites)
{
	struct lp_attr_mark *mark;
	const char *why = s->why;
	size_t k;
	int more;

	if (!(mark = group_mark(s, a, b, &more)))
		return;
	for (k = a; k <= b && !why; k++)
		if (s->v[k].is_default)
			why = s->no_default;
	if (!why && more)
		why = "two attributes on one statement's labels";
	mark->why = why ? why : "";
	if (why)
		return;
	mark->on_label = 1;
	add_call(s, a, b, mark);
	if (sites)
		add_site(s, a, b, mark, sites, nsites);
}

/*
 * The head's edits: the value evaluated once, tested, switched on; a
 * declaration's name after it (`switch (T x = e; ({ ... = (x); ...}))`),
 * in a switch of its own after an init-statement.
 */
static void add_edits(const struct sw *s, struct lp_copy_edits *e)
{
	const struct lp_lexed *lx = s->lx;
	const struct lp_stmt_cond *c = &s->cond;
	static const char head[] = "__extension__ ({ lp__auto lp__sw = (";
	char *tail = NULL, *name;

	if (c->init != NONE) {
		/* `if (i; true) switch (T x = e; ...)`: one init only */
		const struct lp_token *k = &lx->tok[s->head];

		lp_copy_edit_add(e, k->start, k->end - k->start, "if");
		lp_copy_edit_add(e, lx->tok[c->from].start, 0,
				 "true) switch (");
	}
	if (c->name != NONE) {
		name = lp_tok_dup(lx, c->name);
		append(&tail, "; ");
		append(&tail, head);
		append(&tail, name);
		free(name);
	} else {
		lp_copy_edit_add(e, lx->tok[c->from].start, 0, head);
	}
	append(&tail, ");");
	append(&tail, s->calls);
	append(&tail, " lp__sw; })");
	lp_copy_edit_add_owned(e, lx->tok[c->to].end, 0, tail);
}

/* The switch at token @i. */
static void plan_switch(struct sw *s, struct lp_copy_edits *e,
			struct lp_attr_site **sites, size_t *nsites)
{
	const struct lp_lexed *lx = s->lx;
	size_t end, a, b;

	if (!lp_stmt_is(lx, s->head + 1, "(") ||
	    (s->close = lx->tok[s->head + 1].match) == NONE ||
	    (end = lp_stmt_end(lx, s->head)) == NONE)
		return;
	s->open = s->head + 1;
	lp_stmt_condition(lx, s->open + 1, s->close - 1, &s->cond);
	s->why = s->cond.why;
	if (find_labels(s, s->close + 1, end))
		return;
	if (s->ndirs && !s->no_default) {
		/* the #line after the groups: the head's edit ends there */
		s->line = file_line(lx, s->cond.to,
				    lx->tok[s->cond.to].last_line);
		if (s->depth)
			s->no_default = "an #if group among its switch's "
					"labels that opens or ends outside it";
		else if (!s->line)
			s->no_default = "a line marker before its switch "
					"that cannot be read";
	}
	for (a = 0; a < s->nr; a = b + 1) {
		for (b = a; b + 1 < s->nr &&
		     same_statement(s, &s->v[b], &s->v[b + 1]); b++)
			;
		plan_group(s, a, b, sites, nsites);
	}
	if (s->calls && e)
		add_edits(s, e);
}

void lp_case_plan(const struct lp_lexed *lx, struct lp_attr_mark *m,
		  size_t n, struct lp_copy_edits *e,
		  struct lp_attr_site **sites, size_t *nsites)
{
	size_t i;

	for (i = 0; i < lx->nr && n; i++) {
		struct sw s;

		if (lp_stmt_skipped(lx, i) || !lp_stmt_is(lx, i, "switch"))
			continue;
		memset(&s, 0, sizeof(s));
		s.lx = lx;
		s.m = m;
		s.nm = n;
		s.head = i;
		plan_switch(&s, e, sites, nsites);
		free(s.v);
		free(s.dirs);
		free(s.calls);
	}
}
