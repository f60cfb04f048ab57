/*
 * funcs.c - the functions of a C or C++ file: where each is defined,
 * its name as written, and the braces of its body
 *
 * One lexed file is all this reads: which name a profile means by a
 * function, and what a macro makes of a name, is names.c's question.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/tree.h"
#include "fold.h"
#include "usage.h"

int lp_tok_keyword(const struct lp_lexed *lx, size_t i)
{
	static const char *const kw[] = {
		"if", "while", "for", "switch", "return", "sizeof",
		"__attribute__", "__attribute", "_Alignas", "__typeof__",
		"typeof", "__asm__", "asm", "defined", "_Static_assert",
		"__declspec", "alignas", "decltype", "noexcept", "throw",
		"catch", "static_assert", "alignof", "_Alignof", "new",
		"delete", "operator", "template", "requires",
	};
	return lp_tok_is_any(lx, i, kw, sizeof(kw) / sizeof(kw[0]));
}

int lp_tok_live(const struct lp_lexed *lx, size_t i)
{
	return !(lx->tok[i].flags & (LP_TOKF_PP | LP_TOKF_DEAD));
}

size_t lp_tok_prev_live(const struct lp_lexed *lx, size_t i)
{
	if (i == LP_NO_MATCH)
		return LP_NO_MATCH;
	while (i-- > 0)
		if (lp_tok_live(lx, i))
			return i;
	return LP_NO_MATCH;
}

int lp_tok_macro_like(const struct lp_lexed *lx, size_t i)
{
	const struct lp_token *t = &lx->tok[i];
	size_t k;
	int letters = 0;

	if (t->kind != LP_TOK_IDENT)
		return 0;
	for (k = t->start; k < t->end; k++) {
		char c = lx->buf[k];

		if (c >= 'a' && c <= 'z')
			return 0;
		letters += c >= 'A' && c <= 'Z';
	}
	return letters > 1;
}

/* An identifier that may be an attribute macro: not a C keyword. */
static int attr_word(const struct lp_lexed *lx, size_t i)
{
	return lx->tok[i].kind == LP_TOK_IDENT && !lp_tok_keyword(lx, i);
}

static int is_matched(const struct lp_lexed *lx, size_t i, const char *s)
{
	return i != LP_NO_MATCH && lp_tok_is(lx, i, s) &&
	       lx->tok[i].match != LP_NO_MATCH;
}

/* The words whose parentheses hold attributes, not parameters. */
static int attribute_keyword(const struct lp_lexed *lx, size_t i)
{
	static const char *const kw[] = {
		"__attribute__", "__attribute", "__declspec", "alignas",
		"_Alignas", "__alignas",
	};
	return lp_tok_is_any(lx, i, kw, sizeof(kw) / sizeof(kw[0]));
}

/*
 * A word that starts a declaration: never between a parameter list and
 * a body, so `IGNORE("-Wx") int f(int e) {` (a file-scope macro call, no
 * ';') is f's definition, not IGNORE's with words after its list.
 */
static int declaration_word(const struct lp_lexed *lx, size_t i)
{
	static const char *const w[] = {
		"int", "char", "short", "long", "unsigned", "signed", "void",
		"float", "double", "bool", "_Bool", "auto", "static", "inline",
		"extern", "struct", "union", "enum", "class", "typename",
		"virtual", "explicit", "friend", "typedef", "register",
	};
	return lp_tok_is_any(lx, i, w, sizeof(w) / sizeof(w[0]));
}

/* The words whose parentheses hold a type: "decltype(auto) f(...) {". */
static int type_keyword(const struct lp_lexed *lx, size_t i)
{
	static const char *const kw[] = {
		"decltype", "__decltype", "typeof", "__typeof__", "__typeof",
		"_Atomic",
	};
	return lp_tok_is_any(lx, i, kw, sizeof(kw) / sizeof(kw[0]));
}

/*
 * True when the identifier at @i follows a parameter list, maybe through
 * other such words: ") A B" or ") A(x) B".  "struct s {" and "= {" do not,
 * nor does a return type's "decltype(auto) f".
 */
static int after_params(const struct lp_lexed *lx, size_t i)
{
	size_t k = lp_tok_prev_live(lx, i);

	if (declaration_word(lx, i))
		return 0;
	while (k != LP_NO_MATCH) {
		if (is_matched(lx, k, ")")) {
			size_t b = lp_tok_prev_live(lx, lx->tok[k].match);

			/*
			 * __attribute__((noinline)) is no parameter list: in
			 * "__attribute__((noinline)) static long scan(long n)"
			 * scan() is the function, not an attribute after one
			 */
			if (b != LP_NO_MATCH && attribute_keyword(lx, b)) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			if (b != LP_NO_MATCH && type_keyword(lx, b))
				return 0;
			/* "A(x)" before us is another attribute macro */
			if (b != LP_NO_MATCH && attr_word(lx, b) &&
			    lp_tok_prev_live(lx, b) != LP_NO_MATCH &&
			    lp_tok_is(lx, lp_tok_prev_live(lx, b), ")")) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			return 1;
		}
		if (!attr_word(lx, k) || declaration_word(lx, k))
			return 0;
		k = lp_tok_prev_live(lx, k);
	}
	return 0;
}

static int qualifier(const struct lp_lexed *lx, size_t k)
{
	static const char *const q[] = {
		"const", "override", "final", "noexcept", "volatile", "&",
		"&&", "mutable", "constexpr", "try",
	};
	return lp_tok_is_any(lx, k, q, sizeof(q) / sizeof(q[0]));
}

/*
 * From the token before a '{', back over what may stand between a
 * parameter list and a body: attributes, qualifiers, attribute macros.
 */
static size_t skip_trailers(const struct lp_lexed *lx, size_t k)
{
	while (k != LP_NO_MATCH) {
		if (is_matched(lx, k, ")")) {
			size_t b = lp_tok_prev_live(lx, lx->tok[k].match);

			if (b != LP_NO_MATCH &&
			    (lp_tok_is(lx, b, "__attribute__") ||
			     lp_tok_is(lx, b, "__attribute") ||
			     lp_tok_is(lx, b, "noexcept") ||
			     lp_tok_is(lx, b, "throw") ||
			     lp_tok_is(lx, b, "__declspec"))) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			/* ") ATTR(x) {": a project's attribute macro */
			if (b != LP_NO_MATCH && attr_word(lx, b) &&
			    after_params(lx, b)) {
				k = lp_tok_prev_live(lx, b);
				continue;
			}
			return k;
		}
		if (qualifier(lx, k)) {
			k = lp_tok_prev_live(lx, k);
			continue;
		}
		/* ") mi_attr_noexcept {", ") __THROW {" */
		if (attr_word(lx, k) && after_params(lx, k)) {
			k = lp_tok_prev_live(lx, k);
			continue;
		}
		return k;
	}
	return k;
}

/*
 * A constructor's member initialisers, ") : a(x), b{y} {": from the last
 * initialiser's closing bracket back to the parameters' ')'.
 */
static size_t skip_initialisers(const struct lp_lexed *lx, size_t k)
{
	while (is_matched(lx, k, ")") || is_matched(lx, k, "}")) {
		size_t b = lp_tok_prev_live(lx, lx->tok[k].match);
		size_t c = lp_tok_prev_live(lx, b);

		if (b == LP_NO_MATCH || lx->tok[b].kind != LP_TOK_IDENT ||
		    c == LP_NO_MATCH)
			return k;
		if (lp_tok_is(lx, c, ",")) {
			k = lp_tok_prev_live(lx, c);
			continue;
		}
		if (lp_tok_is(lx, c, ":"))
			return skip_trailers(lx, lp_tok_prev_live(lx, c));
		return k;
	}
	return k;
}

/* Back over "<...>" ending at @k, to the token before its '<'. */
static size_t skip_template_args(const struct lp_lexed *lx, size_t k)
{
	int depth = 0;

	for (; k != LP_NO_MATCH; k = lp_tok_prev_live(lx, k)) {
		depth += lp_tok_is(lx, k, ">") - lp_tok_is(lx, k, "<");
		depth += 2 * lp_tok_is(lx, k, ">>");
		if (!depth)
			return lp_tok_prev_live(lx, k);
		if (lp_tok_is(lx, k, ";") || lp_tok_is(lx, k, "{"))
			return LP_NO_MATCH;
	}
	return LP_NO_MATCH;
}

/* Joins the spellings of tokens [from, to]. */
static char *join_tokens(const struct lp_lexed *lx, size_t from, size_t to)
{
	size_t n = 1, i;
	char *s, *p;

	for (i = from; i <= to; i++)
		n += lx->tok[i].end - lx->tok[i].start;
	s = p = lp_xmalloc(n);
	for (i = from; i <= to; i++) {
		char *t = lp_tok_dup(lx, i);

		p = stpcpy(p, t);
		free(t);
	}
	return s;
}

/*
 * The name before the parameters whose '(' is @open: "f", "A::f" (as
 * "f"), "~A", "operator==", "operator()", "f<int>" (as "f"), or the
 * macro of "PREFIX(f)(...)".  @return : the name to free, with its
 * token in *@tok and *@macro set when a macro builds it; or NULL.
 */
static char *name_before(const struct lp_lexed *lx, size_t open, size_t *tok,
			 int *macro)
{
	size_t k = lp_tok_prev_live(lx, open), b, i;

	*macro = 0;
	if (k == LP_NO_MATCH)
		return NULL;
	/* operator==, operator(), operator[], operator new */
	for (b = k, i = 0; b != LP_NO_MATCH && i < 3;
	     b = lp_tok_prev_live(lx, b), i++)
		if (lp_tok_is(lx, b, "operator")) {
			*tok = b;
			return join_tokens(lx, b, k);
		}
	if (lp_tok_is(lx, k, ">"))
		k = skip_template_args(lx, k);
	if (k != LP_NO_MATCH && is_matched(lx, k, ")")) {
		b = lp_tok_prev_live(lx, lx->tok[k].match);
		if (b == LP_NO_MATCH || !attr_word(lx, b))
			return NULL;
		*macro = 1;
		*tok = b;
		return lp_tok_dup(lx, b);
	}
	if (k == LP_NO_MATCH || !attr_word(lx, k))
		return NULL;
	*tok = k;
	b = lp_tok_prev_live(lx, k);
	if (b != LP_NO_MATCH && lp_tok_is(lx, b, "~")) {
		char *n = lp_tok_dup(lx, k), *s = lp_xstrfmt("~%s", n);

		free(n);
		*tok = b;
		return s;
	}
	return lp_tok_dup(lx, k);
}

static void add_func(struct lp_srcfile *f, size_t *afuncs, char *name,
		     size_t name_tok, size_t open, size_t close, int macro)
{
	struct lp_func *fn;

	if (f->nfuncs == *afuncs) {
		*afuncs = *afuncs ? 2 * *afuncs : 32;
		f->funcs = lp_xrealloc(f->funcs, *afuncs * sizeof(*f->funcs));
	}
	fn = &f->funcs[f->nfuncs++];
	memset(fn, 0, sizeof(*fn));
	fn->name = name;
	fn->name_tok = name_tok;
	fn->open = open;
	fn->close = close;
	fn->macro_name = macro;
}

/*
 * From the token @k before a body, back over a trailer that @word
 * starts to the token before @word; @k itself where there is none.
 * Groups (decltype(x), <T>) are jumped over; a ';', '=' or brace first
 * means no such trailer.
 */
static size_t back_past(const struct lp_lexed *lx, size_t k, const char *word)
{
	size_t i = k;
	int n;

	for (n = 0; i != LP_NO_MATCH && n < 64; n++) {
		if (lp_tok_is(lx, i, word))
			return lp_tok_prev_live(lx, i);
		if (lp_tok_is_any(lx, i, (const char *const[]){ ";", "=",
				  "{", "}" }, 4))
			return k;
		if ((is_matched(lx, i, ")") || is_matched(lx, i, "]")) &&
		    lx->tok[i].match != LP_NO_MATCH)
			i = lx->tok[i].match;
		else if (lp_tok_is(lx, i, ">"))
			i = skip_template_args(lx, i);
		if (i == LP_NO_MATCH)
			return k;
		i = lp_tok_prev_live(lx, i);
	}
	return k;
}

/* The live token after @i, or LP_NO_MATCH. */
static size_t next_live(const struct lp_lexed *lx, size_t i)
{
	while (++i < lx->nr)
		if (lp_tok_live(lx, i))
			return i;
	return LP_NO_MATCH;
}

/*
 * An old-style definition's declarations of its parameters, "f(a, p)
 * int a; char *p; {": from the ';' @k before the body back to the
 * parameters' ')', which a name precedes and a type word follows (a
 * declarator's "(*fn)" is followed by its own parameters); @k itself
 * where the tokens are no such declarations.
 */
static size_t skip_old_style(const struct lp_lexed *lx, size_t k)
{
	size_t i = k, open, b, next;
	int n;

	if (k == LP_NO_MATCH || !lp_tok_is(lx, k, ";"))
		return k;
	for (n = 0; i != LP_NO_MATCH && n < 256; n++) {
		if (is_matched(lx, i, ")")) {
			open = lx->tok[i].match;
			b = lp_tok_prev_live(lx, open);
			next = next_live(lx, i);
			if (b != LP_NO_MATCH && attr_word(lx, b) &&
			    next != LP_NO_MATCH &&
			    lx->tok[next].kind == LP_TOK_IDENT)
				return i;
			i = open;
		} else if (is_matched(lx, i, "]")) {
			i = lx->tok[i].match;
		} else if (lx->tok[i].kind != LP_TOK_IDENT &&
			   !lp_tok_is_any(lx, i, (const char *const[]){ "*",
					  ",", ";" }, 3)) {
			return k;
		}
		i = lp_tok_prev_live(lx, i);
	}
	return k;
}

/* Back from @k over a trailing return type, trailers, initialisers. */
static size_t past_return_and_trailers(const struct lp_lexed *lx, size_t k)
{
	return skip_initialisers(lx, skip_trailers(lx,
						   back_past(lx, k, "->")));
}

/*
 * The ')' of a function's parameters, from the token @k before its body,
 * back over what may stand between: a requires-clause, "f(T x) requires
 * C<T> {" (but not a template's, "requires C<T> int f(T x) {"), a
 * trailing return type, "auto S<T>::put(A... a) -> int {", qualifiers,
 * attributes, member initialisers, an old-style definition's
 * declarations.  @return : that token, or another where there is no
 * such ')'.
 */
static size_t params_close(const struct lp_lexed *lx, size_t k)
{
	size_t r = skip_old_style(lx, k);

	if (r != k)
		return r;
	r = back_past(lx, k, "requires");
	if (r != k) {
		r = past_return_and_trailers(lx, r);
		if (is_matched(lx, r, ")"))
			return r;
	}
	return past_return_and_trailers(lx, k);
}

/*
 * The '{' at @open opens a namespace (`namespace a::b {`, `namespace {`):
 * no function's body, though words and a macro call before it may read
 * as one's trailers (scnlib's `SCN_CLANG_IGNORE(...) SCN_CLANG_POP
 * namespace scn {`).
 */
static int namespace_body(const struct lp_lexed *lx, size_t open)
{
	size_t k = lp_tok_prev_live(lx, open);

	while (k != LP_NO_MATCH && !lp_tok_is(lx, k, "namespace") &&
	       (attr_word(lx, k) || lp_tok_is(lx, k, "::")))
		k = lp_tok_prev_live(lx, k);
	return k != LP_NO_MATCH && lp_tok_is(lx, k, "namespace");
}

/*
 * Function definitions: "name ( ... ) [qualifiers, attributes,
 * initialisers] {".  Any other brace is looked into (namespaces,
 * extern "C", class bodies with their members); a function's body is
 * not, so a lambda belongs to the function around it, as a profile
 * from the compiler has it.
 */
void lp_find_functions(struct lp_srcfile *f)
{
	const struct lp_lexed *lx = &f->lx;
	size_t i, afuncs = 0;

	for (i = 0; i < lx->nr; i++) {
		size_t k, name_tok = 0;
		char *name;
		int macro;

		if (!lp_tok_live(lx, i) || !is_matched(lx, i, "{") ||
		    namespace_body(lx, i))
			continue;
		k = params_close(lx, lp_tok_prev_live(lx, i));
		if (!is_matched(lx, k, ")"))
			continue;       /* not a body: look inside */
		name = name_before(lx, lx->tok[k].match, &name_tok, &macro);
		if (!name)
			continue;
		if (lx->tok[name_tok].kind == LP_TOK_IDENT &&
		    lp_tok_keyword(lx, name_tok) &&
		    !lp_tok_is(lx, name_tok, "operator")) {
			free(name);
			continue;
		}
		if (!macro && lp_tok_macro_like(lx, name_tok))
			macro = 1;      /* MATCH_FN(...): maybe a macro */
		add_func(f, &afuncs, name, name_tok, i, lx->tok[i].match,
			 macro);
		i = lx->tok[i].match;
	}
}

