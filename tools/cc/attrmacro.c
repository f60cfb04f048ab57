/*
 * attrmacro.c - [[likely]]/[[unlikely]] spelled by a macro
 *
 * Code that must build before C++20 spells the attribute through a
 * macro that a test of the compiler defines, and defines empty where the
 * attribute is missing:
 *
 *   #if __has_cpp_attribute(unlikely)
 *   #define UNLIKELY [[unlikely]]         if (c) UNLIKELY { ... }
 *   #else
 *   #define UNLIKELY
 *   #endif
 *
 * or `#define UNLIKELY(...) (__VA_ARGS__) [[unlikely]]` for `if
 * UNLIKELY(c)`.  Which definition holds is the compiler's to say (its
 * version, -std, the project's own configuration), and a header may
 * #undef the name after its last use.  So the names are read from the
 * definitions, but a use counts only where the compiler's preprocessed
 * unit holds the attribute on the use's own line: cc prints the unit
 * with -E, and this file reads its line markers for the file and line of
 * each attribute outside the system's headers.  A line must hold as many
 * attributes there as the source writes on it (literally or through a
 * name), in the same order; else its uses are not counted, and cc's note
 * says so.  A use on a line where the compiler put none is no hint in
 * this build, and nothing is counted there.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "cc/attrmacro.h"
#include "fix/lexer.h"
#include "usage.h"

int lp_attr_is_hint(const struct lp_lexed *lx, size_t i)
{
	if (i + 4 >= lx->nr || !lp_tok_is(lx, i, "[") ||
	    !lp_tok_is(lx, i + 1, "[") || !lp_tok_is(lx, i + 3, "]") ||
	    !lp_tok_is(lx, i + 4, "]"))
		return -1;
	if (lp_tok_is(lx, i + 2, "likely"))
		return 1;
	return lp_tok_is(lx, i + 2, "unlikely") ? 0 : -1;
}

/* Tokens @a and @b of @lx are spelled alike. */
static int same_word(const struct lp_lexed *lx, size_t a, size_t b)
{
	size_t n = lx->tok[a].end - lx->tok[a].start;

	return n == lx->tok[b].end - lx->tok[b].start &&
	       !memcmp(lx->buf + lx->tok[a].start, lx->buf + lx->tok[b].start,
		       n);
}

/*
 * The attribute the #define at @dir spells (1 [[likely]], 0
 * [[unlikely]]), in either form of the top, or -1; its name's token into
 * *@name, the form into *@funclike.
 */
static int attr_define(const struct lp_lexed *lx, size_t dir, size_t *name,
		       int *funclike)
{
	struct lp_define d;
	size_t b;

	if (!lp_parse_define(lx, dir, &d))
		return -1;
	*name = d.name;
	*funclike = d.funclike;
	b = d.body;
	if (!d.funclike)
		return d.end == b + 5 ? lp_attr_is_hint(lx, b) : -1;
	/* (P) [[x]], P its one parameter */
	if (d.nparams != 1 || d.end != b + 8 || !lp_tok_is(lx, b, "(") ||
	    lx->tok[b].match != b + 2)
		return -1;
	if (lp_tok_is(lx, d.params + 1, "...") ?
	    !lp_tok_is(lx, b + 1, "__VA_ARGS__") :
	    !same_word(lx, b + 1, d.params + 1))
		return -1;
	return lp_attr_is_hint(lx, b + 3);
}

/* The macro of @m named by token @i of @lx, or NULL. */
static const struct lp_attr_macro *named(const struct lp_attr_macros *m,
					 const struct lp_lexed *lx, size_t i)
{
	size_t k, n = lx->tok[i].end - lx->tok[i].start;

	for (k = 0; k < m->nr; k++)
		if (strlen(m->v[k].name) == n &&
		    !memcmp(m->v[k].name, lx->buf + lx->tok[i].start, n))
			return &m->v[k];
	return NULL;
}

/*
 * The macro of token @name's spelling, added to @m with its definition's
 * form and way if new; one name, one reading: a second form or way
 * makes it unsure (likely -1).
 */
static struct lp_attr_macro *add_name(struct lp_attr_macros *m,
				      const struct lp_lexed *lx, size_t name,
				      int funclike, int likely)
{
	struct lp_attr_macro *add = (struct lp_attr_macro *)named(m, lx, name);

	if (add) {
		if (add->funclike != funclike || add->likely != likely)
			add->likely = -1;
		return add;
	}
	m->v = lp_xrealloc(m->v, (m->nr + 1) * sizeof(*m->v));
	add = &m->v[m->nr++];
	add->name = lp_tok_dup(lx, name);
	add->funclike = funclike;
	add->likely = likely;
	add->live = 0;
	return add;
}

size_t lp_attr_macros_collect(struct lp_attr_macros *m,
			      const struct lp_lexed *lx)
{
	size_t i, name;
	int funclike, likely;

	for (i = 0; i < lx->nr; i++)
		if ((lx->tok[i].flags & LP_TOKF_DIRECTIVE) &&
		    (likely = attr_define(lx, i, &name, &funclike)) >= 0)
			add_name(m, lx, name, funclike, likely);
	return m->nr;
}

int lp_attr_macro_defines_hint(const struct lp_attr_macros *m,
			       const struct lp_lexed *lx, size_t dir)
{
	size_t name;
	int funclike;

	return m && (m->resolved || m->from_tree) &&
	       attr_define(lx, dir, &name, &funclike) >= 0 &&
	       named(m, lx, name);
}

int lp_attr_macro_in_body(const struct lp_attr_macros *m,
			  const struct lp_lexed *lx, size_t i)
{
	struct lp_define d;
	size_t dir = lx->tok[i].dir;
	const struct lp_attr_macro *mac;

	/* a name this build defines as nothing spells nothing in a body */
	return m && (m->resolved || m->from_tree) &&
	       (lx->tok[i].flags & LP_TOKF_PP) &&
	       lx->tok[i].kind == LP_TOK_IDENT && (mac = named(m, lx, i)) &&
	       (mac->live || m->from_tree) &&
	       lp_parse_define(lx, dir, &d) && i >= d.body && i < d.end &&
	       !lp_attr_macro_defines_hint(m, lx, dir);
}

/* --- the compiler's text ------------------------------------------------ */

/*
 * A line marker at @s (up to @end): `# 12 "f" 1 3`, `#line 12 "f"`.
 * Its number into *@line, the name between its quotes into [*@file,
 * *@file + *@flen) (*@flen 0 without one), whether its flags hold 3
 * into *@system.  @return : 0 when the line is none.
 */
static int marker(const char *s, const char *end, unsigned *line,
		  const char **file, size_t *flen, int *system)
{
	const char *p = s + 1, *q;

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (end - p > 4 && !strncmp(p, "line", 4))
		p += 4;
	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	if (p == end || *p < '0' || *p > '9')
		return 0;
	for (*line = 0; p < end && *p >= '0' && *p <= '9'; p++)
		*line = *line * 10 + (unsigned)(*p - '0');
	while (p < end && *p == ' ')
		p++;
	*system = 0;
	*flen = 0;
	if (p == end || *p != '"')
		return 1;
	for (q = p + 1; q < end && *q != '"'; q++)
		q += *q == '\\';
	*file = p + 1;
	*flen = (size_t)(q - p - 1);
	for (q++; q < end; q++)
		if (*q == '3' && q[-1] == ' ' &&
		    (q + 1 == end || q[1] == ' ' || q[1] == '\r' ||
		     q[1] == '\n'))
			*system = 1;
	return 1;
}

int lp_cc_line_marker(const char *s, const char *end, struct lp_cc_marker *m)
{
	return marker(s, end, &m->line, &m->file, &m->flen, &m->system);
}

static const char *spot_file(const struct lp_attr_macros *m, const char *s,
			     size_t n);

void lp_cc_skip_dot_slash(const char **s, size_t *n)
{
	while (*n > 2 && (*s)[0] == '.' && (*s)[1] == '/') {
		*s += 2;
		*n -= 2;
	}
}

/* @m's name of file [@s, @s + @n), added if new. */
static const char *file_name(struct lp_attr_macros *m, const char *s,
			     size_t n)
{
	const char *have;

	lp_cc_skip_dot_slash(&s, &n);
	have = spot_file(m, s, n);
	if (have)
		return have;
	m->files = lp_xrealloc(m->files, (m->nfiles + 1) * sizeof(*m->files));
	m->files[m->nfiles] = lp_xstrfmt("%.*s", (int)n, s);
	return m->files[m->nfiles++];
}

/*
 * A definition the compiler kept (-dD): its name spells one here, though
 * a header of the system's may be what defines it.
 */
static void live_define(struct lp_attr_macros *m, const char *s, size_t n)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	size_t name;
	int funclike, likely;

	lp_lex(&lx, s, n);
	if ((likely = attr_define(&lx, 0, &name, &funclike)) >= 0)
		add_name(m, &lx, name, funclike, likely)->live = 1;
	lp_lexed_release(&lx);
}

/* The attributes of one line of the compiler's text, as spots. */
static void line_spots(struct lp_attr_macros *m, const char *s, size_t n,
		       const char *file, unsigned line)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	size_t i;
	int likely;

	lp_lex(&lx, s, n);
	for (i = 0; i < lx.nr; i++) {
		if ((likely = lp_attr_is_hint(&lx, i)) < 0)
			continue;
		m->spots = lp_xrealloc(m->spots,
				       (m->nspots + 1) * sizeof(*m->spots));
		m->spots[m->nspots].file = file;
		m->spots[m->nspots].line = line;
		m->spots[m->nspots++].likely = likely;
		i += 4;
	}
	lp_lexed_release(&lx);
}

void lp_attr_macros_resolve(struct lp_attr_macros *m, const char *text,
			    size_t len)
{
	const char *s = text, *end = text + len, *file = NULL, *name;
	unsigned line = 1;
	int system = 0;
	size_t flen;

	m->resolved = 1;
	while (s < end) {
		const char *nl = memchr(s, '\n', (size_t)(end - s));
		const char *eol = nl ? nl + 1 : end;

		if (!strncmp(s, "#define ", 8) &&
		    memmem(s, (size_t)(eol - s), "likely", 6)) {
			live_define(m, s, (size_t)(eol - s));
			line++;
		} else if (*s == '#' &&
			   marker(s, eol, &line, &name, &flen, &system)) {
			if (flen)
				file = file_name(m, name, flen);
			if (!m->main)
				m->main = file;
		} else {
			/*
			 * a system header's text too: gcc marks the
			 * expansion of a macro of a system header as the
			 * system's, on the user's file and line
			 */
			if (file && memmem(s, (size_t)(eol - s), "likely", 6))
				line_spots(m, s, (size_t)(eol - s), file,
					   line);
			line++;
		}
		s = eol;
	}
}

void lp_attr_macros_release(struct lp_attr_macros *m)
{
	size_t k;

	for (k = 0; k < m->nr; k++)
		free(m->v[k].name);
	for (k = 0; k < m->nfiles; k++)
		free(m->files[k]);
	free(m->v);
	free(m->spots);
	free(m->files);
	memset(m, 0, sizeof(*m));
}

/* --- the uses ------------------------------------------------------------ */

/* An attribute of a text, written or a use, on its file and line. */
struct item {
	size_t tok;
	const char *file;       /* one of the spots' names, or NULL */
	unsigned line;
	int likely;             /* a written one's; -1 for a use */
	const struct lp_attr_macro *macro;  /* a use's */
};

/* Where the text's line markers say the lines come from. */
struct place {
	const struct lp_attr_macros *m;
	const char *file;       /* NULL: a file without spots */
	unsigned first;         /* physical line @first is @line */
	unsigned line;
};

/* The spot file named [@s, @s + @n), or NULL. */
static const char *spot_file(const struct lp_attr_macros *m, const char *s,
			     size_t n)
{
	size_t k;

	lp_cc_skip_dot_slash(&s, &n);
	for (k = 0; k < m->nfiles; k++)
		if (strlen(m->files[k]) == n && !memcmp(m->files[k], s, n))
			return m->files[k];
	return NULL;
}

/* The line marker whose '#' is token @i, if it is one, read into @pl. */
static void follow_marker(struct place *pl, const struct lp_lexed *lx,
			  size_t i)
{
	const char *s = lx->buf + lx->tok[i].start, *name;
	size_t last = lp_directive_end(lx, i) - 1, flen;
	unsigned line;
	int system;

	if (!marker(s, lx->buf + lx->tok[last].end, &line, &name, &flen,
		    &system))
		return;
	if (flen)
		pl->file = spot_file(pl->m, name, flen);
	pl->first = lx->tok[last].last_line + 1;
	pl->line = line;
}

static void push_item(struct item **v, size_t *n, const struct place *pl,
		      const struct lp_lexed *lx, size_t i, int likely,
		      const struct lp_attr_macro *macro)
{
	struct item *it;

	*v = lp_xrealloc(*v, (*n + 1) * sizeof(**v));
	it = &(*v)[(*n)++];
	it->tok = i;
	it->file = pl->file;
	it->line = pl->line + (lx->tok[i].line - pl->first);
	it->likely = likely;
	it->macro = macro;
}

/* The text's attributes, written and used, with their places. */
static size_t text_items(const struct lp_attr_macros *m,
			 const struct lp_lexed *lx, const char *file,
			 struct item **v)
{
	struct place pl = { m, NULL, 1, 1 };
	const struct lp_attr_macro *mac;
	size_t i, n = 0;
	int likely;

	/* a file's own text has no marker: the source as the first names it */
	pl.file = file ? spot_file(m, file, strlen(file)) : m->main;
	*v = NULL;
	for (i = 0; i < lx->nr; i++) {
		if (lx->tok[i].flags & LP_TOKF_DIRECTIVE)
			follow_marker(&pl, lx, i);
		if (lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD))
			continue;
		if ((likely = lp_attr_is_hint(lx, i)) >= 0) {
			push_item(v, &n, &pl, lx, i, likely, NULL);
			i += 4;
		} else if (lx->tok[i].kind == LP_TOK_IDENT &&
			   (mac = named(m, lx, i)) &&
			   (!mac->funclike || (i + 1 < lx->nr &&
					       lp_tok_is(lx, i + 1, "(")))) {
			push_item(v, &n, &pl, lx, i, -1, mac);
		}
	}
	return n;
}

/* The spots of @file's line @line: [*@first, return). */
static size_t line_spots_of(const struct lp_attr_macros *m, const char *file,
			    unsigned line, size_t *first)
{
	size_t k, end;

	for (k = 0; k < m->nspots && (m->spots[k].file != file ||
				      m->spots[k].line != line); k++)
		;
	*first = k;
	for (end = k; end < m->nspots && m->spots[end].file == file &&
		      m->spots[end].line == line; end++)
		;
	return end;
}

static const char mismatch[] =
	"the compiler's attributes on its line are not those written";

/* The uses among items [a, b), all of one line, decided. */
static void decide_line(const struct lp_attr_macros *m, const struct item *v,
			size_t a, size_t b, struct lp_attr_use **uses,
			size_t *n)
{
	size_t first = 0, end = 0, k, written = 0;
	const char *why = NULL;

	if (v[a].file)
		end = line_spots_of(m, v[a].file, v[a].line, &first);
	for (k = a; k < b; k++)
		written += v[k].likely >= 0;
	if (end == first && !written)
		return;         /* the names stood for nothing in this build */
	if (end - first != b - a)
		why = mismatch;
	for (k = a; k < b && !why; k++)
		if (v[k].likely >= 0 &&
		    v[k].likely != m->spots[first + k - a].likely)
			why = mismatch;
	for (k = a; k < b; k++) {
		struct lp_attr_use *u;

		if (!v[k].macro)
			continue;
		*uses = lp_xrealloc(*uses, (*n + 1) * sizeof(**uses));
		u = &(*uses)[(*n)++];
		u->tok = v[k].tok;
		u->funclike = v[k].macro->funclike;
		u->likely = why ? 0 : m->spots[first + k - a].likely;
		u->why = why;
	}
}

/*
 * Without the compiler's text, each use is what the tree's definitions
 * of its name say: fix places and edits what cc counted in the build
 * whose definitions spelled the attribute.
 */
static size_t tree_uses(const struct item *v, size_t nv,
			struct lp_attr_use **uses)
{
	size_t k, n = 0;

	for (k = 0; k < nv; k++) {
		struct lp_attr_use *u;

		if (!v[k].macro)
			continue;
		*uses = lp_xrealloc(*uses, (n + 1) * sizeof(**uses));
		u = &(*uses)[n++];
		u->tok = v[k].tok;
		u->funclike = v[k].macro->funclike;
		u->likely = v[k].macro->likely > 0;
		u->why = v[k].macro->likely < 0 ?
			 "its definitions spell different attributes" : NULL;
	}
	return n;
}

/* The macro of @m named @name, or NULL. */
static const struct lp_attr_macro *named_str(const struct lp_attr_macros *m,
					     const char *name)
{
	size_t k;

	for (k = 0; m && k < m->nr; k++)
		if (!strcmp(m->v[k].name, name))
			return &m->v[k];
	return NULL;
}

const char *lp_attr_macro_partner(const struct lp_attr_macros *m,
				  const char *name)
{
	const struct lp_attr_macro *self = named_str(m, name), *o;
	size_t i;

	/* the likely/unlikely swaps only, as the names' word */
	for (i = 0; self && i < LP_OPPOSITES_LIKELY; i++) {
		char *other = lp_opposite_name(name, i);

		o = other ? named_str(m, other) : NULL;
		free(other);
		if (o && o->funclike == self->funclike &&
		    o->likely == !self->likely)
			return o->name;
	}
	return NULL;
}

/* After an if's or loop's ')' or an else: the token after @i's. */
static int after_branch_head(const struct lp_lexed *lx, size_t i)
{
	size_t open;

	if (lp_tok_is(lx, i, "else"))
		return 1;
	if (!lp_tok_is(lx, i, ")") || (open = lx->tok[i].match) == LP_NO_MATCH
	    || open == 0)
		return 0;
	return lp_tok_is(lx, open - 1, "if") ||
	       lp_tok_is(lx, open - 1, "while") ||
	       lp_tok_is(lx, open - 1, "for");
}

/*
 * A name that reads as a macro's: in capitals, digits and '_', or
 * holding "likely" in any case (`__unlikely`, `Likely_`).
 */
static int macro_name(const struct lp_lexed *lx, size_t i)
{
	size_t k, n = lx->tok[i].end - lx->tok[i].start;
	const char *s = lx->buf + lx->tok[i].start;

	for (k = 0; k + 6 <= n; k++)
		if (!strncasecmp(s + k, "likely", 6))
			return 1;
	for (k = 0; k < n; k++)
		if (!(s[k] >= 'A' && s[k] <= 'Z') && s[k] != '_' &&
		    !(s[k] >= '0' && s[k] <= '9'))
			return 0;
	return n >= 2;
}

/*
 * Whether token @i can only start a statement of its own, so that a name
 * just before it is no statement but a word in front of one: '{', a
 * word (`NAME return`, `NAME x = 1`), or a prefix operator before an
 * operand (`NAME ++i`, `NAME *p = 0`, `NAME !f()`).  Not '(' or ';':
 * `if (c) NAME(x);` and `if (c) NAME;` are the macro as the statement.
 */
static int starts_statement(const struct lp_lexed *lx, size_t i)
{
	static const char *const prefix[] = { "++", "--", "*", "&", "!", "~",
					      "::" };
	size_t k;

	if (lp_tok_is(lx, i, "{") || lx->tok[i].kind == LP_TOK_IDENT)
		return 1;
	if (i + 1 >= lx->nr || (lx->tok[i + 1].kind != LP_TOK_IDENT &&
				!lp_tok_is(lx, i + 1, "(")))
		return 0;
	for (k = 0; k < sizeof(prefix) / sizeof(*prefix); k++)
		if (lp_tok_is(lx, i, prefix[k]))
			return 1;
	return 0;
}

int lp_attr_macro_use_shape(const struct lp_lexed *lx)
{
	size_t i;

	for (i = 1; i + 1 < lx->nr; i++) {
		if ((lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD)) ||
		    lx->tok[i].kind != LP_TOK_IDENT || !macro_name(lx, i))
			continue;
		if (lp_tok_is(lx, i + 1, "(") &&
		    (lp_tok_is(lx, i - 1, "if") ||
		     lp_tok_is(lx, i - 1, "while")))
			return 1;
		if ((after_branch_head(lx, i - 1) || lp_tok_is(lx, i - 1, ":")
		     || (i >= 2 && lp_tok_is(lx, i - 1, "{") &&
			 after_branch_head(lx, i - 2)))
		    && starts_statement(lx, i + 1))
			return 1;   /* `if (c) NAME {`, `case 1: NAME x` */
		if (lp_tok_is(lx, i + 1, "case") ||
		    lp_tok_is(lx, i + 1, "default"))
			return 1;   /* `NAME case 2:` */
	}
	return 0;
}

size_t lp_attr_macro_uses(const struct lp_attr_macros *m,
			  const struct lp_lexed *lx, const char *file,
			  struct lp_attr_use **uses)
{
	struct item *v;
	size_t nv, a, b, n = 0;

	*uses = NULL;
	if (!m || !m->nr || !(m->resolved || m->from_tree))
		return 0;
	nv = text_items(m, lx, file, &v);
	if (m->from_tree) {
		n = tree_uses(v, nv, uses);
		free(v);
		return n;
	}
	for (a = 0; a < nv; a = b) {
		int any_use = 0;

		for (b = a; b < nv && v[b].file == v[a].file &&
			    v[b].line == v[a].line; b++)
			any_use |= v[b].macro != NULL;
		if (any_use)
			decide_line(m, v, a, b, uses, &n);
	}
	free(v);
	return n;
}
