/*
 * hintmacro.c - hint macros that a project defines away, counted by name
 *
 * sqlite defines likely(X) as (X) (unless SQLITE_COVERAGE_TEST and the
 * like): no hint ever reaches the compiler, so the header's
 * __builtin_expect macro has nothing to count.  `likelyprof cc
 * --hint-macro likely --hint-macro unlikely` names such macros, and the
 * instrumented compile reads a copy of the source (edits.c, copy.c) in
 * which each call of one is the hint its name says:
 *
 *   likely(x)       __builtin_expect(!!(x), 1)
 *   unlikely(x)     __builtin_expect(!!(x), 0)
 *
 * Only the name and the closing parenthesis change, so every line keeps
 * its number and a call that spans lines still spans them; the header
 * then counts it on the source's line with "!!(x)" as the condition.
 * Calls in the bodies of other macros are rewritten too (sqlite's
 * testcase() and NEVER() hold some), but not NAME's own #define, nor
 * #if, #ifdef or #undef lines, which name the macro without calling it.
 * Where the project defines NAME as __builtin_expect already, the copy's
 * call is that same one hint, counted once.  A call spelled in a header
 * is not in the copy, and is not seen.
 */
#include <stdlib.h>
#include <string.h>

#include "cc/edits.h"
#include "cc/hintmacro.h"
#include "fix/lexer.h"
#include "usage.h"

/*
 * Words that a C or C++ compiler reads before '(' without a macro: made
 * a hint, `if (c)` would lose its `if`.  The builtins are counted
 * already.
 */
static const char *const not_macros[] = {
	"if", "while", "for", "switch", "return", "sizeof", "do", "else",
	"case", "default", "goto", "typeof", "__typeof__", "alignof",
	"_Alignof", "_Alignas", "alignas", "defined", "decltype",
	"__attribute__", "__attribute", "asm", "__asm__", "_Generic",
	"_Static_assert", "static_assert", "noexcept", "new", "delete",
	"operator", "template", "requires", "catch", "throw",
	"__builtin_expect", "__builtin_expect_with_probability", NULL
};

static int identifier(const char *s, size_t n)
{
	size_t k;

	if (!n || (s[0] >= '0' && s[0] <= '9'))
		return 0;
	for (k = 0; k < n; k++)
		if (!(s[k] == '_' || (s[k] >= 'a' && s[k] <= 'z') ||
		      (s[k] >= 'A' && s[k] <= 'Z') ||
		      (s[k] >= '0' && s[k] <= '9')))
			return 0;
	return 1;
}

/* Does @name hold "unlikely" in any case (sqlite's, UNLIKELY, Unlikely)? */
static int says_unlikely(const char *name)
{
	static const char word[] = "unlikely";
	size_t n = strlen(name), k, j;

	for (k = 0; k + sizeof(word) - 1 <= n; k++) {
		for (j = 0; word[j]; j++) {
			char c = name[k + j];

			if ((c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c) !=
			    word[j])
				break;
		}
		if (!word[j])
			return 1;
	}
	return 0;
}

/* 1 or 0 for a DIRECTION as written, or -1. */
static int direction(const char *s)
{
	if (!strcmp(s, "1") || !strcmp(s, "likely"))
		return 1;
	if (!strcmp(s, "0") || !strcmp(s, "unlikely"))
		return 0;
	return -1;
}

int lp_hint_macro_add(struct lp_hint_macros *m, const char *spec,
		      char **why)
{
	const char *eq = strchr(spec, '=');
	size_t n = eq ? (size_t)(eq - spec) : strlen(spec), k;
	int expect;
	char *name;

	if (!identifier(spec, n)) {
		*why = lp_xstrfmt("--hint-macro: '%.*s' is not a C identifier",
				  (int)n, spec);
		return -1;
	}
	name = lp_xstrfmt("%.*s", (int)n, spec);
	for (k = 0; not_macros[k]; k++)
		if (!strcmp(name, not_macros[k])) {
			*why = lp_xstrfmt("--hint-macro: '%s' is a keyword "
					  "or a builtin, not a macro", name);
			free(name);
			return -1;
		}
	expect = eq ? direction(eq + 1) : !says_unlikely(name);
	if (expect < 0) {
		*why = lp_xstrfmt("--hint-macro: the direction of '%s' is 1, "
				  "0, likely or unlikely, not '%s'", name,
				  eq + 1);
		free(name);
		return -1;
	}
	for (k = 0; k < m->nr && strcmp(m->v[k].name, name); k++)
		;
	if (k == m->nr) {
		m->v = lp_xrealloc(m->v, (m->nr + 1) * sizeof(*m->v));
		m->v[m->nr++].name = name;
	} else {
		free(name);
	}
	m->v[k].expect = expect;
	return 0;
}

void lp_hint_macros_release(struct lp_hint_macros *m)
{
	size_t k;

	for (k = 0; k < m->nr; k++)
		free(m->v[k].name);
	free(m->v);
	m->v = NULL;
	m->nr = 0;
}

int lp_hint_macro_option(struct lp_hint_macros *m, int argc,
			 const char **argv, int *i, const char *usage)
{
	const char *v = lp_option_value(argc, argv, i, "--hint-macro", usage);
	char *why = NULL;

	if (!v)
		return 0;
	if (lp_hint_macro_add(m, v, &why))
		lp_usage_error(usage, "%s", why);
	return 1;
}

int lp_hint_macros_take(struct lp_hint_macros *m, int argc,
			const char **argv, const char *usage)
{
	int i, at, kept = 1;

	for (i = 1; i < argc; i++) {
		at = i;
		if (!lp_hint_macro_option(m, argc, argv, &i, usage))
			argv[kept++] = argv[at];
	}
	if (kept < argc)
		argv[kept] = NULL;
	return kept;
}

int lp_hint_macro_expect(const struct lp_hint_macros *m,
			 const struct lp_lexed *lx, size_t i)
{
	size_t k;

	if (lx->tok[i].kind != LP_TOK_IDENT)
		return -1;
	for (k = 0; k < m->nr; k++)
		if (lp_tok_is(lx, i, m->v[k].name))
			return m->v[k].expect;
	return -1;
}

/*
 * Whether the name at token @i stands where a call of it is to be
 * rewritten: in code, or in the body of another macro's #define; not in
 * a dead group, another directive (#if defined(NAME), #undef), nor
 * NAME's own #define, which must stay the project's.
 */
static int rewritable(const struct lp_hint_macros *m,
		      const struct lp_lexed *lx, size_t i)
{
	const struct lp_token *t = &lx->tok[i];
	size_t dir = t->dir;

	if (t->flags & LP_TOKF_DEAD)
		return 0;
	if (!(t->flags & LP_TOKF_PP))
		return 1;
	return dir + 2 < i && lp_tok_is(lx, dir + 1, "define") &&
	       lp_hint_macro_expect(m, lx, dir + 2) < 0;
}

/*
 * Why the call whose name is token @i, the '(' after it matched, cannot
 * be rewritten, or NULL when it can.
 */
static const char *unwritable(const struct lp_lexed *lx, size_t i)
{
	size_t close = lx->tok[i + 1].match, from[2], to[2];
	unsigned short pp = lx->tok[i].flags & LP_TOKF_PP;

	if ((lx->tok[close].flags & LP_TOKF_PP) != pp ||
	    (pp && lx->tok[close].dir != lx->tok[i].dir))
		return "its parentheses close in another directive";
	if (lx->tok[i].flags & LP_TOKF_SPLICED)
		return "its name is split by a backslash-newline";
	if ((i > 0 && (lp_tok_is(lx, i - 1, "##") ||
		       lp_tok_is(lx, i - 1, "#"))) ||
	    (close + 1 < lx->nr && lp_tok_is(lx, close + 1, "##") &&
	     lx->tok[close + 1].dir == lx->tok[i].dir))
		return "it is pasted or quoted by the preprocessor";
	if (lp_tok_args(lx, i + 1, from, to, 2) != 1 || from[0] == to[0])
		return "it has not one argument";
	return NULL;
}

/* A member or qualified name (p->likely(x), ns::likely(x)): no macro's. */
static int member(const struct lp_lexed *lx, size_t i)
{
	return i > 0 && (lp_tok_is(lx, i - 1, ".") ||
			 lp_tok_is(lx, i - 1, "->") ||
			 lp_tok_is(lx, i - 1, "::"));
}

void lp_hint_macro_plan(struct lp_hint_macro_plan *p,
			const struct lp_hint_macros *m,
			const struct lp_lexed *lx, struct lp_copy_edits *e)
{
	size_t i;

	memset(p, 0, sizeof(*p));
	for (i = 0; m->nr && i + 1 < lx->nr; i++) {
		const struct lp_token *t = &lx->tok[i];
		const char *why;
		int expect = lp_hint_macro_expect(m, lx, i);

		if (expect < 0 || !lp_tok_is(lx, i + 1, "(") ||
		    lx->tok[i + 1].match == LP_NO_MATCH ||
		    !rewritable(m, lx, i) || member(lx, i))
			continue;
		p->calls++;
		why = unwritable(lx, i);
		if (why) {
			if (!p->skipped_why) {
				p->skipped_why = why;
				p->skipped_line = t->line;
			}
			continue;
		}
		p->counted++;
		lp_copy_edit_add(e, t->start, t->end - t->start,
				 "__builtin_expect(!!");
		t = &lx->tok[lx->tok[i + 1].match];
		lp_copy_edit_add(e, t->start, t->end - t->start,
				 expect ? "), 1)" : "), 0)");
	}
}
