/*
 * u-rewrite.c - the edits of remove and flip, on the seeds' lines and on
 * the shapes that precedence, comments and macros give
 */
#include <stdlib.h>
#include <string.h>

#include "fix/rewrite.h"
#include "test.h"

static struct lp_hint hint_likely = {
	"likely", 1, 1, 0, -1, 1, 0, 0, -1, NULL, NULL, NULL
};
static struct lp_hint hint_unlikely = {
	"unlikely", 0, 1, 0, -1, 1, 0, 0, -1, NULL, NULL, NULL
};
static struct lp_hint hint_expect = {
	"__builtin_expect", -0x7fffffffL - 1, 2, 0, 1, 0, 0, 0, -1, NULL, NULL,
	NULL
};
static struct lp_hint hint_prob = {
	"__builtin_expect_with_probability", -0x7fffffffL - 1, 3, 0, 1, 0, 0,
	1, 2, NULL, NULL, NULL
};

static char *result;

/* The edited text, or "REFUSED: why", into result. */
static void outcome(int failed, char *why, struct lp_edits *e,
		    const char *src)
{
	size_t len;

	if (failed) {
		result = malloc(strlen(why) + 10);
		sprintf(result, "REFUSED: %s", why);
		free(why);
	} else {
		result = lp_edits_apply(e, src, strlen(src), &len);
	}
}

/*
 * Applies @act to the @nth call of @h in @src and returns the new text,
 * or "REFUSED: why".
 */
static const char *edit_nth(const char *src, const struct lp_hint *h,
			    enum lp_fix_action act, const char *partner,
			    int nth)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_edits e = LP_EDITS_INIT;
	size_t i;
	char *why = NULL;

	free(result);
	result = NULL;
	lp_lex(&lx, src, strlen(src));
	for (i = 0; i < lx.nr; i++)
		if (lp_tok_is(&lx, i, h->name) &&
		    !(lx.tok[i].flags & LP_TOKF_DEAD) && nth-- == 0)
			break;
	if (i == lx.nr) {
		result = strdup("NOT FOUND");
	} else {
		int failed = lp_rewrite(&lx, i, h, act, partner, &e, &why);

		outcome(failed, why, &e, src);
	}
	lp_edits_release(&e);
	lp_lexed_release(&lx);
	return result;
}

static const char *edit(const char *src, const struct lp_hint *h,
			enum lp_fix_action act, const char *partner)
{
	return edit_nth(src, h, act, partner, 0);
}

#define REMOVE(src, h) edit(src, h, LP_FIX_REMOVE, NULL)

/* seed 002 */
static void test_seed__mapping_unevictable(void)
{
	LP_CHECK_STR(REMOVE("\tif (likely(mapping))\n", &hint_likely),
		     "\tif (mapping)\n");
}

/* seed 009: the redundant inner pair goes too */
static void test_seed__fget_light(void)
{
	LP_CHECK_STR(REMOVE("\tif (likely((atomic_read(&files->count) "
			    "== 1))) {\n",
			    &hint_likely),
		     "\tif (atomic_read(&files->count) == 1) {\n");
}

/* seed 011: a cast's parentheses are not around the whole */
static void test_seed__page_mapping(void)
{
	LP_CHECK_STR(REMOVE("\telse if (unlikely((unsigned long)mapping & "
			    "PAGE_MAPPING_ANON))\n", &hint_unlikely),
		     "\telse if ((unsigned long)mapping & PAGE_MAPPING_ANON)\n");
}

/* seeds 003 and 004: a flip swaps the name only */
static void test_seed__flips(void)
{
	LP_CHECK_STR(edit("\tif (likely(!(worker->flags & "
			  "WORKER_NOT_RUNNING)))\n",
			  &hint_likely, LP_FIX_FLIP, "unlikely"),
		     "\tif (unlikely(!(worker->flags & WORKER_NOT_RUNNING)))\n");
	LP_CHECK_STR(edit("\tif (unlikely(!rt_rq->rt_nr_running))\n",
			  &hint_unlikely, LP_FIX_FLIP, "likely"),
		     "\tif (likely(!rt_rq->rt_nr_running))\n");
}

static void test_precedence__operators_keep_parens(void)
{
	LP_CHECK_STR(REMOVE("x = !likely(a);", &hint_likely), "x = !(a);");
	LP_CHECK_STR(REMOVE("x = likely(a) + 1;", &hint_likely),
		     "x = (a) + 1;");
	LP_CHECK_STR(REMOVE("x = !likely((a));", &hint_likely), "x = !(a);");
	LP_CHECK_STR(REMOVE("if (a && unlikely(b || c))", &hint_unlikely),
		     "if (a && (b || c))");
	LP_CHECK_STR(REMOVE("y = (long)likely(p);", &hint_likely),
		     "y = (long)(p);");
}

static void test_precedence__whole_operands(void)
{
	LP_CHECK_STR(REMOVE("return likely(a == b);", &hint_likely),
		     "return a == b;");
	LP_CHECK_STR(REMOVE("f(x, unlikely(y), z);", &hint_unlikely),
		     "f(x, y, z);");
	LP_CHECK_STR(REMOVE("v = c ? likely(a) : b;", &hint_likely),
		     "v = c ? a : b;");
	LP_CHECK_STR(REMOVE("while (likely(n--))", &hint_likely),
		     "while (n--)");
	/* a comma inside must keep its parentheses in an argument */
	LP_CHECK_STR(REMOVE("f(likely((a, b)));", &hint_likely),
		     "f((a, b));");
}

static void test_layout__comments_and_lines_stay(void)
{
	LP_CHECK_STR(REMOVE("if (likely( x ))", &hint_likely), "if (x)");
	LP_CHECK_STR(REMOVE("if (unlikely(a &&\n\t     b)) /* rare */\n",
			    &hint_unlikely),
		     "if (a &&\n\t     b) /* rare */\n");
	LP_CHECK_STR(REMOVE("if (likely(/* hot */ p))", &hint_likely),
		     "if (/* hot */ p)");
	LP_CHECK_STR(REMOVE("if (unlikely(\n\t\terr))\r\n", &hint_unlikely),
		     "if (\n\t\terr)\r\n");
}

static void test_builtin__expect(void)
{
	LP_CHECK_STR(REMOVE("if (__builtin_expect(!!(p), 1))",
			    &hint_expect), "if (p)");
	LP_CHECK_STR(REMOVE("x = __builtin_expect(n, 0) + 1;", &hint_expect),
		     "x = (n) + 1;");
	LP_CHECK_STR(edit("if (__builtin_expect(p != 0, 1L))", &hint_expect,
			  LP_FIX_FLIP, NULL),
		     "if (__builtin_expect(p != 0, 0L))");
	LP_CHECK_STR(edit("if (__builtin_expect(p, true))", &hint_expect,
			  LP_FIX_FLIP, NULL),
		     "if (__builtin_expect(p, false))");
	LP_CHECK(!strncmp(edit("if (__builtin_expect(p, v))", &hint_expect,
			       LP_FIX_FLIP, NULL), "REFUSED", 7));
}

static void test_macro__body_edit(void)
{
	LP_CHECK_STR(REMOVE("#define CHECK(c) do { if (unlikely(c)) \\\n"
			    "\t\tbug(); } while (0)\n", &hint_unlikely),
		     "#define CHECK(c) do { if (c) \\\n"
		     "\t\tbug(); } while (0)\n");
	/* a body that is the call: keep parens, the macro is an operand */
	LP_CHECK_STR(REMOVE("#define HOT(x) likely(x)\n", &hint_likely),
		     "#define HOT(x) (x)\n");
}

static void test_lexer__not_code(void)
{
	/* the first "likely" that is a token is the one in code */
	LP_CHECK_STR(REMOVE("/* likely(a) */ s = \"likely(b)\"; c = 'l';\n"
			    "#if 0\nif (likely(d))\n#endif\n"
			    "if (likely(e))\n", &hint_likely),
		     "/* likely(a) */ s = \"likely(b)\"; c = 'l';\n"
		     "#if 0\nif (likely(d))\n#endif\n"
		     "if (e)\n");
}

static void test_nested__both(void)
{
	LP_CHECK_STR(edit_nth("if (likely(a && unlikely(b)))", &hint_unlikely,
			      LP_FIX_REMOVE, NULL, 0),
		     "if (likely(a && (b)))");
}

/*
 * Found by fuzz-lexer (tests/fuzz/corpus/lexer/if-else-brackets.c): where
 * #if branches close the call apart, the lexer pairs its '(' with the last
 * branch's ')', and a removal left the first branch one ')' too many.
 */
/* A restate writes the number over the argument, and nothing else. */
static const char *restate(const char *src, const struct lp_hint *h,
			   const char *prob)
{
	struct lp_lexed lx = LP_LEXED_INIT;
	struct lp_edits e = LP_EDITS_INIT;
	size_t i;
	char *why = NULL;
	int failed;

	free(result);
	result = NULL;
	lp_lex(&lx, src, strlen(src));
	for (i = 0; i < lx.nr && !lp_tok_is(&lx, i, h->name); i++)
		;
	failed = lp_rewrite_prob(&lx, i, h, prob, &e, &why);
	outcome(failed, why, &e, src);
	lp_edits_release(&e);
	lp_lexed_release(&lx);
	return result;
}

static void test_restate__number(void)
{
	static struct lp_hint body_number = {
		"mostly", 1, 1, 0, -1, 0, 0, 1, -1, NULL, NULL, NULL
	};

	LP_CHECK_STR(restate("if (__builtin_expect_with_probability(x > 1, 1, "
			     "0.9 /* was */))\n", &hint_prob, "0.45"),
		     "if (__builtin_expect_with_probability(x > 1, 1, "
		     "0.45 /* was */))\n");
	LP_CHECK_STR(restate("__builtin_expect_with_probability(a,\n\t1,\n"
			     "\t(9 / 10.0))", &hint_prob, "0.1"),
		     "__builtin_expect_with_probability(a,\n\t1,\n\t0.1)");
	LP_CHECK_STR(restate("__builtin_expect_with_probability(a, 1)",
			     &hint_prob, "0.1"),
		     "REFUSED: __builtin_expect_with_probability() at line 1 "
		     "has 2 arguments, not 3");
	LP_CHECK_STR(restate("if (mostly(a))", &body_number, "0.1"),
		     "REFUSED: mostly() states its probability in its own "
		     "definition, which every use shares");
}

static void test_branches__close_apart(void)
{
	LP_CHECK_STR(REMOVE("\tif (likely(a\n#ifdef X\n\t    && b))\n"
			    "#else\n\t    ))\n#endif\n", &hint_likely),
		     "REFUSED: likely() at line 1 closes differently in #if "
		     "branches");
	/* a branch inside that closes once is no reason to refuse */
	LP_CHECK(strncmp(REMOVE("\tif (likely(a\n#ifdef X\n\t    && b\n"
				"#endif\n\t    ))\n", &hint_likely),
			 "REFUSED", 7));
}

int main(void)
{
	LP_TEST(test_seed__mapping_unevictable);
	LP_TEST(test_seed__fget_light);
	LP_TEST(test_seed__page_mapping);
	LP_TEST(test_seed__flips);
	LP_TEST(test_precedence__operators_keep_parens);
	LP_TEST(test_precedence__whole_operands);
	LP_TEST(test_layout__comments_and_lines_stay);
	LP_TEST(test_builtin__expect);
	LP_TEST(test_macro__body_edit);
	LP_TEST(test_lexer__not_code);
	LP_TEST(test_nested__both);
	LP_TEST(test_branches__close_apart);
	LP_TEST(test_restate__number);
	free(result);
	return lp_test_done();
}
