/*
 * u-judge-hints.c - what judge reads of the source around each hint: a
 * loop's condition (where a backward jump is the loop's), the lines of
 * the statement an if guards (which side a jump goes to, whatever the
 * layout), a hint that is only a part of its condition (whose line
 * may hold the other parts' tests) or that follows only calls of
 * constant functions or parameters every call passes a constant (the
 * whole, then), and an if whose statement is a
 * goto to a label after it (where the goto goes first)
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/judge.h"
#include "test.h"

static const char source[] =
	"#define likely(x) __builtin_expect(!!(x), 1)\n"       /* 1 */
	"#define unlikely(x) __builtin_expect(!!(x), 0)\n"
	"int f(int *v, int n)\n"
	"{\n"
	"\tint i = 0, s = 0;\n"                                  /* 5 */
	"\twhile (likely(i < n)) {\n"
	"\t\tif (unlikely(v[i] < 0)) {\n"
	"\t\t\ts--;\n"
	"\t\t\tcontinue;\n"
	"\t\t} else if (unlikely(v[i] == 7)) {\n"              /* 10 */
	"\t\t\ts += 7;\n"
	"\t\t}\n"
	"\t\tif (unlikely(v[i] > 9) && v[i] < 20)\n"
	"\t\t\ts++;\n"
	"\t\tif (likely(v[i] != 3)) s += 2;\n"                 /* 15 */
	"\t\ti++;\n"
	"\t}\n"
	"\tdo {\n"
	"\t\ts++;\n"
	"\t} while (unlikely(s < 0));\n"                       /* 20 */
	"\tfor (i = 0; likely(i < n); i++)\n"
	"\t\ts += v[i];\n"
	"\treturn s;\n"
	"}\n"
	"int g(int *v, int n)\n"                                /* 25 */
	"{\n"
	"\tint i = 0;\n"
	"back:\n"
	"\tfor (; i < n; i++) {\n"
	"\t\tif (unlikely(v[i] == 42))\n"                     /* 30 */
	"\t\t\tgoto out;\n"
	"\t\tif (unlikely(v[i] == 43)) goto back;\n"
	"\t\tv[i] = n > 0 ? i : 0;\n"
	"\t}\n"
	"\treturn 0;\n"                                         /* 35 */
	"out:\n"
	"\treturn 1;\n"
	"}\n"
	"int h(int *v, int n)\n"
	"{\n"                                                  /* 40 */
	"\tif (n > 2 && unlikely(v[0] < 0))\n"
	"\t\treturn 1;\n"
	"\tif (unlikely(v[1] == 2) || (g(v, n) > 3 && n))\n"
	"\t\treturn 2;\n"
	"\tif (unlikely(g(v, 1) > 0) && n)\n"                   /* 45 */
	"\t\treturn 3;\n"
	"\tif (unlikely(v[2] == 5) || g(v, 2) > 3 || n)\n"
	"\t\treturn 4;\n"
	"\tn++; if (unlikely(v[3] == 1) && g(v, 3))\n"
	"\t\treturn 5;\n"                                         /* 50 */
	"\telse if (unlikely(v[4] == 1) && g(v, 4))\n"
	"\t\treturn 6;\n"
	"\treturn 0;\n"
	"}\n"
	"static inline unsigned wide(void) { return sizeof(long) == 8; }\n"
	"static int dial;\n"                                     /* 56 */
	"static inline int knob(void) { return dial; }\n"
	"int k(int *v)\n"
	"{\n"
	"\tif (wide() && unlikely(v[0] == 9))\n"                /* 60 */
	"\t\treturn 1;\n"
	"\tif (knob() && unlikely(v[1] == 9))\n"
	"\t\treturn 2;\n"
	"\tif (wide() || unlikely(v[2] == 9))\n"
	"\t\treturn 3;\n"                                        /* 65 */
	"\tif ((wide()) && (wide()) && (unlikely(v[3] == 9)))\n"
	"\t\treturn 4;\n"
	"\treturn 0;\n"
	"}\n"
	"static int rd(int *v, int chk, int ok)\n"             /* 70 */
	"{\n"
	"\tif (chk && unlikely(v[0] == 1))\n"
	"\t\treturn 1;\n"
	"\tif (ok && unlikely(v[1] == 1))\n"
	"\t\treturn 2;\n"                                        /* 75 */
	"\treturn 0;\n"
	"}\n"
	"static int wr(int *v, int chk)\n"
	"{\n"
	"\tchk += v[2];\n"                                       /* 80 */
	"\tif (chk && unlikely(v[3] == 1))\n"
	"\t\treturn 1;\n"
	"\treturn 0;\n"
	"}\n"
	"int pub(int *v, int chk)\n"                           /* 85 */
	"{\n"
	"\tif (chk && unlikely(v[4] == 1))\n"
	"\t\treturn 1;\n"
	"\treturn rd(v, 1, 1) + rd(v, (2), v[5]) + wr(v, 1) + pub(v, 1);\n"
	"}\n";

static struct lp_hints hints;

static const struct lp_hint *at(long line)
{
	size_t i;

	for (i = 0; i < hints.nr; i++)
		if (hints.v[i].line == line)
			return &hints.v[i];
	return NULL;
}

/* Writes the source into a fresh folder and reads its hints. */
static int setup(void)
{
	const char *tmp = getenv("LP_TEST_TMP");
	char dir[4096], path[4200];
	FILE *f;

	snprintf(dir, sizeof(dir), "%s/u-judge-hints.XXXXXX",
		 tmp && *tmp ? tmp : "/tmp");
	if (tmp && *tmp)
		mkdir(tmp, 0777);
	if (!mkdtemp(dir))
		return -1;
	snprintf(path, sizeof(path), "%s/t.c", dir);
	f = fopen(path, "w");
	if (!f || fputs(source, f) < 0 || fclose(f))
		return -1;
	/* judge's own default: LP_TEST_CC may be a command line */
	if (lp_hints_find(&hints, dir, "cc", NULL) < 0)
		return -1;
	unlink(path);
	rmdir(dir);
	return 0;
}

static void test_hints__all_found(void)
{
	LP_CHECK_INT(hints.nr, 23);
}

static void test_hints__loop_conditions(void)
{
	LP_CHECK(at(6) && at(6)->loop);
	LP_CHECK(at(20) && at(20)->loop);
	LP_CHECK(at(21) && at(21)->loop);
	LP_CHECK(at(7) && !at(7)->loop);
}

static void test_hints__guarded_lines(void)
{
	/* braces on the if's and the else's lines are not the body's */
	LP_CHECK(at(7) && at(7)->then_first == 8 && at(7)->then_last == 9);
	LP_CHECK(at(10) && at(10)->then_first == 11 &&
		 at(10)->then_last == 11);
	/* a statement on the if's own line: no lines to read by */
	LP_CHECK(at(15) && at(15)->then_first > at(15)->then_last);
}

static void test_hints__parts(void)
{
	LP_CHECK(at(13) && at(13)->part);
	LP_CHECK(at(7) && !at(7)->part && !at(7)->first);
	LP_CHECK(at(6) && !at(6)->part);
	/* a part after another: no statement to read it by */
	LP_CHECK(at(41) && at(41)->part && !at(41)->first &&
		 !at(41)->then_first);
}

static void test_hints__first_parts(void)
{
	/* the first part, tested before the one test of the rest */
	LP_CHECK(at(13) && at(13)->first == '&' && at(13)->rest &&
		 !strcmp(at(13)->rest, "v[i] < 20") &&
		 at(13)->then_first == 14 && at(13)->then_last == 14);
	/* a rest of several tests, which may come in any order */
	LP_CHECK(at(43) && at(43)->part && !at(43)->first);
	LP_CHECK(at(47) && at(47)->part && !at(47)->first);
	/* a call in the hint: its code is no sign of the rest */
	LP_CHECK(at(45) && at(45)->part && !at(45)->first);
	/* another statement's code before the if on its line, or none */
	LP_CHECK(at(49) && at(49)->part && !at(49)->first);
	LP_CHECK(at(51) && at(51)->first == '&' && at(51)->then_first == 52);
}

static void test_hints__after_constants(void)
{
	/* after calls of constant functions: the hint is the whole */
	LP_CHECK(at(60) && !at(60)->part && at(60)->then_first == 61);
	LP_CHECK(at(66) && !at(66)->part && at(66)->then_first == 67);
	/* after a call whose value a variable decides, or an || */
	LP_CHECK(at(62) && at(62)->part);
	LP_CHECK(at(64) && at(64)->part);
	LP_CHECK(at(60) && !at(60)->params);
}

static void test_hints__after_parameters(void)
{
	/* a parameter of a static function every call passes a constant */
	LP_CHECK(at(72) && !at(72)->part && at(72)->params &&
		 at(72)->then_first == 73);
	/* a call passes a variable; assigned in the body; not static */
	LP_CHECK(at(74) && at(74)->part && !at(74)->params);
	LP_CHECK(at(81) && at(81)->part && !at(81)->params);
	LP_CHECK(at(87) && at(87)->part && !at(87)->params);
}

static void test_hints__gotos(void)
{
	/* a label after the if: its lines to the closing brace */
	LP_CHECK(at(30) && at(30)->goto_line == 36 &&
		 at(30)->goto_end == 38);
	LP_CHECK(at(30) && at(30)->ngoto == 1 &&
		 at(30)->goto_first[0] == 30 && at(30)->goto_last[0] == 30);
	/* a label before it, and no goto: nothing to read by */
	LP_CHECK(at(32) && !at(32)->goto_line);
	LP_CHECK(at(7) && !at(7)->goto_line);
}

int main(void)
{
	if (setup() < 0) {
		printf("Bail out! cannot preprocess the test source\n");
		return 1;
	}
	LP_TEST(test_hints__all_found);
	LP_TEST(test_hints__loop_conditions);
	LP_TEST(test_hints__guarded_lines);
	LP_TEST(test_hints__parts);
	LP_TEST(test_hints__first_parts);
	LP_TEST(test_hints__after_constants);
	LP_TEST(test_hints__after_parameters);
	LP_TEST(test_hints__gotos);
	lp_hints_release(&hints);
	return lp_test_done();
}
