/*
 * lexer.h - a C lexer for finding and rewriting annotations
 *
 * fix edits source it did not write, so it must see the file as the
 * compiler does: "likely(" inside a comment, a string or an #if 0 group is
 * not an annotation, a macro body goes on after a backslash-newline, and a
 * CRLF file stays CRLF.  The lexer keeps every token's byte range in the
 * original buffer, so an edit is a splice of those bytes and every byte
 * outside it stays as it was.
 *
 * Invariants: tokens are in buffer order and never overlap; whitespace and
 * comments are not tokens; the lexer never fails on odd input (an
 * unterminated string ends at its line's end, a stray byte is a token of
 * its own), only on memory.
 */
#ifndef LP_FIX_LEXER_H
#define LP_FIX_LEXER_H

#include <stddef.h>

enum lp_tok_kind {
	LP_TOK_IDENT = 1,
	LP_TOK_NUMBER,
	LP_TOK_STRING,          /* "..." with any prefix; <...> in #include */
	LP_TOK_CHAR,            /* '...' with any prefix */
	LP_TOK_PUNCT,
	LP_TOK_OTHER            /* a byte that starts no token (@, `, \) */
};

#define LP_TOKF_PP        0x01  /* part of a preprocessor directive */
#define LP_TOKF_DIRECTIVE 0x02  /* the '#' that starts a directive */
#define LP_TOKF_DEAD      0x04  /* in a group the preprocessor skips */
#define LP_TOKF_SPLICED   0x08  /* holds a backslash-newline */
#define LP_TOKF_BOL       0x10  /* first token of its logical line */

#define LP_NO_MATCH ((size_t)-1)

struct lp_token {
	size_t start, end;      /* bytes [start, end) of the buffer */
	size_t match;           /* the other bracket, or LP_NO_MATCH */
	size_t dir;             /* PP tokens: index of their directive's '#' */
	unsigned line;          /* physical line of the first byte, from 1 */
	unsigned last_line;     /* physical line of the last byte */
	unsigned short kind, flags;
};

struct lp_lexed {
	const char *buf;        /* not owned */
	size_t len;
	struct lp_token *tok;
	size_t nr, alloc;
	size_t *line_start;     /* byte offset where each line starts */
	size_t nlines;
};

#define LP_LEXED_INIT { NULL, 0, NULL, 0, 0, NULL, 0 }

/*! lp_lex() :
 *  Splits @buf into tokens, marks directives and dead groups (#if 0, the
 *  #else of #if 1) and pairs brackets.  Where #if/#else branches open
 *  brackets differently, each branch is paired from the state before the
 *  #if and the first branch's state goes on, as a compiler reading the
 *  first branch would see it.  @buf must outlive @lx.
 */
void lp_lex(struct lp_lexed *lx, const char *buf, size_t len);
void lp_lexed_release(struct lp_lexed *lx);

/* The index of the last of the @n sorted line starts that is <= @off. */
size_t lp_line_index(const size_t *start, size_t n, size_t off);

/* The line (from 1) holding byte @off. */
unsigned lp_lex_line_of(const struct lp_lexed *lx, size_t off);

/* True when token @i is spelled @s (backslash-newlines ignored). */
int lp_tok_is(const struct lp_lexed *lx, size_t i, const char *s);

/* True when token @i is spelled as one of the @n words of @set. */
int lp_tok_is_any(const struct lp_lexed *lx, size_t i,
		  const char *const *set, size_t n);

/* Token @i's spelling without backslash-newlines; the caller frees it. */
char *lp_tok_dup(const struct lp_lexed *lx, size_t i);

/*
 * The spelling of tokens [from, to) joined by single spaces where the
 * source had any space or comment; the caller frees it.  Used to compare
 * a condition with the text the compiler recorded.
 */
char *lp_tok_text(const struct lp_lexed *lx, size_t from, size_t to);

/*! lp_tok_args() :
 *  Splits the arguments of the call whose '(' is token @open into token
 *  ranges [from[i], to[i]) at its top-level commas.
 *  @return : the number of arguments found, at most @max.
 */
int lp_tok_args(const struct lp_lexed *lx, size_t open, size_t *from,
		size_t *to, int max);

/*! lp_tok_bool() :
 *  @return : 1 or 0 when tokens [from, to) spell that value as the second
 *            argument of __builtin_expect does (1, 0L, true, (0), !0),
 *            else -1.
 */
int lp_tok_bool(const struct lp_lexed *lx, size_t from, size_t to);

/* The directive's tokens: [name, end) of "#define name ...". */
struct lp_define {
	size_t name, body, end;     /* body: first token after params */
	size_t params, nparams;     /* '(' of the parameters, their count */
	int funclike;
};

/* One past the last token of the directive whose '#' is token @dir. */
size_t lp_directive_end(const struct lp_lexed *lx, size_t dir);

/*! lp_opposite_name() :
 *  @name with swap @i (0 to LP_OPPOSITES - 1) made: "likely" for
 *  "unlikely" and back, in lower, upper or title case (the first
 *  LP_OPPOSITES_LIKELY swaps), then "true" for "false" and back; NULL
 *  where @name has no such word.  The caller frees it.  fix's flips
 *  (rewrite.c) and cc's attribute macros (attrmacro.c) name a hint's
 *  other way so.
 */
#define LP_OPPOSITES 12
#define LP_OPPOSITES_LIKELY 6
char *lp_opposite_name(const char *name, size_t i);

/*! lp_parse_define() :
 *  Reads the live #define whose '#' is token @dir into @d.
 *  @return : 1 when it is one, else 0.
 */
int lp_parse_define(const struct lp_lexed *lx, size_t dir,
		    struct lp_define *d);

#endif /* LP_FIX_LEXER_H */
