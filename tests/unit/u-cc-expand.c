/*
 * u-cc-expand.c - what likelyprof cc reads to count the hint forms of a
 * unit's own headers (tools/cc/expand.c): the headers a dependency file
 * lists, with make's quoting undone, and the expanded unit rewritten only
 * where its text comes from the source or a header not of the system
 */
#include <stdlib.h>
#include <string.h>

#include "cc/expand.h"
#include "cc/hintmacro.h"
#include "test.h"

/* The prerequisites of @rule, joined by '|'. */
static const char *deps_of(const char *rule)
{
	static char out[512];
	char *text = strdup(rule), **files;
	size_t n = lp_cc_deps_files(text, strlen(text), &files), k;

	out[0] = '\0';
	for (k = 0; k < n; k++) {
		if (k)
			strcat(out, "|");
		strcat(out, files[k]);
	}
	free(files);
	free(text);
	return out;
}

static void test_deps__continued_lines(void)
{
	LP_CHECK_STR(deps_of("obj/a.o: src/a.cc \\\n include/lib/ring.h \\\n"
			     "  src/local.h\n"),
		     "src/a.cc|include/lib/ring.h|src/local.h");
}

static void test_deps__quoting_undone(void)
{
	LP_CHECK_STR(deps_of("a.o: my\\ dir/a.c cost$$.h hash\\#1.h\n"),
		     "my dir/a.c|cost$.h|hash#1.h");
}

/* -MP adds an empty rule per header: only the first rule is read. */
static void test_deps__first_rule_only(void)
{
	LP_CHECK_STR(deps_of("a.o: a.c h.h\n\nh.h:\n"), "a.c|h.h");
	LP_CHECK_STR(deps_of("a.o: a.c h.h"), "a.c|h.h");
	LP_CHECK_STR(deps_of("a.o:\n"), "");
}

/* A ':' inside a target's path is not the rule's. */
static void test_deps__colon_in_target(void)
{
	LP_CHECK_STR(deps_of("c:x/a.o : a.c\n"), "a.c");
}

/*
 * An expanded unit as gcc -E -fdirectives-only prints it: the source's
 * and a user header's attributes become counted hints, the system
 * header's stays as it is, and every line keeps its number.
 */
static void test_expanded__system_text_kept(void)
{
	static const char raw[] =
		"# 0 \"a.cc\"\n"
		"# 1 \"/usr/include/c++/12/expected\" 1 3\n"
		"int s(int v) { if (v) [[likely]] return 1; return 0; }\n"
		"# 2 \"a.cc\" 2\n"
		"# 1 \"lib/h.h\" 1\n"
		"int h(int v) { if (v) [[unlikely]] return 1; return 0; }\n"
		"# 3 \"a.cc\" 2\n"
		"int m(int v) { if (v > 2) [[likely]] return 1; return 0; }\n";
	struct lp_hint_macros none = LP_HINT_MACROS_INIT;
	struct lp_unseen_forms cxx = { &none, 1, NULL, NULL, 0 };
	struct lp_cc_expanded_left left;
	char *copy = NULL, *line;
	size_t len = 0;

	LP_CHECK_INT(lp_cc_expanded_copy(raw, strlen(raw), "a.cc", &cxx,
					 &copy, &len, &left), 1);
	LP_CHECK_STR(left.source, "");
	LP_CHECK_STR(left.headers.note, "");
	if (!copy)
		return;
	LP_CHECK(strstr(copy, "if (v) [[likely]] return 1") != NULL);
	LP_CHECK(strstr(copy, "if (__builtin_expect(!!(v), 0))") != NULL);
	LP_CHECK(strstr(copy, "if (__builtin_expect(!!(v > 2), 1))") != NULL);
	line = copy;
	len = 0;
	while ((line = strchr(line, '\n')))
		line++, len++;
	LP_CHECK_INT(len, 9);   /* the #line on top, and the 8 lines */
	free(copy);
}

/* A unit with forms only in the system's text has no copy. */
static void test_expanded__system_only(void)
{
	static const char raw[] =
		"# 1 \"a.cc\"\n"
		"# 1 \"/usr/include/x.h\" 1 3 4\n"
		"int s(int v) { if (v) [[likely]] return 1; return 0; }\n"
		"# 2 \"a.cc\" 2\n"
		"int m(int v) { return v; }\n";
	struct lp_hint_macros none = LP_HINT_MACROS_INIT;
	struct lp_unseen_forms cxx = { &none, 1, NULL, NULL, 0 };
	struct lp_cc_expanded_left left;
	char *copy = NULL;
	size_t len = 0;

	LP_CHECK_INT(lp_cc_expanded_copy(raw, strlen(raw), "a.cc", &cxx,
					 &copy, &len, &left), 0);
	LP_CHECK(copy == NULL);
}

/*
 * What the expanded text leaves, by file and on each file's own line:
 * clang's "./" names gcc's file, a marker in the middle of a header
 * (back from one it includes) sets its lines again, and the system's
 * attributes are no one's.
 */
static void test_expanded__left_by_file(void)
{
	static const char raw[] =
		"# 1 \"src/a.cc\"\n"
		"int m(int v) { if (v > 2) [[likely]] return 1; return 0; }\n"
		"# 1 \"./lib/h.h\" 1\n"
		"int h(int v) { if (v) [[unlikely]] return 1; return 0; }\n"
		"# 1 \"/usr/include/x.h\" 1 3 4\n"
		"int s(int v) { [[likely]] return v; }\n"
		"# 7 \"lib/h.h\" 2\n"
		"int g(int v) { [[likely]] return v; }\n"
		"int k(int v) { do [[likely]] v--; while (v); return v; }\n"
		"# 3 \"src/a.cc\" 2\n"
		"int n(int v) { [[unlikely]] return v; }\n";
	struct lp_hint_macros none = LP_HINT_MACROS_INIT;
	struct lp_unseen_forms cxx = { &none, 1, NULL, NULL, 0 };
	struct lp_cc_expanded_left left;
	char *copy = NULL;
	size_t len = 0;

	LP_CHECK_INT(lp_cc_expanded_copy(raw, strlen(raw), "./src/a.cc", &cxx,
					 &copy, &len, &left), 1);
	free(copy);
	LP_CHECK_STR(left.source, "1 of 2 [[likely]]/[[unlikely]] (line 3: "
		     "on a statement that is no branch of a condition)");
	LP_CHECK_STR(left.headers.note, "lib/h.h: 2 of 3 "
		     "[[likely]]/[[unlikely]] (first at line 7: on a statement "
		     "that is no branch of a condition)");
	LP_CHECK_INT(left.headers.nalso, 0);
}

int main(void)
{
	LP_TEST(test_deps__continued_lines);
	LP_TEST(test_deps__quoting_undone);
	LP_TEST(test_deps__first_rule_only);
	LP_TEST(test_deps__colon_in_target);
	LP_TEST(test_expanded__system_text_kept);
	LP_TEST(test_expanded__system_only);
	LP_TEST(test_expanded__left_by_file);
	return lp_test_done();
}
