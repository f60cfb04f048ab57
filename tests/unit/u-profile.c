/*
 * u-profile.c - the profile reader, writer, merge and sort
 *
 * What is checked: text fields survive a write and a read byte for byte;
 * every malformed input gets its one exact diagnostic and error code and
 * leaves the profile untouched; a profile read in two threads gives what
 * one reading gives, errors and their lines included, wherever the
 * halves meet; merging is commutative and associative
 * on random profiles (compared as written bytes); counts saturate; the
 * canonical order is the documented one and stable; the streaming merge
 * of files gives the in-memory merge's sums, with buffers small enough
 * that records span them and with an input out of order; votes survive
 * a write and a read.
 */
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "internal.h"
#include "merge.h"
#include "profile.h"
#include "sites.h"
#include "test.h"

/* Writes @p into a malloc'd string. */
static char *write_str(struct lp_profile *p)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	if (!f || lp_profile_write(p, f) < 0) {
		LP_FAIL_("lp_profile_write failed");
		if (f)
			fclose(f);
		free(buf);
		return strdup("");
	}
	fclose(f);
	return buf;
}

static int read_str(struct lp_profile *p, const char *text,
		    struct lp_diag *diag)
{
	return lp_profile_read_buf(p, "t.lprof", text, strlen(text), diag);
}

/*-************************************
 *  Round trip
 **************************************/
static void test_roundtrip__escapes(void)
{
	static const char *const texts[] = {
		"tab\there", "new\nline", "back\\slash", "cr\rhere",
		"\x01\x1f\x7f", "\\t is not a tab", "caf\xc3\xa9 \xff",
		"", "\\\\\t\n",
	};
	struct lp_profile p = LP_PROFILE_INIT, q = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *text, *again;
	size_t i;

	for (i = 0; i < sizeof(texts) / sizeof(texts[0]); i++)
		add_site(&p, texts[i], (long)i + 1, texts[i], 1, texts[i],
			 texts[i], i, 2 * i, 0);
	LP_CHECK_INT(lp_profile_set_meta(&p, "k\tey", "va\nlue"), 0);
	text = write_str(&p);
	/* escapes as doc/FORMAT.md lists them */
	LP_CHECK(strstr(text, "tab\\there") != NULL);
	LP_CHECK(strstr(text, "new\\nline") != NULL);
	LP_CHECK(strstr(text, "back\\\\slash") != NULL);
	LP_CHECK(strstr(text, "cr\\rhere") != NULL);
	LP_CHECK(strstr(text, "\\x01\\x1f\\x7f") != NULL);
	LP_CHECK(strstr(text, "caf\xc3\xa9 \xff") != NULL);
	LP_CHECK_INT(read_str(&q, text, &diag), 0);
	LP_CHECK_INT(q.nr, p.nr);
	for (i = 0; i < q.nr && i < p.nr; i++) {
		LP_CHECK_STR(q.sites[i].file, p.sites[i].file);
		LP_CHECK_STR(q.sites[i].func, p.sites[i].func);
		LP_CHECK_STR(q.sites[i].unit, p.sites[i].unit);
		LP_CHECK_STR(q.sites[i].cond, p.sites[i].cond);
	}
	LP_CHECK_INT(q.meta_nr, 1);
	if (q.meta_nr) {
		LP_CHECK_STR(q.meta[0].key, "k\tey");
		LP_CHECK_STR(q.meta[0].value, "va\nlue");
	}
	again = write_str(&q);
	LP_CHECK_STR(again, text);
	free(text);
	free(again);
	lp_profile_release(&p);
	lp_profile_release(&q);
}

static void test_roundtrip__numbers(void)
{
	struct lp_profile p = LP_PROFILE_INIT, q = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *text;

	add_site(&p, "a.c", 2147483647L, "f", -7, "a.c", "x", UINT64_MAX,
		 0, 12345678901234567890ULL);
	add_site(&p, "a.c", 1, "f", LP_EXPECT_UNKNOWN, "", "", 0, 0, 0);
	add_site(&p, "a.c", 1, "f", LP_EXPECT_IF, "", "", 0, 0, 0);
	text = write_str(&p);
	LP_CHECK_STR(text,
		"# likelyprof profile, see doc/FORMAT.md\n"
		"likelyprof-profile\t1\n"
		"site\t0\t0\t0\t?\ta.c\t1\tf\t\t\n"
		"site\t0\t0\t0\tif\ta.c\t1\tf\t\t\n"
		"site\t18446744073709551615\t0\t12345678901234567890\t-7\t"
		"a.c\t2147483647\tf\ta.c\tx\n"
		"end\t3\n");
	LP_CHECK_INT(read_str(&q, text, &diag), 0);
	LP_CHECK_INT(q.nr, 3);
	if (q.nr == 3) {
		LP_CHECK_INT(q.sites[0].expect, LP_EXPECT_UNKNOWN);
		LP_CHECK_INT(q.sites[1].expect, LP_EXPECT_IF);
		LP_CHECK_U64(q.sites[2].correct, UINT64_MAX);
		LP_CHECK_INT(q.sites[2].expect, -7);
		LP_CHECK_INT(q.sites[2].src_line, 5);
	}
	free(text);
	lp_profile_release(&p);
	lp_profile_release(&q);
}

/*
 * A stated probability is written after expect as the runtime writes it,
 * read back to the same value, and kept by a merge.
 */
static void test_roundtrip__probability(void)
{
	struct lp_profile p = LP_PROFILE_INIT, q = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *text, *again;

	add_site(&p, "a.c", 1, "f", 1, "a.c", "x", 9, 1, 0);
	add_site(&p, "a.c", 2, "f", LP_EXPECT_UNKNOWN, "a.c", "y", 5, 5, 0);
	add_site(&p, "a.c", 3, "f", 0, "a.c", "z", 0, 0, 0);
	add_site(&p, "a.c", 4, "f", 1, "a.c", "w", 0, 0, 0);
	p.sites[0].prob = 1 + 900000;
	p.sites[1].prob = 1 + 50000;
	p.sites[2].prob = 1 + 1000000;
	p.sites[3].prob = 1 + 123456;
	text = write_str(&p);
	LP_CHECK_STR(text,
		"# likelyprof profile, see doc/FORMAT.md\n"
		"likelyprof-profile\t1\n"
		"site\t9\t1\t0\t1@0.9\ta.c\t1\tf\ta.c\tx\n"
		"site\t5\t5\t0\t?@0.05\ta.c\t2\tf\ta.c\ty\n"
		"site\t0\t0\t0\t0@1\ta.c\t3\tf\ta.c\tz\n"
		"site\t0\t0\t0\t1@0.123456\ta.c\t4\tf\ta.c\tw\n"
		"end\t4\n");
	LP_CHECK_INT(read_str(&q, text, &diag), 0);
	LP_CHECK_INT(q.nr, 4);
	if (q.nr == 4) {
		LP_CHECK_INT(q.sites[0].prob, 1 + 900000);
		LP_CHECK_INT(q.sites[1].prob, 1 + 50000);
		LP_CHECK_INT(q.sites[1].expect, LP_EXPECT_UNKNOWN);
		LP_CHECK_INT(q.sites[2].prob, 1 + 1000000);
		LP_CHECK_INT(q.sites[3].prob, 1 + 123456);
	}
	LP_CHECK_INT(lp_profile_merge(&q, &p), 0);
	again = write_str(&q);
	LP_CHECK_STR(again,
		"# likelyprof profile, see doc/FORMAT.md\n"
		"likelyprof-profile\t1\n"
		"site\t18\t2\t0\t1@0.9\ta.c\t1\tf\ta.c\tx\n"
		"site\t10\t10\t0\t?@0.05\ta.c\t2\tf\ta.c\ty\n"
		"site\t0\t0\t0\t0@1\ta.c\t3\tf\ta.c\tz\n"
		"site\t0\t0\t0\t1@0.123456\ta.c\t4\tf\ta.c\tw\n"
		"end\t4\n");
	free(text);
	free(again);
	lp_profile_release(&p);
	lp_profile_release(&q);
}

/*
 * A judged site's sure field survives a write and a read, a measured site
 * is written with ten fields as before, and a merge keeps the least sure.
 */
static void test_roundtrip__sure(void)
{
	struct lp_profile p = LP_PROFILE_INIT, q = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *text;

	add_site(&p, "a.c", 1, "f", 1, "a.c", "x", 5, 1, 0);
	add_site(&p, "a.c", 2, "f", 0, "a.c", "y", 5, 1, 0);
	add_site(&p, "a.c", 3, "f", 0, "a.c", "z", 0, 0, 0);
	p.sites[1].sure = LP_SURE_AMBIGUOUS;
	p.sites[2].sure = LP_SURE_UNJUDGEABLE;
	text = write_str(&p);
	LP_CHECK_STR(text,
		"# likelyprof profile, see doc/FORMAT.md\n"
		"likelyprof-profile\t1\n"
		"site\t5\t1\t0\t1\ta.c\t1\tf\ta.c\tx\n"
		"site\t5\t1\t0\t0\ta.c\t2\tf\ta.c\ty\tambiguous\n"
		"site\t0\t0\t0\t0\ta.c\t3\tf\ta.c\tz\tunjudgeable\n"
		"end\t3\n");
	LP_CHECK_INT(read_str(&q, text, &diag), 0);
	LP_CHECK_INT(q.nr, 3);
	if (q.nr == 3) {
		LP_CHECK_INT(q.sites[0].sure, LP_SURE_MEASURED);
		LP_CHECK_INT(q.sites[1].sure, LP_SURE_AMBIGUOUS);
		LP_CHECK_INT(q.sites[2].sure, LP_SURE_UNJUDGEABLE);
	}
	/* measured + ambiguous is ambiguous, whichever side it is on */
	q.sites[0].sure = LP_SURE_AMBIGUOUS;
	p.sites[1].sure = LP_SURE_MEASURED;
	LP_CHECK_INT(lp_profile_merge(&p, &q), 0);
	LP_CHECK_INT(p.nr, 3);
	if (p.nr == 3) {
		LP_CHECK_INT(p.sites[0].sure, LP_SURE_AMBIGUOUS);
		LP_CHECK_INT(p.sites[1].sure, LP_SURE_AMBIGUOUS);
		LP_CHECK_U64(p.sites[1].correct, 10);
	}
	free(text);
	lp_profile_release(&p);
	lp_profile_release(&q);
}

/* Comments anywhere; appending a second profile keeps the first's sites. */
static void test_read__comments_and_append(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;

	LP_CHECK_INT(read_str(&p, "# one\nlikelyprof-profile\t1\n# two\n"
			      "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\n"
			      "end\t1\n# after\n", &diag), 0);
	LP_CHECK_INT(read_str(&p, "likelyprof-profile\t1\n"
			      "meta\tpid\t7\n"
			      "site\t4\t5\t0\t1\tb.c\t3\tf\tb.c\tx\n"
			      "end\t1\n", &diag), 0);
	LP_CHECK_INT(p.nr, 2);
	LP_CHECK_STR(p.name, "t.lprof");
	LP_CHECK_INT(p.origin, LP_ORIGIN_PROFILE);
	LP_CHECK_INT(p.meta_nr, 1);
	lp_profile_release(&p);
	lp_profile_release(NULL);
}

/*
 * A key that repeats keeps each value once, however many copies: three
 * copies of one label (the fuzzer's find) used to compare the third with
 * the freed second.  Under ASan in CI, a use after free fails here.
 */
static void test_read__repeated_meta_once(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;

	LP_CHECK_INT(read_str(&p, "likelyprof-profile\t1\n"
			      "meta\tlabel\tx\nmeta\tlabel\tx\n"
			      "meta\tlabel\tx\nmeta\tlabel\ta\n"
			      "meta\tpid\t1\nmeta\tpid\t2\nmeta\tpid\t3\n"
			      "site\t4\t5\t0\t1\tb.c\t3\tf\tb.c\tx\n"
			      "end\t1\n", &diag), 0);
	LP_CHECK_INT(p.meta_nr, 3);
	if (p.meta_nr == 3) {
		LP_CHECK_STR(p.meta[0].key, "label");
		LP_CHECK_STR(p.meta[0].value, "a");
		LP_CHECK_STR(p.meta[1].value, "x");
		LP_CHECK_STR(p.meta[2].key, "pid");
		LP_CHECK_STR(p.meta[2].value, "3");
	}
	lp_profile_release(&p);
}

/*-************************************
 *  Errors
 **************************************/
#define H "likelyprof-profile\t1\n"
#define S "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\n"
/* text with NUL bytes in it: its length from the literal */
#define BIN(x) x, sizeof(x) - 1

static const struct bad {
	const char *text;
	size_t len;             /* 0: strlen(text) */
	int code;
	const char *msg;
} bad_inputs[] = {
	{ "", 0, -LP_EEMPTY, "t.lprof: empty input" },
	{ "# only a comment\n", 0, -LP_EEMPTY,
	  "t.lprof: no profile or table in input" },
	{ H S, 0, -LP_ETRUNC,
	  "t.lprof:2: truncated profile: no end record" },
	{ H S "end\t1", 0, -LP_ETRUNC,
	  "t.lprof:3: truncated profile: last line has no newline" },
	{ H S "end\t2\n", 0, -LP_EPARSE,
	  "t.lprof:3: end record counts 2 sites, the profile has 1" },
	{ "likelyprof-profile\t2\n" S "end\t1\n", 0, -LP_EVERSION,
	  "t.lprof:1: unsupported profile version 2 (this build reads "
	  "version 1)" },
	{ "likelyprof-profile\t12\n", 0, -LP_EVERSION,
	  "t.lprof:1: unsupported profile version 12 (this build reads "
	  "version 1)" },
	{ "likelyprof-profile\tx\n", 0, -LP_EPARSE,
	  "t.lprof:1: bad profile version 'x'" },
	{ "likelyprof-profile\t1\r\n" S "end\t1\n", 0, -LP_EPARSE,
	  "t.lprof:1: CRLF line ending (profiles end lines with LF)" },
	{ H "\n" S "end\t1\n", 0, -LP_EPARSE, "t.lprof:2: empty line" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\n", 0, -LP_EPARSE,
	  "t.lprof:2: site record has 9 fields, expected 10" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\ty\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad sure value 'y'" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\t\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad sure value ''" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\texact\ty\n", 0,
	  -LP_EPARSE, "t.lprof:2: site record has 12 fields, expected 10" },
	/* a stated probability has one spelling, and none after "if" */
	{ H "site\t1\t2\t0\t1@0.90\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value '1@0.90'" },
	{ H "site\t1\t2\t0\t1@1.0\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value '1@1.0'" },
	{ H "site\t1\t2\t0\t1@\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value '1@'" },
	{ H "site\t1\t2\t0\tif@0.5\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value 'if@0.5'" },
	{ H "site\t1\t2\t0\t1@0.1234567\ta.c\t3\tf\ta.c\tx\n", 0,
	  -LP_EPARSE, "t.lprof:2: bad expect value '1@0.1234567'" },
	{ H "site\t1\t2\t0\t@0.5\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value '@0.5'" },
	{ H "meta\tk\n", 0, -LP_EPARSE,
	  "t.lprof:2: meta record has 2 fields, expected 3" },
	{ H "end\n", 0, -LP_EPARSE,
	  "t.lprof:2: end record has 1 fields, expected 2" },
	{ H "site\t01\t2\t0\t1\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad correct count '01'" },
	{ H "site\t1\t+2\t0\t1\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad incorrect count '+2'" },
	{ H "site\t1\t2\t\t1\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad constant count ''" },
	{ H "site\t18446744073709551616\t2\t0\t1\ta.c\t3\tf\ta.c\tx\n", 0,
	  -LP_EPARSE, "t.lprof:2: bad correct count '18446744073709551616'" },
	{ H "site\t1\t2\t0\t-0\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value '-0'" },
	{ H "site\t1\t2\t0\tIF\ta.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad expect value 'IF'" },
	{ H "site\t1\t2\t0\t-2147483648\ta.c\t3\tf\ta.c\tx\n", 0,
	  -LP_EPARSE, "t.lprof:2: bad expect value '-2147483648'" },
	{ H "site\t1\t2\t0\t1\ta.c\t0\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad line number '0'" },
	{ H "site\t1\t2\t0\t1\ta.c\t2147483648\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad line number '2147483648'" },
	{ H "site\t1\t2\t0\t1\ta\\q.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad escape '\\q' in file" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\\x0\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad escape '\\x0' in function" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta\\x00\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad escape '\\x00' in unit" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\\x0A\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad escape '\\x0A' in condition" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\\\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad escape '\\' in condition" },
	{ H "site\t1\t2\t0\t1\ta\x01.c\t3\tf\ta.c\tx\n", 0, -LP_EPARSE,
	  "t.lprof:2: raw control character 0x01 in file" },
	{ H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\ry\n", 0, -LP_EPARSE,
	  "t.lprof:2: raw control character 0x0d in condition" },
	{ H "meta\t\tv\n", 0, -LP_EPARSE, "t.lprof:2: empty meta key" },
	{ H "meta\tk\\z\tv\n", 0, -LP_EPARSE,
	  "t.lprof:2: bad escape '\\z' in meta key" },
	{ H "end\t0\n" S, 0, -LP_EPARSE,
	  "t.lprof:3: record after the end record" },
	{ H "bogus\t1\n", 0, -LP_EPARSE, "t.lprof:2: unknown record 'bogus'" },
	{ H H, 0, -LP_EPARSE,
	  "t.lprof:2: second likelyprof-profile record" },
	{ S "end\t1\n", 0, -LP_EPARSE,
	  "t.lprof:1: not a likelyprof profile or kernel branch table" },
	{ "hello\n", 0, -LP_EPARSE,
	  "t.lprof:1: not a likelyprof profile or kernel branch table" },
	{ BIN(H "site\t1\t2\0\t0\t1\n"), -LP_EBINARY,
	  "t.lprof:2: binary data (NUL byte)" },
	{ BIN("\x7f" "ELF\x02\x01\x01\0\0\0"), -LP_EBINARY,
	  "t.lprof:1: binary data (NUL byte)" },
};

static void test_read__errors(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_inputs) / sizeof(bad_inputs[0]); i++) {
		const struct bad *b = &bad_inputs[i];
		struct lp_profile p = LP_PROFILE_INIT;
		struct lp_diag diag;
		size_t len = b->len ? b->len : strlen(b->text);
		int err;

		add_site(&p, "kept.c", 1, "f", 1, "", "", 1, 1, 1);
		err = lp_profile_read_buf(&p, "t.lprof", b->text, len, &diag);
		if (err != b->code || strcmp(diag.msg, b->msg))
			LP_FAIL_("input %zu: got %d \"%s\", want %d \"%s\"",
				 i, err, diag.msg, b->code, b->msg);
		/* ... and read in two halves, the same */
		err = lp_profile_read_buf_split(&p, "t.lprof", b->text, len,
						&diag, 0);
		if (err != b->code || strcmp(diag.msg, b->msg))
			LP_FAIL_("input %zu split: got %d \"%s\", want %d "
				 "\"%s\"", i, err, diag.msg, b->code, b->msg);
		/* a failed read leaves the profile as it was */
		LP_CHECK_INT(p.nr, 1);
		LP_CHECK_INT(p.meta_nr, 0);
		lp_profile_release(&p);
	}
}

/* Reads @text in one piece and in two; both must give the same. */
static void same_split(const char *text, const char *what, size_t k)
{
	struct lp_profile a = LP_PROFILE_INIT, b = LP_PROFILE_INIT;
	struct lp_diag da, db;
	size_t len = strlen(text), i;
	int ea = lp_profile_read_buf_split(&a, "t.lprof", text, len, &da,
					   (size_t)-1);
	int eb = lp_profile_read_buf_split(&b, "t.lprof", text, len, &db, 0);

	if (ea != eb || (ea && strcmp(da.msg, db.msg))) {
		LP_FAIL_("%s at line %zu: one reading %d \"%s\", two %d "
			 "\"%s\"", what, k, ea, da.msg, eb, db.msg);
	} else if (a.nr != b.nr || a.meta_nr != b.meta_nr) {
		LP_FAIL_("%s at line %zu: %zu sites and %zu meta in one "
			 "reading, %zu and %zu in two", what, k, a.nr,
			 a.meta_nr, b.nr, b.meta_nr);
	} else {
		for (i = 0; i < a.nr; i++) {
			const struct lp_prof_site *x = &a.sites[i];
			const struct lp_prof_site *y = &b.sites[i];

			if (strcmp(x->file, y->file) || x->line != y->line ||
			    strcmp(x->func, y->func) ||
			    strcmp(x->unit, y->unit) ||
			    strcmp(x->cond, y->cond) ||
			    x->expect != y->expect ||
			    x->correct != y->correct ||
			    x->incorrect != y->incorrect ||
			    x->constant != y->constant ||
			    x->src_line != y->src_line)
				LP_FAIL_("%s at line %zu: site %zu differs",
					 what, k, i);
		}
		for (i = 0; i < a.meta_nr; i++)
			if (strcmp(a.meta[i].key, b.meta[i].key) ||
			    strcmp(a.meta[i].value, b.meta[i].value))
				LP_FAIL_("%s at line %zu: meta %zu differs",
					 what, k, i);
	}
	lp_profile_release(&a);
	lp_profile_release(&b);
}

/*
 * A profile of 40 lines, then the same with line k of it replaced, for
 * every k: wherever the halves meet relative to a header, a meta, an
 * error or the end record, two readings give what one gives.
 */
static void test_read__split_same(void)
{
	static const char *const replacements[] = {
		"bogus\t1",                            /* unknown record */
		"likelyprof-profile\t1",               /* second header */
		"end\t38",                             /* an early end */
		"meta\tprogram\tother",               /* meta in a half */
		"# a comment",
		"site\t1\t2\t0\tif\tb.c\t9\tg\tb.c\t(x)",
		"site\t1\t2\t0\t1\tb.c\t0\tg\tb.c\tx", /* bad line */
	};
	char lines[40][96], text[40 * 96 + 1];
	size_t k, r, i;

	for (k = 0; k < 40; k++)
		snprintf(lines[k], sizeof(lines[k]),
			 "site\t%zu\t%zu\t0\t1\ta%zu.c\t%zu\tf\ta.c\t!!(x)",
			 k * 7, k % 3, k / 5, k + 1);
	snprintf(lines[0], sizeof(lines[0]), "likelyprof-profile\t1");
	snprintf(lines[1], sizeof(lines[1]), "meta\tprogram\tt");
	snprintf(lines[39], sizeof(lines[39]), "end\t37");
	for (r = 0; r <= sizeof(replacements) / sizeof(replacements[0]);
	     r++) {
		for (k = 0; k < 40; k++) {
			*text = '\0';
			for (i = 0; i < 40; i++) {
				const char *l = lines[i];

				if (i == k && r < sizeof(replacements) /
						  sizeof(replacements[0]))
					l = replacements[r];
				strcat(text, l);
				strcat(text, "\n");
			}
			same_split(text, r < sizeof(replacements) /
				   sizeof(replacements[0]) ? replacements[r] :
				   "as it is", k + 1);
		}
	}
}

static void test_read__file_errors(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;

	LP_CHECK_INT(lp_profile_read_file(&p, "/nonexistent/x.lprof", &diag),
		     -LP_ENOENT);
	LP_CHECK_STR(diag.msg,
		     "/nonexistent/x.lprof: No such file or directory");
	LP_CHECK_INT(lp_profile_read_file(&p, "/", &diag), -LP_EIO);
	LP_CHECK_STR(diag.msg, "/: Is a directory");
	LP_CHECK_INT(lp_profile_read_file(&p, "tests/data/seeds/004.txt",
					  &diag), 0);
	LP_CHECK_INT(p.nr, 1);
	LP_CHECK_STR(p.name, "tests/data/seeds/004.txt");
	lp_profile_release(&p);
}

/*-************************************
 *  Merge
 **************************************/
static uint64_t rng_state;

static uint64_t rng(uint64_t n)
{
	rng_state = rng_state * 6364136223846793005ULL + 1442695040888963407ULL;
	return (rng_state >> 33) % n;
}

/*
 * A random profile over a small key space, so keys repeat within one
 * profile (static inline copies) and across profiles, with counts near
 * 2^64 now and then to exercise saturation.
 */
static void random_profile(struct lp_profile *p, size_t n)
{
	static const char *const files[] = { "a.c", "b/c.h", "z.c" };
	static const char *const funcs[] = { "f", "g", "" };
	size_t i;

	for (i = 0; i < n; i++) {
		uint64_t big = rng(20) ? 0 : UINT64_MAX - rng(1000);

		add_site(p, files[rng(3)], 1 + (long)rng(3), funcs[rng(3)],
			 rng(2) ? LP_EXPECT_UNKNOWN : (long)rng(2),
			 rng(2) ? "u1.c" : "u2.c", rng(2) ? "x" : "y",
			 rng(1000) + big, rng(1000), rng(3));
	}
}

static char *merged_bytes(const struct lp_profile *const *in, size_t n)
{
	struct lp_profile acc = LP_PROFILE_INIT;
	char *text;
	size_t i;

	for (i = 0; i < n; i++)
		LP_CHECK_INT(lp_profile_merge(&acc, in[i]), 0);
	text = write_str(&acc);
	lp_profile_release(&acc);
	return text;
}

static void test_merge__commutative_associative(void)
{
	int round;

	rng_state = 42;
	for (round = 0; round < 200; round++) {
		struct lp_profile a = LP_PROFILE_INIT, b = LP_PROFILE_INIT;
		struct lp_profile c = LP_PROFILE_INIT, ab = LP_PROFILE_INIT;
		struct lp_profile bc = LP_PROFILE_INIT;
		const struct lp_profile *abc[] = { &a, &b, &c };
		const struct lp_profile *cba[] = { &c, &b, &a };
		const struct lp_profile *bca[] = { &b, &c, &a };
		const struct lp_profile *ab_c[] = { &ab, &c };
		const struct lp_profile *a_bc[] = { &a, &bc };
		char *t1, *t2, *t3, *t4, *t5;

		random_profile(&a, rng(40));
		random_profile(&b, rng(40));
		random_profile(&c, rng(40));
		LP_CHECK_INT(lp_profile_merge(&ab, &a), 0);
		LP_CHECK_INT(lp_profile_merge(&ab, &b), 0);
		LP_CHECK_INT(lp_profile_merge(&bc, &b), 0);
		LP_CHECK_INT(lp_profile_merge(&bc, &c), 0);
		t1 = merged_bytes(abc, 3);
		t2 = merged_bytes(cba, 3);
		t3 = merged_bytes(bca, 3);
		t4 = merged_bytes(ab_c, 2);
		t5 = merged_bytes(a_bc, 2);
		if (strcmp(t1, t2) || strcmp(t1, t3))
			LP_FAIL_("round %d: merge order changed the result",
				 round);
		if (strcmp(t1, t4) || strcmp(t1, t5))
			LP_FAIL_("round %d: merge grouping changed the result",
				 round);
		free(t1);
		free(t2);
		free(t3);
		free(t4);
		free(t5);
		lp_profile_release(&a);
		lp_profile_release(&b);
		lp_profile_release(&c);
		lp_profile_release(&ab);
		lp_profile_release(&bc);
	}
}

/* Writes @text to a new temporary file; returns its malloc'd path. */
static char *temp_file(const char *text)
{
	const char *dir = getenv("LP_TEST_TMP");
	char *path = malloc(4096);
	int fd;
	FILE *f;

	snprintf(path, 4096, "%s/u-profile.XXXXXX", dir && *dir ? dir :
		 "/tmp");
	fd = mkstemp(path);
	f = fd < 0 ? NULL : fdopen(fd, "w");
	if (!f || fputs(text, f) < 0 || fclose(f)) {
		LP_FAIL_("cannot write %s", path);
		return path;
	}
	return path;
}

/* @text with the meta records and each site's votes left out. */
static char *without_votes(const char *text)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *out;
	size_t i;

	LP_CHECK_INT(read_str(&p, text, &diag), 0);
	/* the merge's own additions: votes and the processes' ways */
	for (i = 0; i < p.nr; i++)
		p.sites[i].has_votes = p.sites[i].has_procs = 0;
	for (i = 0; i < p.meta_nr; i++) {
		free(p.meta[i].key);
		free(p.meta[i].value);
	}
	p.meta_nr = 0;
	out = write_str(&p);
	lp_profile_release(&p);
	return out;
}

/* Reverses the order of the site lines of profile @text, in place. */
static void reverse_sites(char *text)
{
	char *first = strstr(text, "\nsite\t"), *end = strstr(text, "\nend\t");
	char *copy, *p, *o;
	size_t n;

	if (!first || !end || first == end)
		return;
	first++;
	end++;
	n = (size_t)(end - first);
	copy = malloc(n);
	o = copy + n;
	/* each line, from the first, goes to the end of the copy */
	for (p = first; p < end;) {
		char *nl = memchr(p, '\n', (size_t)(end - p));
		size_t len = (size_t)(nl - p) + 1;

		o -= len;
		memcpy(o, p, len);
		p += len;
	}
	memcpy(first, copy, n);
	free(copy);
}

/* Merges the files of @in with lp_merge_write(), as merge does. */
static char *stream_merged(struct lp_merge_input *in, size_t n,
			   size_t bufsize)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f = tmpfile();
	struct lp_diag diag;
	int err, again = 0;

	while ((err = lp_merge_write(f, in, n, NULL, bufsize, 0, NULL,
				     &diag)) == LP_MERGE_AGAIN) {
		again++;
		rewind(f);
		LP_CHECK_INT(ftruncate(fileno(f), 0), 0);
	}
	LP_CHECK_INT(err, 0);
	if (err)
		LP_FAIL_("%s", diag.msg);
	len = (size_t)ftell(f);
	buf = calloc(1, len + 1);
	rewind(f);
	LP_CHECK_INT(fread(buf, 1, len, f) == len, 1);
	fclose(f);
	return buf;
}

static void test_merge__stream_same(void)
{
	int round;

	rng_state = 7;
	for (round = 0; round < 60; round++) {
		struct lp_profile p[3] = { LP_PROFILE_INIT, LP_PROFILE_INIT,
					   LP_PROFILE_INIT };
		const struct lp_profile *all[3] = { &p[0], &p[1], &p[2] };
		struct lp_merge_input in[3];
		struct lp_diag diag;
		char *want, *got, *bare;
		size_t i;

		memset(in, 0, sizeof(in));
		for (i = 0; i < 3; i++) {
			char *text;

			random_profile(&p[i], rng(60));
			text = write_str(&p[i]);
			/* one input out of order: the sites reversed */
			if (i == 1)
				reverse_sites(text);
			in[i].path = temp_file(text);
			/* what the file says, in the file's order */
			lp_profile_release(&p[i]);
			LP_CHECK_INT(read_str(&p[i], text, &diag), 0);
			free(text);
		}
		want = merged_bytes(all, 3);
		got = stream_merged(in, 3, 64 + rng(200));
		bare = without_votes(got);
		if (strcmp(want, bare))
			LP_FAIL_("round %d: the streaming merge differs:\n%s\n"
				 "---\n%s", round, want, bare);
		free(want);
		free(got);
		free(bare);
		for (i = 0; i < 3; i++) {
			unlink(in[i].path);
			free((char *)in[i].path);
			lp_profile_release(&p[i]);
		}
	}
}

/*
 * The processes' ways come last: after votes and samples, which are
 * empty where a site has none, and they read back as written.
 */
static void test_roundtrip__ways(void)
{
	static const char text[] =
		H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\t\t7\t3\t\t\t4\t0\t2\n"
		"site\t1\t2\t0\t1\tb.c\t3\tf\tb.c\tx\testimated\t\t\t5\t6\t0\t9\t0\n"
		"end\t2\n";
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *again;

	LP_CHECK_INT(read_str(&p, text, &diag), 0);
	LP_CHECK_INT(p.sites[0].has_procs, 1);
	LP_CHECK_INT(p.sites[0].has_samples, 0);
	LP_CHECK_INT(p.sites[0].procs_right, 4);
	LP_CHECK_INT(p.sites[0].procs_both, 2);
	LP_CHECK_INT(p.sites[1].has_votes, 0);
	LP_CHECK_INT(p.sites[1].samp_wrong, 6);
	LP_CHECK_INT(p.sites[1].procs_wrong, 9);
	again = write_str(&p);
	LP_CHECK_STR(strchr(again, '\n') + 1, text);
	free(again);
	lp_profile_release(&p);
}

static void test_roundtrip__votes(void)
{
	static const char text[] =
		H "site\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\t\t7\t3\n"
		"site\t1\t2\t0\t1\tb.c\t3\tf\tb.c\tx\texact\t0\t18446744073709551615\n"
		"end\t2\n";
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *again;

	LP_CHECK_INT(read_str(&p, text, &diag), 0);
	LP_CHECK_INT(p.sites[0].has_votes, 1);
	LP_CHECK_INT(p.sites[0].votes_right, 7);
	LP_CHECK_INT(p.sites[0].votes_wrong, 3);
	LP_CHECK_INT(p.sites[1].sure, LP_SURE_EXACT);
	LP_CHECK_INT(p.sites[1].votes_wrong == UINT64_MAX, 1);
	again = write_str(&p);
	/* the writer's first line is its comment */
	LP_CHECK_STR(strchr(again, '\n') + 1, text);
	free(again);
	lp_profile_release(&p);
}

/* The k-th record of a key pairs with the k-th; extra ones are kept. */
static void test_merge__pairs_by_order(void)
{
	struct lp_profile a = LP_PROFILE_INIT, b = LP_PROFILE_INIT;

	add_site(&a, "mm.h", 657, "page_mapping", 0, "", "", 10, 1, 0);
	add_site(&a, "mm.h", 657, "page_mapping", 0, "", "", 20, 2, 0);
	add_site(&b, "mm.h", 657, "page_mapping", 0, "", "", 100, 10, 1);
	add_site(&b, "mm.h", 657, "page_mapping", 0, "", "", 200, 20, 2);
	add_site(&b, "mm.h", 657, "page_mapping", 0, "", "", 300, 30, 3);
	add_site(&b, "mm.h", 659, "page_mapping", 0, "", "", 5, 5, 0);
	LP_CHECK_INT(lp_profile_merge(&a, &b), 0);
	LP_CHECK_INT(a.nr, 4);
	if (a.nr == 4) {
		LP_CHECK_U64(a.sites[0].correct, 110);
		LP_CHECK_U64(a.sites[1].correct, 220);
		LP_CHECK_U64(a.sites[1].constant, 2);
		LP_CHECK_U64(a.sites[2].correct, 300);
		LP_CHECK_INT(a.sites[3].line, 659);
	}
	lp_profile_release(&a);
	lp_profile_release(&b);
}

static void test_merge__saturates(void)
{
	struct lp_profile a = LP_PROFILE_INIT, b = LP_PROFILE_INIT;

	add_site(&a, "a.c", 1, "f", 1, "", "", UINT64_MAX - 1, 5, 1);
	add_site(&b, "a.c", 1, "f", 1, "", "", 7, UINT64_MAX, 2);
	LP_CHECK_INT(lp_profile_merge(&a, &b), 0);
	LP_CHECK_INT(a.nr, 1);
	LP_CHECK_U64(a.sites[0].correct, UINT64_MAX);
	LP_CHECK_U64(a.sites[0].incorrect, UINT64_MAX);
	LP_CHECK_U64(a.sites[0].constant, 3);
	lp_profile_release(&a);
	lp_profile_release(&b);
}

/* A merge of a million-site-like load must stay linear: a smoke test. */
static void test_merge__many_sites(void)
{
	struct lp_profile a = LP_PROFILE_INIT, b = LP_PROFILE_INIT;
	char file[32];
	size_t i;

	for (i = 0; i < 20000; i++) {
		snprintf(file, sizeof(file), "f%zu.c", i % 97);
		add_site(&a, file, (long)i + 1, "f", 1, "", "", 1, 0, 0);
		add_site(&b, file, (long)(20000 - i), "f", 1, "", "", 2, 0, 0);
	}
	LP_CHECK_INT(lp_profile_merge(&a, &b), 0);
	/* lines 1..20000 in both, but files differ unless i % 97 agrees */
	LP_CHECK(a.nr > 20000 && a.nr < 40000);
	lp_profile_release(&a);
	lp_profile_release(&b);
}

/*-************************************
 *  Sort
 **************************************/
static void test_sort__canonical_and_stable(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	static const char *const want[] = {
		/* file, then line numerically, func, expect, unit, cond */
		"a.c:2:f:0:u:x:1", "a.c:2:f:0:u:x:2", "a.c:2:g:0:u:x:3",
		"a.c:10:f:-1:u:x:4", "a.c:10:f:1:u:x:5", "a.c:10:f:1:v:x:6",
		"b.c:1:f:1:u:a:7", "b.c:1:f:1:u:b:8",
	};
	size_t i;

	add_site(&p, "b.c", 1, "f", 1, "u", "b", 8, 0, 0);
	add_site(&p, "a.c", 10, "f", 1, "v", "x", 6, 0, 0);
	add_site(&p, "a.c", 2, "f", 0, "u", "x", 1, 0, 0);
	add_site(&p, "a.c", 10, "f", 1, "u", "x", 5, 0, 0);
	add_site(&p, "a.c", 2, "g", 0, "u", "x", 3, 0, 0);
	add_site(&p, "b.c", 1, "f", 1, "u", "a", 7, 0, 0);
	add_site(&p, "a.c", 10, "f", -1, "u", "x", 4, 0, 0);
	add_site(&p, "a.c", 2, "f", 0, "u", "x", 2, 0, 0);
	LP_CHECK_INT(lp_profile_set_meta(&p, "z", "1"), 0);
	LP_CHECK_INT(lp_profile_set_meta(&p, "a", "2"), 0);
	LP_CHECK_INT(lp_profile_set_meta(&p, "z", "3"), 0);
	lp_profile_sort(&p);
	for (i = 0; i < p.nr; i++) {
		const struct lp_prof_site *s = &p.sites[i];
		char got[64];

		snprintf(got, sizeof(got), "%s:%ld:%s:%ld:%s:%s:%llu", s->file,
			 s->line, s->func, s->expect, s->unit, s->cond,
			 (unsigned long long)s->correct);
		LP_CHECK_STR(got, want[i]);
	}
	LP_CHECK_INT(p.meta_nr, 2);
	LP_CHECK_STR(p.meta[0].key, "a");
	LP_CHECK_STR(p.meta[1].value, "3");
	lp_profile_release(&p);
}

int main(void)
{
	LP_TEST(test_roundtrip__escapes);
	LP_TEST(test_roundtrip__numbers);
	LP_TEST(test_roundtrip__sure);
	LP_TEST(test_read__comments_and_append);
	LP_TEST(test_roundtrip__probability);
	LP_TEST(test_read__repeated_meta_once);
	LP_TEST(test_read__errors);
	LP_TEST(test_read__split_same);
	LP_TEST(test_read__file_errors);
	LP_TEST(test_merge__commutative_associative);
	LP_TEST(test_merge__pairs_by_order);
	LP_TEST(test_merge__stream_same);
	LP_TEST(test_roundtrip__votes);
	LP_TEST(test_roundtrip__ways);
	LP_TEST(test_merge__saturates);
	LP_TEST(test_merge__many_sites);
	LP_TEST(test_sort__canonical_and_stable);
	return lp_test_done();
}
