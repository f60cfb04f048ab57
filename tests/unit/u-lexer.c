/*
 * u-lexer.c - the lexer sees C as the compiler does: comments, strings,
 * character literals, continuations, directives, #if 0, CRLF, brackets
 */
#include <stdlib.h>
#include <string.h>

#include "fix/lexer.h"
#include "test.h"

static struct lp_lexed lx;

static void lex(const char *s)
{
	lp_lexed_release(&lx);
	lp_lex(&lx, s, strlen(s));
}

/* How many live identifier tokens are spelled @name. */
static int count_live(const char *name)
{
	size_t i;
	int n = 0;

	for (i = 0; i < lx.nr; i++)
		if (lx.tok[i].kind == LP_TOK_IDENT &&
		    !(lx.tok[i].flags & LP_TOKF_DEAD) &&
		    lp_tok_is(&lx, i, name))
			n++;
	return n;
}

static size_t find(const char *name, int nth)
{
	size_t i;

	for (i = 0; i < lx.nr; i++)
		if (lp_tok_is(&lx, i, name) && nth-- == 0)
			return i;
	return LP_NO_MATCH;
}

static void test_tokens__offsets_and_punctuators(void)
{
	lex("a->b <<= 0x1fUL...");
	LP_CHECK_INT(lx.nr, 5);
	LP_CHECK(lp_tok_is(&lx, 1, "->"));
	LP_CHECK(lp_tok_is(&lx, 3, "<<="));
	LP_CHECK_INT(lx.tok[4].kind, LP_TOK_NUMBER);
	LP_CHECK_INT(lx.tok[3].start, 5);
	LP_CHECK_INT(lx.tok[3].end, 8);
}

static void test_not_code__comments_strings_chars(void)
{
	lex("/* likely(a) */ s = \"likely(\\\"b)\"; c = '\\''; likely(d);\n"
	    "// likely(e) \\\n   likely(f) still a comment\n"
	    "x = L\"likely(\" u8\"likely(\";\n");
	LP_CHECK_INT(count_live("likely"), 1);
	LP_CHECK_INT(lx.tok[find("likely", 0)].line, 1);
}

static void test_not_code__unterminated_quote_ends_with_line(void)
{
	lex("#if 0\ndon't likely(a)\n#endif\nlikely(b);\n");
	LP_CHECK_INT(count_live("likely"), 1);
	LP_CHECK_INT(lx.tok[find("likely", 0)].line, 4);
}

static void test_groups__if0_else_if1(void)
{
	lex("#if 0\nlikely(a);\n#else\nlikely(b);\n#endif\n"
	    "#if 1\nlikely(c);\n#else\nlikely(d);\n#endif\n"
	    "#ifdef X\nlikely(e);\n#else\nlikely(f);\n#endif\n");
	LP_CHECK_INT(count_live("likely"), 4);
	LP_CHECK(lx.tok[find("a", 0)].flags & LP_TOKF_DEAD);
	LP_CHECK(!(lx.tok[find("b", 0)].flags & LP_TOKF_DEAD));
	LP_CHECK(lx.tok[find("d", 0)].flags & LP_TOKF_DEAD);
	LP_CHECK(!(lx.tok[find("f", 0)].flags & LP_TOKF_DEAD));
}

static void test_directives__define_with_continuation(void)
{
	size_t i;

	lex("#define CHECK(c) \\\n\tif (unlikely(c)) \\\r\n\t\tbug()\nx();\n");
	i = find("unlikely", 0);
	LP_CHECK(lx.tok[i].flags & LP_TOKF_PP);
	LP_CHECK_INT(lx.tok[i].dir, 0);
	LP_CHECK_INT(lx.tok[i].line, 2);
	LP_CHECK(lx.tok[find("bug", 0)].flags & LP_TOKF_PP);
	LP_CHECK(!(lx.tok[find("x", 0)].flags & LP_TOKF_PP));
	LP_CHECK_INT(lx.tok[find("x", 0)].line, 4);
}

static void test_directives__spliced_identifier(void)
{
	size_t i;

	lex("if (lik\\\nely(a))\n");
	i = find("likely", 0);
	LP_CHECK(i != LP_NO_MATCH);
	if (i != LP_NO_MATCH) {
		LP_CHECK(lx.tok[i].flags & LP_TOKF_SPLICED);
		LP_CHECK_INT(lx.tok[i].last_line, 2);
	}
}

static void test_lines__crlf(void)
{
	lex("a\r\nb\r\n\r\nc");
	LP_CHECK_INT(lx.nr, 3);
	LP_CHECK_INT(lx.tok[2].line, 4);
	LP_CHECK_INT(lx.tok[1].end, 4);
}

/* Both branches of an #ifdef open a brace; the first branch goes on. */
static void test_brackets__across_ifdef_branches(void)
{
	size_t open, close;

	lex("void f(void)\n{\n#ifdef A\n\tif (x) {\n#else\n\tif (y) {\n"
	    "#endif\n\t\tz();\n\t}\n}\n");
	open = find("{", 1);
	close = find("}", 0);
	LP_CHECK_INT(lx.tok[open].match, close);
	LP_CHECK_INT(lx.tok[find("{", 0)].match, find("}", 1));
}

static void test_text__joins_with_spaces(void)
{
	char *s;

	lex("a  +/* c */b\n( c )");
	s = lp_tok_text(&lx, 0, lx.nr);
	LP_CHECK_STR(s, "a + b ( c )");
	free(s);
}

static void test_args__split_and_bool(void)
{
	size_t from[4], to[4];

	lex("__builtin_expect(f(a, b), (1L))");
	LP_CHECK_INT(lp_tok_args(&lx, 1, from, to, 4), 2);
	LP_CHECK_INT(to[0] - from[0], 6);
	LP_CHECK_INT(lp_tok_bool(&lx, from[1], to[1]), 1);
	lex("x(0, !0, true, n)");
	lp_tok_args(&lx, 1, from, to, 4);
	LP_CHECK_INT(lp_tok_bool(&lx, from[0], to[0]), 0);
	LP_CHECK_INT(lp_tok_bool(&lx, from[1], to[1]), 1);
	LP_CHECK_INT(lp_tok_bool(&lx, from[2], to[2]), 1);
	LP_CHECK_INT(lp_tok_bool(&lx, from[3], to[3]), -1);
	/*
	 * Found by fuzz-lexer (tests/fuzz/corpus/lexer/args-past-close.c):
	 * the inner group is paired with the #else branch's ')', after the
	 * call's own; its argument ended there, past the call.
	 */
	lex("((\n#if\n))\n#else\n)\n#endif\n");
	LP_CHECK_INT(lx.tok[0].match, 5);
	LP_CHECK_INT(lp_tok_args(&lx, 0, from, to, 4), 1);
	LP_CHECK_INT(from[0], 1);
	LP_CHECK_INT(to[0], 5);
}

int main(void)
{
	LP_TEST(test_tokens__offsets_and_punctuators);
	LP_TEST(test_not_code__comments_strings_chars);
	LP_TEST(test_not_code__unterminated_quote_ends_with_line);
	LP_TEST(test_groups__if0_else_if1);
	LP_TEST(test_directives__define_with_continuation);
	LP_TEST(test_directives__spliced_identifier);
	LP_TEST(test_lines__crlf);
	LP_TEST(test_brackets__across_ifdef_branches);
	LP_TEST(test_text__joins_with_spaces);
	LP_TEST(test_args__split_and_bool);
	lp_lexed_release(&lx);
	return lp_test_done();
}
