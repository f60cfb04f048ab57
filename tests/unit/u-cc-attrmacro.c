/*
 * u-cc-attrmacro.c - [[likely]]/[[unlikely]] spelled by a macro
 * (tools/cc/attrmacro.c): which #defines make a name one, and where a
 * use counts, read against the compiler's preprocessed text
 */
#include <stdlib.h>
#include <string.h>

#include "cc/attrmacro.h"
#include "fix/lexer.h"
#include "test.h"

/* The names @src's #defines make attributes, as "NAME:form:way|...". */
static const char *names_of(const char *src)
{
	static char out[256];
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_attr_macros m = LP_ATTR_MACROS_INIT;
	size_t k;

	lp_lex(&lx, src, strlen(src));
	lp_attr_macros_collect(&m, &lx);
	out[0] = '\0';
	for (k = 0; k < m.nr; k++) {
		if (k)
			strcat(out, "|");
		strcat(out, m.v[k].name);
		strcat(out, m.v[k].funclike ? ":f" : ":o");
		strcat(out, m.v[k].likely < 0 ? ":?" :
			    m.v[k].likely ? ":1" : ":0");
	}
	lp_attr_macros_release(&m);
	lp_lexed_release(&lx);
	return out;
}

static void test_collect__forms(void)
{
	LP_CHECK_STR(names_of("#define U [[unlikely]]\n"
			      "#define L [ [ likely ] ]\n"
			      "#define C(...) (__VA_ARGS__) [[likely]]\n"
			      "#define P(x) (x) [[unlikely]]\n"),
		     "U:o:0|L:o:1|C:f:1|P:f:0");
	/* an empty alternative or a wider body is no attribute macro */
	LP_CHECK_STR(names_of("#define U\n#define V [[unlikely]] x\n"
			      "#define W(x) (y) [[likely]]\n"
			      "#define X(a, b) (a) [[likely]]\n"), "");
	/* dead groups and comments say nothing; two ways are unsure */
	LP_CHECK_STR(names_of("#if 0\n#define D [[likely]]\n#endif\n"
			      "// #define E [[likely]]\n"
			      "#ifdef A\n#define T [[likely]]\n#else\n"
			      "#define T [[unlikely]]\n#endif\n"), "T:o:?");
}

/*
 * The uses in @src, read against the compiler's text @pre, as
 * "line:way|..." ('-' where not counted), for file @file.
 */
static const char *uses_of(const char *defs, const char *pre,
			   const char *src, const char *file)
{
	static char out[256];
	struct lp_lexed dl = LP_LEXED_INIT, lx = LP_LEXED_INIT;
	struct lp_attr_macros m = LP_ATTR_MACROS_INIT;
	struct lp_attr_use *u;
	size_t n, k;

	lp_lex(&dl, defs, strlen(defs));
	lp_attr_macros_collect(&m, &dl);
	lp_attr_macros_resolve(&m, pre, strlen(pre));
	lp_lex(&lx, src, strlen(src));
	n = lp_attr_macro_uses(&m, &lx, file, &u);
	out[0] = '\0';
	for (k = 0; k < n; k++) {
		char one[32];

		snprintf(one, sizeof(one), "%s%u:%s", k ? "|" : "",
			 lx.tok[u[k].tok].line,
			 u[k].why ? "-" : u[k].likely ? "1" : "0");
		strcat(out, one);
	}
	free(u);
	lp_attr_macros_release(&m);
	lp_lexed_release(&lx);
	lp_lexed_release(&dl);
	return out;
}

static const char defs[] = "#define U [[unlikely]]\n#define L [[likely]]\n"
			   "#define C(...) (__VA_ARGS__) [[likely]]\n";

/* Each use takes the attribute the compiler put on its line. */
static void test_uses__matched_by_line(void)
{
	static const char pre[] =
		"# 0 \"a.cc\"\n"
		"# 1 \"/usr/include/x.h\" 1 3\n"
		"int s(int v) { if (v) [[likely]] return 1; return 0; }\n"
		"# 2 \"a.cc\" 2\n"
		"int f(int v) { if (v) [[unlikely]] return 1;\n"
		"  if (v > 2) [[likely]] return 2; else [[unlikely]] return 3;"
		"\n  if (v > 3) [[likely]] return 4; }\n";
	static const char src[] =
		"#include <x.h>\n"
		"int f(int v) { if (v) U return 1;\n"
		"  if (v > 2) L return 2; else U return 3;\n"
		"  if C(v > 3) return 4; }\n";

	LP_CHECK_STR(uses_of(defs, pre, src, NULL), "2:0|3:1|3:0|4:1");
}

/*
 * A line whose attributes the compiler holds otherwise than the source
 * writes them is not counted; one where it holds none spelled nothing
 * in this build; a line of another file is matched by that file's name.
 */
static void test_uses__mismatch_nothing_and_headers(void)
{
	static const char pre[] =
		"# 1 \"a.cc\"\n"
		"int f(int v) { if (v) [[likely]] return 1;\n"
		"  if (v > 2) return 2;\n"
		"  if (v > 3) [[likely]] [[likely]] return 4; }\n"
		"# 1 \"inc/h.h\" 1\n"
		"int g(int v) { if (v) [[likely]] return 1; return 0; }\n";
	static const char src[] =
		"int f(int v) { if (v) U return 1;\n"
		"  if (v > 2) U return 2;\n"
		"  if (v > 3) L return 4; }\n";
	static const char header[] =
		"int g(int v) { if (v) L return 1; return 0; }\n";

	/* line 1: the compiler's way, whatever U's definition here says */
	LP_CHECK_STR(uses_of(defs, pre, src, NULL), "1:1|3:-");
	LP_CHECK_STR(uses_of(defs, pre, header, "inc/h.h"), "1:1");
	/* a file the compiler's text does not name has no hint */
	LP_CHECK_STR(uses_of(defs, pre, header, "other.h"), "");
}

/* The other way's name, in the same form. */
static void test_partner__same_form(void)
{
	static const char src[] =
		"#define MY_UNLIKELY [[unlikely]]\n"
		"#define MY_LIKELY [[likely]]\n"
		"#define Unlikely_(...) (__VA_ARGS__) [[unlikely]]\n"
		"#define Likely_ [[likely]]\n";
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_attr_macros m = LP_ATTR_MACROS_INIT;
	const char *p;

	lp_lex(&lx, src, strlen(src));
	lp_attr_macros_collect(&m, &lx);
	p = lp_attr_macro_partner(&m, "MY_UNLIKELY");
	LP_CHECK_STR(p ? p : "(none)", "MY_LIKELY");
	p = lp_attr_macro_partner(&m, "MY_LIKELY");
	LP_CHECK_STR(p ? p : "(none)", "MY_UNLIKELY");
	/* Likely_ takes no condition where Unlikely_ does */
	LP_CHECK(lp_attr_macro_partner(&m, "Unlikely_") == NULL);
	lp_attr_macros_release(&m);
	lp_lexed_release(&lx);
}

/* Whether @src has a word where an attribute's macro would stand. */
static int shape_of(const char *src)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	int shape;

	lp_lex(&lx, src, strlen(src));
	shape = lp_attr_macro_use_shape(&lx);
	lp_lexed_release(&lx);
	return shape;
}

static void test_use_shape__words_before_statements(void)
{
	LP_CHECK_INT(shape_of("void f(int c) { if (c) UN { } }"), 1);
	LP_CHECK_INT(shape_of("void f(int c) { if (c) UN return; }"), 1);
	LP_CHECK_INT(shape_of("void f(int c, int i) { if (c) UN ++i; }"), 1);
	LP_CHECK_INT(shape_of("void f(int *p) { while (*p) U_ *p++ = 0; }"),
		     1);
	LP_CHECK_INT(shape_of("int f(int c) { if (c) UN !g(); else LK ~c; }"),
		     1);
	LP_CHECK_INT(shape_of("void f(int c) { if Likely(c) g(); }"), 1);
	LP_CHECK_INT(shape_of("int f(int c) { if (c) { UN return 1; } }"), 1);
	LP_CHECK_INT(shape_of("int f(int c) { if (c) { BUG(); } }"), 0);
	LP_CHECK_INT(shape_of("int f(int c) { { UN return 1; } }"), 0);
	LP_CHECK_INT(shape_of("void f(int c) { switch (c) { UN case 1:; } }"),
		     1);
	LP_CHECK_INT(shape_of("void f(int c) {switch (c) { case 1: UN g(); }}"),
		     1);
	/* a macro that is the statement, or an operand: no word in front */
	LP_CHECK_INT(shape_of("void f(int c) { if (c) BUG(); if (c) OOPS; }"),
		     0);
	LP_CHECK_INT(shape_of("void f(int c) { if (c) N++; if (c) M = 1; }"),
		     0);
	LP_CHECK_INT(shape_of("void f(int c) { if (c) A * 2; }"), 0);
	LP_CHECK_INT(shape_of("void f(int c) { if (c) x ++i; }"), 0);
}

int main(void)
{
	LP_TEST(test_collect__forms);
	LP_TEST(test_uses__matched_by_line);
	LP_TEST(test_uses__mismatch_nothing_and_headers);
	LP_TEST(test_partner__same_form);
	LP_TEST(test_use_shape__words_before_statements);
	return lp_test_done();
}
