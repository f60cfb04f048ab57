/*
 * u-locate.c - from a profile's (file, line, function) to an annotation:
 * drift, path suffixes, the project's spellings, the lines gcc and clang
 * report, and the refusals
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix/locate.h"
#include "fix/tree.h"
#include "test.h"

static char root[256];

static void put(const char *rel, const char *text)
{
	char path[512], *slash;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", root, rel);
	for (slash = strchr(path + strlen(root) + 1, '/'); slash;
	     slash = strchr(slash + 1, '/')) {
		*slash = '\0';
		mkdir(path, 0755);
		*slash = '/';
	}
	f = fopen(path, "w");
	fputs(text, f);
	fclose(f);
}

static void fresh_tree(void)
{
	char cmd[300];

	if (*root) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			LP_FAIL_("cannot remove %s", root);
	}
	snprintf(root, sizeof(root), "%s/u-locate.XXXXXX",
		 getenv("LP_TEST_TMP") ? getenv("LP_TEST_TMP") : "/tmp");
	mkdir(getenv("LP_TEST_TMP") ? getenv("LP_TEST_TMP") : "/tmp", 0755);
	if (!mkdtemp(root))
		LP_FAIL_("mkdtemp failed");
}

/* A site as the policy gives it: only what the locator reads. */
static struct lp_judged site(const char *file, long line, const char *func,
			     long expect)
{
	struct lp_judged s;

	memset(&s, 0, sizeof(s));
	s.file = (char *)file;
	s.line = line;
	s.func = func;
	s.cond = "";
	s.expect = expect;
	return s;
}

static struct lp_place places[8];

/* Places @n sites in the tree; returns 0 if the tree opened. */
static int place(struct lp_judged *v, size_t n, enum lp_prof_origin origin)
{
	struct lp_judged_list J = LP_JUDGED_LIST_INIT;
	struct lp_tree *t;
	char *err = NULL;
	size_t i;

	J.v = v;
	J.nr = n;
	J.origin = origin;
	t = lp_tree_open(root, NULL, &err);
	if (!t) {
		LP_FAIL_("tree: %s", err);
		free(err);
		return -1;
	}
	lp_tree_place(t, &J, places);
	/* keep only what outlives the tree */
	for (i = 0; i < n; i++) {
		if (places[i].placed) {
			size_t tok = places[i].tok;

			places[i].tok = places[i].file->lx.tok[tok].line;
			places[i].expect = places[i].hint->expect;
		}
		places[i].file = NULL;
		places[i].call_file = NULL;
		places[i].hint = NULL;
	}
	lp_tree_free(t);
	return 0;
}

#define K LP_ORIGIN_KERNEL
#define UNKNOWN LP_EXPECT_UNKNOWN

static const char page_mapping[] =
	"static inline struct address_space *page_mapping(struct page *page)\n"
	"{\n"
	"\tstruct address_space *mapping = page->mapping;\n"
	"\n"
	"\tVM_BUG_ON(PageSlab(page));\n"
	"\tif (unlikely(PageSwapCache(page)))\n"      /* line 6 */
	"\t\tmapping = &swapper_space;\n"
	"\telse if (unlikely((unsigned long)mapping & PAGE_MAPPING_ANON))\n"
	"\t\tmapping = NULL;\n"                        /* line 8 above */
	"\treturn mapping;\n"
	"}\n";

/* Seed 011: both sites one line off, paired in order. */
static void test_drift__seed_011_order(void)
{
	struct lp_judged v[2];

	fresh_tree();
	put("include/linux/mm.h", page_mapping);
	v[0] = site("mm.h", 5, "page_mapping", UNKNOWN);
	v[1] = site("mm.h", 7, "page_mapping", UNKNOWN);
	if (place(v, 2, K))
		return;
	LP_CHECK(places[0].placed && places[1].placed);
	LP_CHECK_INT(places[0].tok, 6);
	LP_CHECK_INT(places[1].tok, 8);
	lp_place_release(places, 2);
}

/* Exact lines win over order, even when the counts differ. */
static void test_drift__exact_lines(void)
{
	struct lp_judged v[1];

	fresh_tree();
	put("mm.h", page_mapping);
	v[0] = site("/elsewhere/include/linux/mm.h", 8, "page_mapping", 0);
	if (place(v, 1, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK(places[0].placed);
	LP_CHECK_INT(places[0].tok, 8);
	lp_place_release(places, 1);
}

/* Seed 010: the only annotation of the function, 150 lines away. */
static void test_drift__hundreds_of_lines(void)
{
	struct lp_judged v[1];
	char *text = calloc(1, 20000);
	int i;

	for (i = 0; i < 300; i++)
		strcat(text, "/* moved */\n");
	strcat(text, "static void ttwu(struct rq *rq)\n{\n"
		     "\tif (unlikely(rq->idle_stamp))\n\t\tidle(rq);\n}\n");
	fresh_tree();
	put("kernel/sched.c", text);
	free(text);
	v[0] = site("sched.c", 150, "ttwu", UNKNOWN);
	if (place(v, 1, K))
		return;
	LP_CHECK(places[0].placed);
	LP_CHECK_INT(places[0].tok, 303);
	lp_place_release(places, 1);
}

/* Two files named sched.c: the one defining the function. */
static void test_files__base_name_then_function(void)
{
	struct lp_judged v[2];

	fresh_tree();
	put("kernel/sched.c", "int a(int x)\n{\n\treturn likely(x);\n}\n");
	put("arch/x86/sched.c", "int b(int x)\n{\n\treturn likely(x);\n}\n");
	v[0] = site("sched.c", 3, "a", UNKNOWN);
	v[1] = site("sched.c", 3, "b", UNKNOWN);
	if (place(v, 2, K))
		return;
	LP_CHECK(places[0].placed && places[1].placed);
	lp_place_release(places, 2);
	put("arch/x86/sched.c", "int a(int x)\n{\n\treturn likely(x);\n}\n");
	v[1] = site("sched.c", 3, "a", UNKNOWN);
	if (place(v, 1, K))
		return;
	LP_CHECK(!places[0].placed);
	LP_CHECK_STR(places[0].reason,
		     "two annotations are equally likely: "
		     "'arch/x86/sched.c':3 and 'kernel/sched.c':3");
	lp_place_release(places, 1);
	/* a longer common tail decides */
	v[0] = site("/build/arch/x86/sched.c", 3, "a", UNKNOWN);
	if (place(v, 1, K))
		return;
	LP_CHECK(places[0].placed);
	lp_place_release(places, 1);
}

/*
 * A file-scope macro call with no ';' before a definition (scnlib's
 * SCN_CLANG_IGNORE(...)) leaves the definition its own: the site whose
 * condition is not the source's text (a macro expanded) is placed by its
 * function, not refused as "no function".
 */
static void test_files__macro_call_before_a_definition(void)
{
	struct lp_judged v[1];

	fresh_tree();
	put("c.cc", "#define IGNORE(x)\nIGNORE(\"-Wfoo\")\n\n"
	    "static int check(int e)\n{\n\tif (unlikely(e == ERANGE))\n"
	    "\t\treturn 1;\n\treturn 0;\n}\n");
	v[0] = site("c.cc", 6, "check", 0);
	v[0].cond = "e == 34";
	if (place(v, 1, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK(places[0].placed);
	LP_CHECK_INT(places[0].tok, 6);
	lp_place_release(places, 1);
}

/* The functions lp_find_functions() finds in @src, as "a,b,...". */
static const char *functions_of(const char *src)
{
	static char out[256];
	struct lp_srcfile f;
	size_t k;

	memset(&f, 0, sizeof(f));
	f.buf = (char *)src;
	f.len = strlen(src);
	lp_lex(&f.lx, f.buf, f.len);
	lp_find_functions(&f);
	out[0] = '\0';
	for (k = 0; k < f.nfuncs; k++) {
		if (k)
			strcat(out, ",");
		strcat(out, f.funcs[k].name);
		free(f.funcs[k].name);
	}
	free(f.funcs);
	lp_lexed_release(&f.lx);
	return out;
}

/*
 * A macro call and words before `namespace ns {` (scnlib's
 * `SCN_CLANG_IGNORE("...")` `SCN_CLANG_POP` `namespace scn {`) are no
 * function's trailers: the namespace is no body named IGNORE, and the
 * functions in it are found.  A function after such words still is.
 */
static void test_funcs__macros_before_a_namespace(void)
{
	LP_CHECK_STR(functions_of("IGNORE(\"-Wfoo\")\nPOP\nnamespace ns {\n"
				  "BEGIN\nnamespace a::b {\nnamespace {\n"
				  "static int check(int e) { return e; }\n"
				  "}\n}\n}\n"), "check");
	LP_CHECK_STR(functions_of("inline namespace v1 { int f(void) { "
				  "return 0; } }\n"), "f");
	LP_CHECK_STR(functions_of("int g(int x) NOEXCEPT_MACRO { return x; }"),
		     "g");
}

/*
 * A return type in parentheses is no parameter list before the name:
 * scnlib's `constexpr decltype(auto) visit_impl(...) {` was read as an
 * attribute macro visit_impl after the parameters "(auto)", and no
 * function was found.
 */
static void test_funcs__parenthesised_return_types(void)
{
	LP_CHECK_STR(functions_of("template <class V, class C>\n"
				  "constexpr decltype(auto) visit_impl(V&& v, "
				  "C& c)\n{\n\treturn v(c);\n}\n"),
		     "visit_impl");
	LP_CHECK_STR(functions_of("static __typeof__(x) get(int a) { "
				  "return a; }\n"), "get");
	LP_CHECK_STR(functions_of("auto f(int a) -> decltype(a + 1) { "
				  "return a + 1; }\n"), "f");
	LP_CHECK_STR(functions_of("decltype(auto) S::g(int a) const "
				  "noexcept { return a; }\n"), "g");
}

/*
 * An old-style definition declares its parameters between the ')' and
 * the body; a declarator's "(*fn)()" among them is no parameter list.
 */
static void test_funcs__old_style_definitions(void)
{
	LP_CHECK_STR(functions_of("static int k10(x, p, fn)\n\tint x;\n"
				  "\tchar *p, buf[4];\n\tint (*fn)(int);\n"
				  "{\n\treturn x;\n}\n"), "k10");
	LP_CHECK_STR(functions_of("int f(void);\n{ int a; }\n"), "");
	LP_CHECK_STR(functions_of("struct s { int a; } v = { 1 };\n"
				  "int g(a) register int a; { return a; }\n"),
		     "g");
}

/*
 * A trailing requires-clause stands between the parameters and the
 * body; a template's, before the declaration, does not.
 */
static void test_funcs__requires_clauses(void)
{
	LP_CHECK_STR(functions_of("template <class T> int a4(T x) requires "
				  "std::integral<T> { return x; }\n"), "a4");
	LP_CHECK_STR(functions_of("template <class T> requires "
				  "std::integral<T> int a3(T x) { return x; }"
				  "\n"), "a3");
	LP_CHECK_STR(functions_of("template <class T> auto f(T x) -> int "
				  "requires (sizeof(T) > 2) && C<T> { return "
				  "x; }\n"), "f");
	LP_CHECK_STR(functions_of("template <class T> requires C<T> "
				  "struct S { int m(int a) { return a; } };\n"),
		     "m");
}

/*
 * A macro over a macro over a hint (scnlib's SCN_TRY over
 * SCN_TRY_ASSIGN over SCN_UNLIKELY): each use is placed on its own
 * line, not on the nearest use of the inner macro.
 */
static void test_files__macro_over_a_macro(void)
{
	struct lp_judged v[2];

	fresh_tree();
	put("m.c", "#define UNLIKELY(x) __builtin_expect(!!(x), 0)\n"
	    "#define TRY_ASSIGN(v, x) int v = (x); if (UNLIKELY(v < 0)) "
	    "return v\n#define TRY(v, x) TRY_ASSIGN(v, x)\n"
	    "int f(int a)\n{\n\tTRY_ASSIGN(p, a - 1);\n"
	    "\tTRY(q, a - 5);\n\treturn p + q;\n}\n");
	v[0] = site("m.c", 6, "f", 0);
	v[1] = site("m.c", 7, "f", 0);
	v[0].cond = "!!(p < 0)";
	v[1].cond = "!!(q < 0)";
	if (place(v, 2, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK(places[0].placed && places[1].placed);
	LP_CHECK_INT(places[0].line, 6);
	LP_CHECK_INT(places[1].line, 7);
	lp_place_release(places, 2);
}

/* The kernel prints %-30.30s: a cut name matches the whole one. */
static void test_files__kernel_cuts_names(void)
{
	struct lp_judged v[1];

	fresh_tree();
	put("mm/filemap.c", "struct page *grab_cache_page_write_begin_and_more"
	    "(int x)\n{\n\tif (likely(x))\n\t\treturn 0;\n\treturn 0;\n}\n");
	v[0] = site("filemap.c", 3, "grab_cache_page_write_begin_an", UNKNOWN);
	if (place(v, 1, K))
		return;
	LP_CHECK(places[0].placed);
	lp_place_release(places, 1);
}

/* A project's own spelling, defined through another. */
static void test_spellings__project_macros(void)
{
	struct lp_judged v[2];

	fresh_tree();
	put("include/h.h", "#define MY_LIKELY(x) __builtin_expect(!!(x), 1)\n"
	    "#define MY_UNLIKELY(x) (__builtin_expect(!!(x), 0))\n"
	    "#define my_unlikely(x) MY_UNLIKELY(x)\n");
	put("src/a.c", "#include \"h.h\"\nint f(int x)\n{\n"
	    "\tif (MY_LIKELY(x))\n\t\treturn 1;\n"
	    "\treturn my_unlikely(x > 3);\n}\n");
	v[0] = site("a.c", 4, "f", 1);
	v[1] = site("a.c", 6, "f", 0);
	if (place(v, 2, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK(places[0].placed && places[1].placed);
	LP_CHECK_INT(places[0].expect, 1);
	LP_CHECK_INT(places[1].expect, 0);
	lp_place_release(places, 2);
}

/* gcc reports the first line of a call over several lines, clang the last. */
static void test_lines__gcc_and_clang(void)
{
	struct lp_judged v[2];

	fresh_tree();
	put("a.c", "int f(int a, int b)\n{\n\tif (unlikely(a &&\n"
	    "\t\t     b))\n\t\treturn 1;\n\tif (likely(a))\n\t\treturn 2;\n"
	    "\treturn 0;\n}\n");
	v[0] = site("a.c", 4, "f", 0);      /* clang */
	v[1] = site("a.c", 6, "f", 1);
	if (place(v, 2, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK(places[0].placed);
	LP_CHECK_INT(places[0].tok, 3);
	LP_CHECK_INT(places[1].tok, 6);
	lp_place_release(places, 2);
}

/*
 * A profile that expected 1 at an annotation that expects 0: found, and
 * marked as pointing the other way, so that fix leaves it alone.
 */
static void test_refusals__already_flipped_and_gone(void)
{
	struct lp_judged v[1];

	fresh_tree();
	put("a.c", "int f(int a)\n{\n\tif (unlikely(a))\n\t\treturn 1;\n"
	    "\treturn 0;\n}\nint g(int a)\n{\n\treturn a;\n}\n");
	v[0] = site("a.c", 3, "f", 1);
	if (place(v, 1, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK(places[0].placed && places[0].opposite);
	lp_place_release(places, 1);
	v[0] = site("a.c", 9, "g", 1);
	if (place(v, 1, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK_STR(places[0].reason, "'g' in 'a.c' has no annotation left");
	lp_place_release(places, 1);
}

static void test_refusals__outside_and_links(void)
{
	struct lp_judged v[2];
	char path[600];

	fresh_tree();
	put("a.c", "int f(int a)\n{\n\treturn likely(a);\n}\n");
	snprintf(path, sizeof(path), "%s/b.c", root);
	if (symlink("a.c", path))
		LP_FAIL_("symlink failed");
	v[0] = site("../../etc/passwd", 1, "root", 1);
	v[1] = site("b.c", 3, "f", 1);
	if (place(v, 2, LP_ORIGIN_PROFILE))
		return;
	LP_CHECK_STR(places[0].reason, "'../../etc/passwd' leads outside the "
		     "source tree, and no file in it has that name");
	LP_CHECK_STR(places[1].reason,
		     "'b.c' is a symbolic link; not following it");
	lp_place_release(places, 2);
}

int main(void)
{
	LP_TEST(test_drift__seed_011_order);
	LP_TEST(test_drift__exact_lines);
	LP_TEST(test_drift__hundreds_of_lines);
	LP_TEST(test_files__base_name_then_function);
	LP_TEST(test_files__macro_call_before_a_definition);
	LP_TEST(test_funcs__macros_before_a_namespace);
	LP_TEST(test_funcs__parenthesised_return_types);
	LP_TEST(test_funcs__requires_clauses);
	LP_TEST(test_funcs__old_style_definitions);
	LP_TEST(test_files__macro_over_a_macro);
	LP_TEST(test_files__kernel_cuts_names);
	LP_TEST(test_spellings__project_macros);
	LP_TEST(test_lines__gcc_and_clang);
	LP_TEST(test_refusals__already_flipped_and_gone);
	LP_TEST(test_refusals__outside_and_links);
	if (*root) {
		char cmd[300];

		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
		if (system(cmd))
			return 1;
	}
	return lp_test_done();
}
