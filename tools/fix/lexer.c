/*
 * lexer.c - C tokens with byte offsets, directives, dead groups, brackets
 *
 * The rules are those of translation phases 1-3 (C11 5.1.1.2) that matter
 * to an editor: backslash-newline splices lines anywhere, comments are
 * white space, "//" comments go on after a splice, and a directive is a
 * '#' that starts a logical line and ends with it.  Trigraphs are ignored,
 * as gcc does by default.
 */
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "fix/lexer.h"
#include "usage.h"

struct cursor {
	const char *buf;
	size_t len;
};

/* Skips any backslash-newlines (LF or CRLF) at @p. */
static size_t skip_splices(const struct cursor *c, size_t p)
{
	while (p + 1 < c->len && c->buf[p] == '\\') {
		if (c->buf[p + 1] == '\n')
			p += 2;
		else if (c->buf[p + 1] == '\r' && p + 2 < c->len &&
			 c->buf[p + 2] == '\n')
			p += 3;
		else
			break;
	}
	return p;
}

/* The byte at @p after splices, or 0 at the end. */
static char at(const struct cursor *c, size_t p)
{
	p = skip_splices(c, p);
	return p < c->len ? c->buf[p] : 0;
}

/* The position after the (spliced) byte at @p. */
static size_t step(const struct cursor *c, size_t p)
{
	return skip_splices(c, p) + 1;
}

static int is_ident_start(unsigned char ch)
{
	return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
	       ch == '_' || ch == '$' || ch >= 0x80;
}

static int is_ident_char(unsigned char ch)
{
	return is_ident_start(ch) || (ch >= '0' && ch <= '9');
}

static int is_digit(char ch)
{
	return ch >= '0' && ch <= '9';
}

/* Skips a quoted literal whose opening quote is at @p. */
static size_t skip_quoted(const struct cursor *c, size_t p, char quote)
{
	p = step(c, p);
	for (;;) {
		char ch;

		p = skip_splices(c, p);
		if (p >= c->len || c->buf[p] == '\n')
			return p;       /* unterminated: ends with its line */
		ch = c->buf[p++];
		if (ch == quote)
			return p;
		if (ch == '\\') {
			p = skip_splices(c, p);
			if (p < c->len && c->buf[p] != '\n')
				p++;
		}
	}
}

/* Punctuators, longest first within each leading byte. */
static const char *const puncts[] = {
	"...", "<<=", ">>=", "->*",
	"->", "++", "--", "<<", ">>", "<=", ">=", "==", "!=", "&&", "||",
	"*=", "/=", "%=", "+=", "-=", "&=", "^=", "|=", "##", "::", ".*",
	"<:", ":>", "<%", "%>", "%:",
};

static size_t punct_len(const struct cursor *c, size_t p)
{
	size_t i;

	for (i = 0; i < sizeof(puncts) / sizeof(puncts[0]); i++) {
		const char *s = puncts[i];
		size_t q = p;

		while (*s && at(c, q) == *s) {
			q = step(c, q);
			s++;
		}
		if (!*s)
			return q - p;
	}
	return step(c, p) - p;
}

static struct lp_token *push(struct lp_lexed *lx)
{
	struct lp_token *t;

	if (lx->nr == lx->alloc) {
		lx->alloc = lx->alloc ? 2 * lx->alloc : 256;
		lx->tok = lp_xrealloc(lx->tok, lx->alloc * sizeof(*lx->tok));
	}
	t = &lx->tok[lx->nr++];
	memset(t, 0, sizeof(*t));
	t->match = LP_NO_MATCH;
	return t;
}

static void index_lines(struct lp_lexed *lx)
{
	size_t i, n = 1, k = 0;

	for (i = 0; i < lx->len; i++)
		n += lx->buf[i] == '\n';
	lx->line_start = lp_xmalloc(n * sizeof(size_t));
	lx->line_start[k++] = 0;
	for (i = 0; i < lx->len; i++)
		if (lx->buf[i] == '\n')
			lx->line_start[k++] = i + 1;
	lx->nlines = n;
}

size_t lp_line_index(const size_t *start, size_t n, size_t off)
{
	size_t lo = 0, hi = n;

	/* the last line start <= off */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (start[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	return lo;
}

unsigned lp_lex_line_of(const struct lp_lexed *lx, size_t off)
{
	return (unsigned)(lp_line_index(lx->line_start, lx->nlines, off) + 1);
}

/* Is token @i the directive name @name of directive @dir? */
static int directive_is(const struct lp_lexed *lx, size_t dir,
			const char *name)
{
	return dir + 1 < lx->nr && lx->tok[dir + 1].dir == dir &&
	       (lx->tok[dir + 1].flags & LP_TOKF_PP) &&
	       lp_tok_is(lx, dir + 1, name);
}

/*
 * Steps over spaces, newlines and comments from @p; a newline ends a
 * directive and starts a line.  @return : where the next token starts,
 * or c->len.
 */
static size_t skip_space(const struct cursor *c, size_t p, int *bol,
			 int *in_dir)
{
	for (;;) {
		char ch;

		p = skip_splices(c, p);
		if (p >= c->len)
			return c->len;
		ch = c->buf[p];
		if (ch == '\n') {
			*in_dir = 0;
			*bol = 1;
			p++;
		} else if (ch == ' ' || ch == '\t' || ch == '\r' ||
			   ch == '\f' || ch == '\v') {
			p++;
		} else if (ch == '/' && at(c, p + 1) == '*') {
			p = step(c, step(c, p));
			while (p < c->len && !(at(c, p) == '*' &&
					       at(c, step(c, p)) == '/'))
				p = step(c, p);
			p = p < c->len ? step(c, step(c, p)) : c->len;
		} else if (ch == '/' && at(c, step(c, p)) == '/') {
			while (p < c->len && at(c, p) != '\n')
				p = step(c, p);
		} else {
			return p;
		}
	}
}

/* An identifier, or a string or character with a prefix (L"", u8''). */
static size_t lex_ident(const struct cursor *c, size_t p,
			struct lp_token *t)
{
	char ch = c->buf[p];
	size_t q = p;

	while (q < c->len && is_ident_char((unsigned char)at(c, q)))
		q = step(c, q);
	/* L"", u8'', R"(...)" are not handled as raw */
	if (at(c, q) == '"' || at(c, q) == '\'') {
		size_t n = q - p;

		if ((n == 1 && (ch == 'L' || ch == 'u' || ch == 'U')) ||
		    (n == 2 && ch == 'u' && at(c, step(c, p)) == '8')) {
			char quote = at(c, q);

			t->kind = quote == '"' ? LP_TOK_STRING : LP_TOK_CHAR;
			return skip_quoted(c, q, quote);
		}
	}
	t->kind = LP_TOK_IDENT;
	return q;
}

/* A preprocessing number: digits, letters, '.', e+ and the like, 1'000. */
static size_t lex_number(const struct cursor *c, size_t p)
{
	for (;;) {
		char d = at(c, p);

		if ((d == 'e' || d == 'E' || d == 'p' || d == 'P') &&
		    (at(c, step(c, p)) == '+' || at(c, step(c, p)) == '-'))
			p = step(c, step(c, p));
		else if (is_ident_char((unsigned char)d) || d == '.' ||
			 (d == '\'' &&
			  is_ident_char((unsigned char)at(c, step(c, p)))))
			p = step(c, p);
		else
			return p;
	}
}

/* The token that starts at @p, into @t; @return : where it ends. */
static size_t lex_token(const struct cursor *c, size_t p, struct lp_token *t,
			int header_next)
{
	char ch = c->buf[p];

	if (header_next && ch == '<') {
		t->kind = LP_TOK_STRING;
		while (p < c->len && at(c, p) != '>' && at(c, p) != '\n')
			p = step(c, p);
		return at(c, p) == '>' ? step(c, p) : p;
	}
	if (is_ident_start((unsigned char)ch))
		return lex_ident(c, p, t);
	if (is_digit(ch) || (ch == '.' && is_digit(at(c, step(c, p))))) {
		t->kind = LP_TOK_NUMBER;
		return lex_number(c, p);
	}
	if (ch == '"' || ch == '\'') {
		t->kind = ch == '"' ? LP_TOK_STRING : LP_TOK_CHAR;
		return skip_quoted(c, p, ch);
	}
	if (ch && strchr("[](){}.-+&*~!/%<>^|?:;=,#", ch)) {
		t->kind = LP_TOK_PUNCT;
		return p + punct_len(c, p);
	}
	t->kind = LP_TOK_OTHER;
	return p + 1;
}

/* A token that holds a backslash-newline (or a string, a newline). */
static void mark_spliced(const struct cursor *c, struct lp_token *t)
{
	int quoted = t->kind == LP_TOK_STRING || t->kind == LP_TOK_CHAR;

	if (memchr(c->buf + t->start, quoted ? '\n' : '\\',
		   t->end - t->start))
		t->flags |= LP_TOKF_SPLICED;
}

static void tokenize(struct lp_lexed *lx)
{
	struct cursor c = { lx->buf, lx->len };
	size_t p = 0, dir = 0;
	int bol = 1, in_dir = 0, header_next = 0;

	while ((p = skip_space(&c, p, &bol, &in_dir)) < c.len) {
		struct lp_token *t = push(lx);

		t->start = p;
		p = t->end = lex_token(&c, p, t, header_next);
		mark_spliced(&c, t);
		header_next = 0;
		if (bol) {
			t->flags |= LP_TOKF_BOL;
			if (lp_tok_is(lx, lx->nr - 1, "#") ||
			    lp_tok_is(lx, lx->nr - 1, "%:")) {
				in_dir = 1;
				dir = lx->nr - 1;
				t->flags |= LP_TOKF_DIRECTIVE;
			}
		}
		if (in_dir) {
			t->flags |= LP_TOKF_PP;
			t->dir = dir;
			if (lx->nr - 1 == dir + 1 &&
			    (lp_tok_is(lx, lx->nr - 1, "include") ||
			     lp_tok_is(lx, lx->nr - 1, "include_next") ||
			     lp_tok_is(lx, lx->nr - 1, "import")))
				header_next = 1;
		}
		bol = 0;
	}
}

size_t lp_directive_end(const struct lp_lexed *lx, size_t dir)
{
	size_t end = dir + 1;

	while (end < lx->nr && lx->tok[end].dir == dir &&
	       (lx->tok[end].flags & LP_TOKF_PP) &&
	       !(lx->tok[end].flags & LP_TOKF_DIRECTIVE))
		end++;
	return end;
}

/* The value of a "#if" that can be told without the preprocessor. */
enum cond_value { COND_FALSE, COND_TRUE, COND_UNKNOWN };

static enum cond_value directive_value(const struct lp_lexed *lx, size_t dir)
{
	size_t i, end = lp_directive_end(lx, dir), n = 0, last = 0;

	for (i = dir + 2; i < end; i++) {
		if (lp_tok_is(lx, i, "(") || lp_tok_is(lx, i, ")"))
			continue;
		n++;
		last = i;
	}
	if (n != 1)
		return COND_UNKNOWN;
	if (lp_tok_is(lx, last, "0"))
		return COND_FALSE;
	if (lp_tok_is(lx, last, "1"))
		return COND_TRUE;
	return COND_UNKNOWN;
}

/*
 * One #if group being read: whether its surroundings are dead, whether a
 * branch was surely taken, and the bracket stack to restart each branch
 * from.
 */
struct cond_frame {
	int outer_dead;
	int taken;              /* a branch was surely live: later ones dead */
	int all_false;          /* every branch so far was surely dead */
	size_t *saved, nsaved;  /* bracket stack at the #if */
	size_t *first, nfirst;  /* after the first branch; -1 nfirst: unset */
	int have_first;
};

struct bstack {
	size_t *v;
	size_t nr, alloc;
};

static void bpush(struct bstack *s, size_t i)
{
	if (s->nr == s->alloc) {
		s->alloc = s->alloc ? 2 * s->alloc : 64;
		s->v = lp_xrealloc(s->v, s->alloc * sizeof(*s->v));
	}
	s->v[s->nr++] = i;
}

static size_t *copy_stack(const struct bstack *s)
{
	size_t *v = lp_xmalloc((s->nr + 1) * sizeof(*v));

	if (s->nr)
		memcpy(v, s->v, s->nr * sizeof(*v));
	return v;
}

static void restore_stack(struct bstack *s, const size_t *v, size_t n)
{
	s->nr = 0;
	while (s->nr < n)
		bpush(s, v[s->nr]);
}

static const char *closer(const struct lp_lexed *lx, size_t i)
{
	if (lp_tok_is(lx, i, "("))
		return ")";
	if (lp_tok_is(lx, i, "[") || lp_tok_is(lx, i, "<:"))
		return "]";
	if (lp_tok_is(lx, i, "{") || lp_tok_is(lx, i, "<%"))
		return "}";
	return NULL;
}

static int is_closer(const struct lp_lexed *lx, size_t i)
{
	return lp_tok_is(lx, i, ")") || lp_tok_is(lx, i, "]") ||
	       lp_tok_is(lx, i, "}") || lp_tok_is(lx, i, ":>") ||
	       lp_tok_is(lx, i, "%>");
}

static int closes(const struct lp_lexed *lx, size_t open, size_t i)
{
	const char *want = closer(lx, open);

	if (lp_tok_is(lx, i, want))
		return 1;
	return (!strcmp(want, "]") && lp_tok_is(lx, i, ":>")) ||
	       (!strcmp(want, "}") && lp_tok_is(lx, i, "%>"));
}

/* Pairs brackets of one sequence of tokens with stack @s. */
static void pair(struct lp_lexed *lx, struct bstack *s, size_t i)
{
	if (lx->tok[i].kind != LP_TOK_PUNCT)
		return;
	if (closer(lx, i)) {
		bpush(s, i);
	} else if (is_closer(lx, i) && s->nr &&
		   closes(lx, s->v[s->nr - 1], i)) {
		size_t o = s->v[--s->nr];

		lx->tok[o].match = i;
		lx->tok[i].match = o;
	}
}

/* Pairs the brackets inside directive @dir, which ends before @end. */
static void pair_directive(struct lp_lexed *lx, size_t dir, size_t end)
{
	struct bstack s = { NULL, 0, 0 };
	size_t i;

	for (i = dir; i < end; i++)
		pair(lx, &s, i);
	free(s.v);
}

static void conditionals(struct lp_lexed *lx)
{
	struct cond_frame *fr = NULL;
	size_t nfr = 0, afr = 0, i = 0;
	struct bstack main_stack = { NULL, 0, 0 };
	int dead = 0;

	while (i < lx->nr) {
		struct lp_token *t = &lx->tok[i];
		size_t end = i + 1;
		struct cond_frame *f;

		if (!(t->flags & LP_TOKF_DIRECTIVE)) {
			if (dead)
				t->flags |= LP_TOKF_DEAD;
			else
				pair(lx, &main_stack, i);
			i++;
			continue;
		}
		end = lp_directive_end(lx, i);
		if (directive_is(lx, i, "if") || directive_is(lx, i, "ifdef") ||
		    directive_is(lx, i, "ifndef")) {
			enum cond_value v = directive_is(lx, i, "if") ?
				directive_value(lx, i) : COND_UNKNOWN;

			if (nfr == afr) {
				afr = afr ? 2 * afr : 16;
				fr = lp_xrealloc(fr, afr * sizeof(*fr));
			}
			f = &fr[nfr++];
			memset(f, 0, sizeof(*f));
			f->outer_dead = dead;
			f->taken = v == COND_TRUE;
			f->all_false = v == COND_FALSE;
			f->saved = copy_stack(&main_stack);
			f->nsaved = main_stack.nr;
			if (dead)
				t->flags |= LP_TOKF_DEAD;
			dead = dead || v == COND_FALSE;
		} else if (nfr && (directive_is(lx, i, "elif") ||
				   directive_is(lx, i, "else"))) {
			enum cond_value v = directive_is(lx, i, "elif") ?
				directive_value(lx, i) : COND_TRUE;

			f = &fr[nfr - 1];
			if (!f->have_first) {
				f->first = copy_stack(&main_stack);
				f->nfirst = main_stack.nr;
				f->have_first = 1;
			}
			restore_stack(&main_stack, f->saved, f->nsaved);
			if (f->outer_dead)
				t->flags |= LP_TOKF_DEAD;
			if (f->taken || v == COND_FALSE) {
				dead = 1;
			} else {
				dead = f->outer_dead;
				if (v == COND_TRUE && f->all_false)
					f->taken = 1;
				if (v != COND_FALSE)
					f->all_false = 0;
			}
			/*
			 * A branch after a surely-false #if is what the
			 * compiler reads: its brackets state goes on.
			 */
			if (f->have_first && !dead && f->all_false == 0 &&
			    f->taken && !f->outer_dead) {
				free(f->first);
				f->have_first = 0;
			}
		} else if (nfr && directive_is(lx, i, "endif")) {
			f = &fr[nfr - 1];
			if (f->have_first) {
				restore_stack(&main_stack, f->first, f->nfirst);
				free(f->first);
			}
			free(f->saved);
			dead = f->outer_dead;
			if (dead)
				t->flags |= LP_TOKF_DEAD;
			nfr--;
		} else if (dead) {
			t->flags |= LP_TOKF_DEAD;
		}
		if (t->flags & LP_TOKF_DEAD) {
			size_t k;

			for (k = i + 1; k < end; k++)
				lx->tok[k].flags |= LP_TOKF_DEAD;
		} else {
			pair_directive(lx, i, end);
		}
		i = end;
	}
	while (nfr--) {
		if (fr[nfr].have_first)
			free(fr[nfr].first);
		free(fr[nfr].saved);
	}
	free(fr);
	free(main_stack.v);
}

static void set_lines(struct lp_lexed *lx)
{
	size_t i, ln = 0;

	for (i = 0; i < lx->nr; i++) {
		struct lp_token *t = &lx->tok[i];

		while (ln + 1 < lx->nlines &&
		       lx->line_start[ln + 1] <= t->start)
			ln++;
		t->line = (unsigned)(ln + 1);
		t->last_line = t->flags & LP_TOKF_SPLICED ?
			lp_lex_line_of(lx, t->end - 1) : t->line;
	}
}

void lp_lex(struct lp_lexed *lx, const char *buf, size_t len)
{
	lx->buf = buf;
	lx->len = len;
	lx->nr = 0;
	index_lines(lx);
	tokenize(lx);
	set_lines(lx);
	conditionals(lx);
}

void lp_lexed_release(struct lp_lexed *lx)
{
	if (!lx)
		return;
	free(lx->tok);
	free(lx->line_start);
	lx->tok = NULL;
	lx->line_start = NULL;
	lx->nr = lx->alloc = lx->nlines = 0;
}

int lp_tok_is(const struct lp_lexed *lx, size_t i, const char *s)
{
	const struct lp_token *t = &lx->tok[i];
	struct cursor c = { lx->buf, t->end };
	size_t p = t->start;

	if (!(t->flags & LP_TOKF_SPLICED)) {
		size_t n = strlen(s);

		return t->end - t->start == n &&
		       !memcmp(lx->buf + t->start, s, n);
	}
	while (*s) {
		p = skip_splices(&c, p);
		if (p >= t->end || lx->buf[p] != *s)
			return 0;
		p++;
		s++;
	}
	return skip_splices(&c, p) >= t->end;
}

int lp_tok_is_any(const struct lp_lexed *lx, size_t i,
		  const char *const *set, size_t n)
{
	size_t k;

	for (k = 0; k < n; k++)
		if (lp_tok_is(lx, i, set[k]))
			return 1;
	return 0;
}

/* Appends token @i's spelling to @out at @n; @out has room. */
static size_t spell(const struct lp_lexed *lx, size_t i, char *out)
{
	const struct lp_token *t = &lx->tok[i];
	struct cursor c = { lx->buf, t->end };
	size_t p = t->start, n = 0;

	if (t->kind == LP_TOK_STRING || t->kind == LP_TOK_CHAR) {
		memcpy(out, lx->buf + t->start, t->end - t->start);
		return t->end - t->start;
	}
	for (;;) {
		p = skip_splices(&c, p);
		if (p >= t->end)
			break;
		out[n++] = lx->buf[p++];
	}
	return n;
}

char *lp_tok_dup(const struct lp_lexed *lx, size_t i)
{
	char *s = lp_xmalloc(lx->tok[i].end - lx->tok[i].start + 1);

	s[spell(lx, i, s)] = '\0';
	return s;
}

char *lp_tok_text(const struct lp_lexed *lx, size_t from, size_t to)
{
	size_t i, cap = 1, n = 0;
	char *s;

	for (i = from; i < to; i++)
		cap += lx->tok[i].end - lx->tok[i].start + 1;
	s = lp_xmalloc(cap);
	for (i = from; i < to; i++) {
		if (i > from && lx->tok[i].start > lx->tok[i - 1].end)
			s[n++] = ' ';
		n += spell(lx, i, s + n);
	}
	s[n] = '\0';
	return s;
}

/*
 * Splits the arguments of the call whose '(' is @open into [from, to)
 * ranges at top-level commas.  @return : their number (at most @max).
 */
int lp_tok_args(const struct lp_lexed *lx, size_t open, size_t *from,
		      size_t *to, int max)
{
	size_t close = lx->tok[open].match, k = open + 1;
	int n = 0;

	if (close == LP_NO_MATCH)
		return 0;
	while (k <= close && n < max) {
		size_t s = k;

		while (k < close && !lp_tok_is(lx, k, ",")) {
			/*
			 * A group that #if branches close apart may be
			 * paired past the call's end: never skip beyond it.
			 */
			if (lx->tok[k].match != LP_NO_MATCH &&
			    lx->tok[k].match > k && lx->tok[k].match < close)
				k = lx->tok[k].match;
			k++;
		}
		from[n] = s;
		to[n] = k;
		n++;
		k++;
	}
	return n;
}

/* 1 or 0 for the tokens [from, to) when they spell it, else -1. */
int lp_tok_bool(const struct lp_lexed *lx, size_t from, size_t to)
{
	static const char *const ones[] = {
		"1", "1L", "1l", "1U", "1u", "1UL", "1ul", "true", "!0"
	};
	static const char *const zeros[] = {
		"0", "0L", "0l", "0U", "0u", "0UL", "0ul", "false", "!1"
	};
	char *s;
	size_t k;
	int v = -1;

	while (to - from >= 2 && lp_tok_is(lx, from, "(") &&
	       lx->tok[from].match == to - 1) {
		from++;
		to--;
	}
	if (to <= from || to - from > 2)
		return -1;
	s = lp_tok_text(lx, from, to);
	for (k = 0; k < sizeof(ones) / sizeof(ones[0]); k++) {
		if (!strcmp(s, ones[k]))
			v = 1;
		if (!strcmp(s, zeros[k]))
			v = 0;
	}
	free(s);
	return v;
}

int lp_parse_define(const struct lp_lexed *lx, size_t dir,
		    struct lp_define *d)
{
	size_t i = dir + 2;

	if (!(lx->tok[dir].flags & LP_TOKF_DIRECTIVE) ||
	    (lx->tok[dir].flags & LP_TOKF_DEAD) || dir + 2 >= lx->nr ||
	    lx->tok[dir + 1].dir != dir || !lp_tok_is(lx, dir + 1, "define") ||
	    lx->tok[i].dir != dir || !(lx->tok[i].flags & LP_TOKF_PP) ||
	    lx->tok[i].kind != LP_TOK_IDENT)
		return 0;
	d->name = i;
	d->end = lp_directive_end(lx, dir);
	d->funclike = i + 1 < d->end && lp_tok_is(lx, i + 1, "(") &&
		      lx->tok[i + 1].start == lx->tok[i].end;
	d->nparams = 0;
	d->params = i + 1;
	d->body = i + 1;
	if (d->funclike) {
		size_t close = lx->tok[i + 1].match, k;

		if (close == LP_NO_MATCH || close >= d->end)
			return 0;
		for (k = i + 2; k < close; k++)
			if (lx->tok[k].kind == LP_TOK_IDENT ||
			    lp_tok_is(lx, k, "..."))
				d->nparams++;
		d->body = close + 1;
	}
	return 1;
}

/* Case-preserving swaps that name a spelling's opposite. */
static const char *const opposites[LP_OPPOSITES / 2][2] = {
	{ "unlikely", "likely" }, { "UNLIKELY", "LIKELY" },
	{ "Unlikely", "Likely" }, { "false", "true" }, { "FALSE", "TRUE" },
	{ "False", "True" },
};

char *lp_opposite_name(const char *name, size_t i)
{
	const char *from = opposites[i / 2][i % 2];
	const char *to = opposites[i / 2][!(i % 2)];
	const char *at = strstr(name, from);

	/* "likely" inside "unlikely" is not a match */
	if (!at || (i % 2 && at >= name + 2 && !strncasecmp(at - 2, "un", 2)))
		return NULL;
	return lp_xstrfmt("%.*s%s%s", (int)(at - name), name, to,
			  at + strlen(from));
}
