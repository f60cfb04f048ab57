/*
 * u-ktable.c - the kernel's branch tables: reading, layout and order
 *
 * What is checked: every table of the 2010 series (tests/data/seeds/,
 * copied from the seed files as they stand) reads with its row count and
 * totals, and its rows printed again in the kernel's layout and order give
 * the rows of the table wherever Steven Rostedt's mail kept the kernel's
 * spacing; the "correct/constant" form of current kernels, "X" rows, the
 * percent check, branch_all, and pasting noise.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "ktable.h"
#include "profile.h"
#include "test.h"

static const struct seed {
	const char *name;
	size_t rows;
	uint64_t correct, incorrect;    /* summed over the rows */
	const char *first;              /* function:file:line of row 1 */
	int exact;                      /* the mail kept the kernel's spacing */
} seeds[] = {
	{ "001", 8, 0ULL, 1036627420ULL,
	  "sched_info_switch:sched_stats.h:269", 1 },
	{ "002", 13, 1922413215ULL, 2539977016ULL,
	  "mapping_unevictable:pagemap.h:51", 1 },
	{ "003", 2, 192ULL, 1992500ULL,
	  "wq_worker_sleeping:workqueue.c:703", 1 },
	{ "004", 1, 324344ULL, 135104992ULL,
	  "_pick_next_task_rt:sched_rt.c:1064", 1 },
	{ "005", 1, 1924262ULL, 71332401ULL,
	  "grab_cache_page_write_begin:filemap.c:2206", 0 },
	{ "006", 1, 36667ULL, 654674ULL, "rt_policy:sched.c:126", 1 },
	{ "007", 3, 76788749ULL, 912140406ULL,
	  "__switch_to:process_64.c:408", 0 },
	{ "008", 9, 1029878071ULL, 6196445154ULL, "fput_light:file.h:26", 0 },
	{ "009", 1, 1035099358ULL, 6209599193ULL,
	  "fget_light:file_table.c:315", 0 },
	{ "010", 1, 34884862ULL, 146110926ULL,
	  "ttwu_post_activation:sched.c:2309", 0 },
	{ "011", 12, 1909540379ULL, 1270533123ULL,
	  "page_mapping:mm.h:659", 1 },
};

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "rb");
	char *buf = calloc(1, 1 << 16);
	size_t n;

	if (!f || !buf) {
		LP_FAIL_("cannot read %s", path);
		if (f)
			fclose(f);
		return buf;
	}
	n = fread(buf, 1, (1 << 16) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

/* The table of @p as report prints it: header, rows in kernel order. */
static char *kernel_table(const struct lp_profile *p, int all)
{
	struct lp_kernel_key *keys = calloc(p->nr + 1, sizeof(*keys));
	size_t i, len;
	char *out = malloc(strlen(LP_KERNEL_HEADER) + 1 +
			   (p->nr + 1) * LP_KERNEL_ROW_MAX);

	strcpy(out, all ? LP_KERNEL_ALL_HEADER : LP_KERNEL_HEADER);
	len = strlen(out);
	for (i = 0; i < p->nr; i++)
		lp_kernel_key_init(&keys[i], &p->sites[i]);
	LP_CHECK_INT(lp_kernel_sort(keys, p->nr), 0);
	for (i = 0; i < p->nr; i++)
		len += lp_kernel_row(out + len, keys[i].site);
	free(keys);
	return out;
}

/* Collapses runs of blanks, so tables compare by their columns only. */
static void squeeze(char *s)
{
	char *o = s;
	int pending = 0, at_start = 1;

	for (; *s; s++) {
		if (*s == ' ') {
			pending = !at_start;
			continue;
		}
		if (*s == '\n') {
			pending = 0;
			at_start = 1;
		} else {
			if (pending)
				*o++ = ' ';
			pending = 0;
			at_start = 0;
		}
		*o++ = *s;
	}
	*o = '\0';
}

static void test_seeds__read(void)
{
	size_t i, k;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		const struct seed *sd = &seeds[i];
		struct lp_profile p = LP_PROFILE_INIT;
		struct lp_diag diag;
		char path[64], first[128];
		uint64_t c = 0, w = 0;
		int err;

		snprintf(path, sizeof(path), "tests/data/seeds/%s.txt",
			 sd->name);
		err = lp_profile_read_file(&p, path, &diag);
		if (err) {
			LP_FAIL_("seed %s: %s", sd->name, diag.msg);
			continue;
		}
		LP_CHECK_INT(p.origin, LP_ORIGIN_KERNEL);
		LP_CHECK_INT(p.nr, sd->rows);
		for (k = 0; k < p.nr; k++) {
			c += p.sites[k].correct;
			w += p.sites[k].incorrect;
			LP_CHECK_INT(p.sites[k].expect, LP_EXPECT_UNKNOWN);
			LP_CHECK_STR(p.sites[k].unit, "");
			LP_CHECK_STR(p.sites[k].cond, "");
			LP_CHECK_INT(p.sites[k].src_line, k + 3);
		}
		LP_CHECK_U64(c, sd->correct);
		LP_CHECK_U64(w, sd->incorrect);
		if (p.nr) {
			snprintf(first, sizeof(first), "%s:%s:%ld",
				 p.sites[0].func, p.sites[0].file,
				 p.sites[0].line);
			LP_CHECK_STR(first, sd->first);
		}
		lp_profile_release(&p);
	}
}

/*
 * Read and printed again, each table gives back its own rows in the same
 * order, because the kernel sorted them the way report does; where the
 * mail kept the kernel's spacing, byte for byte.
 */
static void test_seeds__layout_and_order(void)
{
	size_t i;

	for (i = 0; i < sizeof(seeds) / sizeof(seeds[0]); i++) {
		struct lp_profile p = LP_PROFILE_INIT;
		struct lp_diag diag;
		char path[64], *text, *table;

		snprintf(path, sizeof(path), "tests/data/seeds/%s.txt",
			 seeds[i].name);
		text = slurp(path);
		if (lp_profile_read_file(&p, path, &diag)) {
			LP_FAIL_("seed %s: %s", seeds[i].name, diag.msg);
			free(text);
			continue;
		}
		table = kernel_table(&p, 0);
		if (seeds[i].exact && strcmp(table, text))
			LP_FAIL_("seed %s: layout differs:\n%s", seeds[i].name,
				 table);
		/* the header of a re-indented mail differs; compare rows */
		squeeze(text);
		squeeze(table);
		if (strcmp(strchr(strchr(table, '\n') + 1, '\n'),
			   strchr(strchr(text, '\n') + 1, '\n')))
			LP_FAIL_("seed %s: rows or order differ:\n%s",
				 seeds[i].name, table);
		free(text);
		free(table);
		lp_profile_release(&p);
	}
}

#define HDR " correct incorrect  %        Function                  File" \
	"              Line\n ------- ---------  -        --------      " \
	"            ----              ----\n"

static int read_str(struct lp_profile *p, const char *text,
		    struct lp_diag *diag)
{
	return lp_profile_read_buf(p, "k.txt", text, strlen(text), diag);
}

/* Current kernels print "correct/constant" and pad incorrect less. */
static void test_ktable__constant_form(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *table;

	LP_CHECK_INT(read_str(&p, HDR
		"      12/5       3  20 f                              a.h"
		"                  7\n"
		"   70000/123456  1   0 g                              b.h"
		"                  9\n", &diag), 0);
	LP_CHECK_INT(p.nr, 2);
	if (p.nr == 2) {
		LP_CHECK_U64(p.sites[0].correct, 12);
		LP_CHECK_U64(p.sites[0].constant, 5);
		LP_CHECK_U64(p.sites[0].incorrect, 3);
		LP_CHECK_U64(p.sites[1].constant, 123456);
	}
	/* l = 8 - strlen("/5") = 6; l = 8 - strlen("/123456") = 1 */
	table = kernel_table(&p, 0);
	LP_CHECK_STR(table, HDR
		"      12/5      3  20 f                              a.h"
		"                  7\n"
		"   70000/123456 1   0 g                              b.h"
		"                  9\n");
	free(table);
	lp_profile_release(&p);
}

static void test_ktable__row_format(void)
{
	struct lp_prof_site s;
	char row[LP_KERNEL_ROW_MAX];

	memset(&s, 0, sizeof(s));
	s.file = "a/very/deep/path/to/a_file_name_longer_than_twenty.h";
	s.func = "a_function_name_that_is_longer_than_thirty_bytes";
	s.unit = s.cond = "";
	s.line = 42;
	/* %-30.30s and %-20.20s cut the names */
	LP_CHECK_INT(lp_kernel_row(row, &s), 77);
	LP_CHECK_STR(row, "       0        0   X a_function_name_that_is_long"
		     "er a_file_name_longer_t 42\n");
	s.correct = UINT64_MAX;
	s.incorrect = UINT64_MAX;
	s.constant = 99999999;
	s.line = 2147483647;
	s.file = "x.c";
	s.func = "f";
	lp_kernel_row(row, &s);
	LP_CHECK_STR(row, "18446744073709551615/99999999 18446744073709551615"
		     "  50 f                              x.c                "
		     "  2147483647\n");
}

/* --width: the Function field another width; at 30 the kernel's own. */
static void test_ktable__row_width(void)
{
	struct lp_prof_site s;
	char row[LP_KERNEL_ROW_MAX + 64], head[2 * (64 + 80)];

	memset(&s, 0, sizeof(s));
	s.file = "x.c";
	s.func = "a_function_name_that_is_longer_than_thirty_bytes";
	s.unit = s.cond = "";
	s.correct = 3;
	s.line = 7;
	LP_CHECK_INT(lp_kernel_row_width(row, &s, 48), 22 + 48 + 24);
	LP_CHECK_STR(row, "       3        0   0 a_function_name_that_is_long"
		     "er_than_thirty_bytes x.c                  7\n");
	lp_kernel_row_width(row, &s, 10);
	LP_CHECK_STR(row, "       3        0   0 a_function x.c          "
		     "        7\n");
	lp_kernel_header_width(head, 30, 0);
	LP_CHECK_STR(head, LP_KERNEL_HEADER);
	lp_kernel_header_width(head, 30, 1);
	LP_CHECK_STR(head, LP_KERNEL_ALL_HEADER);
	/* "Function" keeps its place over the names as the field grows */
	lp_kernel_header_width(head, 48, 0);
	LP_CHECK(strstr(head, "  %        Function" "                  "
			"                  File") != NULL);
	lp_kernel_header_width(head, 10, 0);
	LP_CHECK(strstr(head, "  %    Function  File ") != NULL);
	LP_CHECK(strstr(head, "  -    --------  ---- ") != NULL);
}

static void test_ktable__percent(void)
{
	LP_CHECK_INT(lp_kernel_percent(0, 0), -1);
	LP_CHECK_INT(lp_kernel_percent(0, 1), 100);
	LP_CHECK_INT(lp_kernel_percent(1, 0), 0);
	LP_CHECK_INT(lp_kernel_percent(1, 99), 99);
	LP_CHECK_INT(lp_kernel_percent(12872836, 1269443893), 98);
	LP_CHECK_INT(lp_kernel_percent(1909540379, 1270533123), 39);
	/* past 2^64 / 100 the kernel's product wraps; ours does not */
	LP_CHECK_INT(lp_kernel_percent(UINT64_MAX, UINT64_MAX), 50);
	LP_CHECK_INT(lp_kernel_percent(1, UINT64_MAX), 99);
}

/* Worst first: percent, then incorrect down, then correct up. */
static void test_ktable__order(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *table;

	LP_CHECK_INT(read_str(&p, HDR
		"0 0 X never a.c 1\n"
		"5 5 50 half b.c 2\n"
		"1 9 90 most c.c 3\n"
		"2 18 90 most2 c.c 4\n"
		"9 18 66 tie d.c 5\n"
		"0 1 100 one e.c 6\n"
		"4 8 66 tie2 d.c 6\n"
		"0 0 X early a.c 9\n", &diag), 0);
	table = kernel_table(&p, 0);
	LP_CHECK_STR(table, HDR
		"       0        1 100 one                            e.c"
		"                  6\n"
		"       2       18  90 most2                          c.c"
		"                  4\n"
		"       1        9  90 most                           c.c"
		"                  3\n"
		"       9       18  66 tie                            d.c"
		"                  5\n"
		"       4        8  66 tie2                           d.c"
		"                  6\n"
		"       5        5  50 half                           b.c"
		"                  2\n"
		"       0        0   X early                          a.c"
		"                  9\n"
		"       0        0   X never                          a.c"
		"                  1\n");
	free(table);
	lp_profile_release(&p);
}

/*
 * The threaded sort gives qsort()'s order at every size, the bucket that
 * straddles the middle included: few distinct counts and names, so most
 * keys tie far into the comparison.
 */
static void test_ktable__sort_threads(void)
{
	static const char *const names[] = { "f", "fn_a", "fn_a_long_name",
					     "dir/x.c", "x.c", "" };
	static const size_t sizes[] = { 2, 3, 17, 100, 1001, 5000 };
	struct lp_prof_site *sites = calloc(5000, sizeof(*sites));
	struct lp_kernel_key *a = calloc(5000, sizeof(*a));
	struct lp_kernel_key *b = calloc(5000, sizeof(*b));
	size_t i, k, bad = 0;
	unsigned x = 1;

	for (i = 0; i < 5000; i++) {
		x = x * 1103515245u + 12345u;
		sites[i].correct = (x >> 8) % 4;
		sites[i].incorrect = (x >> 12) % 3;
		sites[i].func = (char *)names[(x >> 16) % 3];
		sites[i].file = (char *)names[3 + (x >> 20) % 3];
		sites[i].line = (long)((x >> 24) % 3 + 1);
		sites[i].unit = sites[i].cond = (char *)"";
	}
	for (k = 0; k < sizeof(sizes) / sizeof(sizes[0]); k++) {
		for (i = 0; i < sizes[k]; i++) {
			lp_kernel_key_init(&a[i], &sites[i]);
			b[i] = a[i];
		}
		LP_CHECK_INT(lp_kernel_sort_par(a, sizes[k], 0), 0);
		qsort(b, sizes[k], sizeof(*b), lp_kernel_key_cmp);
		for (i = 0; i < sizes[k]; i++)
			bad += lp_kernel_key_cmp(&a[i], &b[i]) != 0;
	}
	LP_CHECK_INT((int)bad, 0);
	free(a);
	free(b);
	free(sites);
}

static const struct bad_table {
	const char *text;
	const char *msg;
} bad_tables[] = {
	{ HDR "       5 366631256 100 f  a.h  2\n",
	  "k.txt:3: percent 100 disagrees with the counts (the kernel prints "
	  "99)" },
	{ HDR "       5        0   X f  a.h  2\n",
	  "k.txt:3: percent 'X' disagrees with the counts (the kernel prints "
	  "0)" },
	{ HDR "       0        0   0 f  a.h  2\n",
	  "k.txt:3: percent 0 disagrees with the counts (the kernel prints "
	  "X)" },
	{ HDR "  5/3 7  58 f a.h\n",
	  "k.txt:3: not a row of the kernel table: '  5/3 7  58 f a.h'" },
	{ HDR "hello world\n",
	  "k.txt:3: not a row of the kernel table: 'hello world'" },
	{ HDR "  x 7  58 f a.h 4\n", "k.txt:3: bad correct count 'x'" },
	{ HDR "  5 -7  58 f a.h 4\n", "k.txt:3: bad incorrect count '-7'" },
	{ HDR "  5/x 7  58 f a.h 4\n", "k.txt:3: bad constant count 'x'" },
	{ HDR "  5 7  101 f a.h 4\n", "k.txt:3: bad percent '101'" },
	{ HDR "  5 7  58 f a.h 0\n", "k.txt:3: bad line number '0'" },
	{ " correct incorrect  %        Function                  File"
	  "              Line\n  5 7  58 f a.h 4\n",
	  "k.txt:2: expected the dashes line under the table header" },
	{ "   miss      hit    %        Function                  File"
	  "              Line\n ------- ---------  -        --------      "
	  "            ----              ----\n  5/1 7  58 f a.h 4\n",
	  "k.txt:3: bad miss count '5/1'" },
	{ "Which gives a result looking something like this:\n" HDR,
	  "k.txt:1: not a likelyprof profile or kernel branch table" },
};

static void test_ktable__errors(void)
{
	size_t i;

	for (i = 0; i < sizeof(bad_tables) / sizeof(bad_tables[0]); i++) {
		struct lp_profile p = LP_PROFILE_INIT;
		struct lp_diag diag;
		int err = read_str(&p, bad_tables[i].text, &diag);

		if (err != -LP_EPARSE || strcmp(diag.msg, bad_tables[i].msg))
			LP_FAIL_("table %zu: got %d \"%s\", want \"%s\"", i,
				 err, diag.msg, bad_tables[i].msg);
		LP_CHECK_INT(p.nr, 0);
		lp_profile_release(&p);
	}
}

/* Pasted from a mail: indented, CRLF, blank lines, comments before. */
static void test_ktable__pasted(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;

	LP_CHECK_INT(read_str(&p, "# from the list\n\n"
		"   correct incorrect  %  Function  File  Line\r\n"
		"   ------- ---------  -  --------  ----  ----\r\n"
		"\r\n"
		"\t  96   996253  99 wq_worker_sleeping  workqueue.c  703\r\n"
		"\n"
		"  96   996247  99 wq_worker_waking_up workqueue.c 677", &diag),
		0);
	LP_CHECK_INT(p.nr, 2);
	if (p.nr == 2)
		LP_CHECK_STR(p.sites[1].func, "wq_worker_waking_up");
	lp_profile_release(&p);
}

static void test_ktable__branch_all(void)
{
	struct lp_profile p = LP_PROFILE_INIT;
	struct lp_diag diag;
	char *table;

	LP_CHECK_INT(read_str(&p,
		"   miss      hit    %        Function                  File"
		"              Line\n"
		" ------- ---------  -        --------                  ----"
		"              ----\n"
		"      10       90  90 hot                            x.c"
		"                  3\n", &diag), 0);
	LP_CHECK_INT(p.origin, LP_ORIGIN_KERNEL_ALL);
	LP_CHECK_INT(p.nr, 1);
	LP_CHECK_INT(p.sites[0].expect, LP_EXPECT_IF);
	LP_CHECK_U64(p.sites[0].correct, 10);     /* miss, overlaid */
	table = kernel_table(&p, 1);
	LP_CHECK_STR(table,
		"   miss      hit    %        Function                  File"
		"              Line\n"
		" ------- ---------  -        --------                  ----"
		"              ----\n"
		"      10       90  90 hot                            x.c"
		"                  3\n");
	free(table);
	lp_profile_release(&p);
}

int main(void)
{
	LP_TEST(test_seeds__read);
	LP_TEST(test_seeds__layout_and_order);
	LP_TEST(test_ktable__constant_form);
	LP_TEST(test_ktable__row_format);
	LP_TEST(test_ktable__row_width);
	LP_TEST(test_ktable__percent);
	LP_TEST(test_ktable__order);
	LP_TEST(test_ktable__sort_threads);
	LP_TEST(test_ktable__errors);
	LP_TEST(test_ktable__pasted);
	LP_TEST(test_ktable__branch_all);
	return lp_test_done();
}
