/*
 * u-cc-stmt.c - the condition of an if or a switch as tools/cc/stmt.c
 * reads it: past an init-statement, the name a declaration declares,
 * and why some have no place for a test
 */
#include <stdlib.h>
#include <string.h>

#include "cc/stmt.h"
#include "fix/lexer.h"
#include "test.h"

/*
 * The condition of the first '(' of @src, as "from-text|name|why": the
 * text from the condition's first token to the ')', the declared name
 * ('-' for none; "+init" after it when an init-statement ends at the
 * ';' before the declaration), and the reason ('-' for none).
 */
static const char *cond_of(const char *src)
{
	static char out[256];
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_stmt_cond c;
	size_t open;
	char *text, *name = NULL;

	lp_lex(&lx, src, strlen(src));
	for (open = 0; open < lx.nr && !lp_tok_is(&lx, open, "("); open++)
		;
	lp_stmt_condition(&lx, open + 1, lx.tok[open].match - 1, &c);
	text = c.from < lx.tok[open].match ?
	       lp_tok_text(&lx, c.from, lx.tok[open].match) : NULL;
	if (c.name != LP_NO_MATCH)
		name = lp_tok_dup(&lx, c.name);
	snprintf(out, sizeof(out), "%s|%s%s|%s", text ? text : "",
		 name ? name : "-",
		 c.init == LP_NO_MATCH ? "" :
		 c.init + 1 == c.from && lp_tok_is(&lx, c.init, ";") ?
		 "+init" : "+bad init", c.why ? c.why : "-");
	free(text);
	free(name);
	lp_lexed_release(&lx);
	return out;
}

static void test_condition__expressions_and_init(void)
{
	LP_CHECK_STR(cond_of("if (a == b)"), "a == b|-|-");
	LP_CHECK_STR(cond_of("if (x = f(); x > 2)"), "x > 2|-|-");
	/* a ';' inside a lambda's body or a call is not the init's end */
	LP_CHECK_STR(cond_of("if (auto g = [] { return 1; }; g())"),
		     "g()|-|-");
	LP_CHECK_STR(cond_of("switch (int k = i % 4; k)"), "k|-|-");
	/* assignments and member stores declare nothing */
	LP_CHECK_STR(cond_of("if (a.b = c)"), "a.b = c|-|-");
	LP_CHECK_STR(cond_of("if (*p = c)"), "*p = c|-|-");
	LP_CHECK_STR(cond_of("if (S{1})"), "S{1}|-|-");
	/* `a & B{1}` may be a declaration of a reference too: read as an
	 * expression, which the copy can test either way */
	LP_CHECK_STR(cond_of("if (flags & Bit{1})"), "flags & Bit{1}|-|-");
	LP_CHECK_STR(cond_of("if (a && T{})"), "a && T{}|-|-");
	LP_CHECK_STR(cond_of("if (new Node{1})"), "new Node{1}|-|-");
}

static void test_condition__declarations(void)
{
	LP_CHECK_STR(cond_of("if (int y = x % 5)"), "int y = x % 5|y|-");
	LP_CHECK_STR(cond_of("if (auto *p = find(i))"),
		     "auto *p = find(i)|p|-");
	LP_CHECK_STR(cond_of("if (int q{i > 2})"), "int q{i > 2}|q|-");
	LP_CHECK_STR(cond_of("switch (std::size_t n = len())"),
		     "std::size_t n = len()|n|-");
	LP_CHECK_STR(cond_of("if (vec<int> v = get())"),
		     "vec<int> v = get()|v|-");
	LP_CHECK_STR(cond_of("if (const Node *n = find())"),
		     "const Node *n = find()|n|-");
	LP_CHECK_STR(cond_of("if (auto &&r = f())"), "auto &&r = f()|r|-");
}

/* the copy tests it in an if of its own: `if (init; true) if (T b = a;` */
static void test_condition__declaration_after_init(void)
{
	LP_CHECK_STR(cond_of("if (int a = x; int b = a)"),
		     "int b = a|b+init|-");
	LP_CHECK_STR(cond_of("switch (lock l(m); int k = next())"),
		     "int k = next()|k+init|-");
	LP_CHECK_STR(cond_of("if (auto g = [] { int t; return 1; }; "
			     "auto *p = g() ? q : r)"),
		     "auto *p = g() ? q : r|p+init|-");
	/* an expression after the init needs no if of its own */
	LP_CHECK_STR(cond_of("if (int a = x; a > 1)"), "a > 1|-|-");
}

static void test_condition__no_place_for_a_test(void)
{
	LP_CHECK_STR(cond_of("if (auto [a, b] = f())"),
		     "auto [a, b] = f()|]|"
		     "the condition is a structured binding");
	LP_CHECK_STR(cond_of("if (auto& [k, v] = *it)"),
		     "auto& [k, v] = *it|]|"
		     "the condition is a structured binding");
	LP_CHECK_STR(cond_of("if (x;)"), "|-|no condition");
	LP_CHECK_STR(cond_of("if (a\n#ifdef B\n|| b\n#endif\n)"),
		     "a #ifdef B || b #endif|-|"
		     "a directive inside the condition");
	LP_CHECK_STR(cond_of("if ()"), "|-|no condition");
}

int main(void)
{
	LP_TEST(test_condition__expressions_and_init);
	LP_TEST(test_condition__declarations);
	LP_TEST(test_condition__declaration_after_init);
	LP_TEST(test_condition__no_place_for_a_test);
	return lp_test_done();
}
