/*
 * u-format.c - the record writer shared by the runtime and the tools:
 * numbers, escapes, records, and the unexpansion of nested hints.
 */
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "profile.h"
#include "test.h"

struct mem {
	struct lp_sink sink;
	char out[8192];
	size_t len;
	int fail_after;         /* flushes before one fails; -1: never */
};

static int mem_flush(struct lp_sink *sink)
{
	struct mem *m = (struct mem *)sink;

	if (m->fail_after == 0)
		return -LP_EIO;
	if (m->fail_after > 0)
		m->fail_after--;
	if (m->len + sink->len >= sizeof(m->out))
		return -LP_EIO;
	memcpy(m->out + m->len, sink->buf, sink->len);
	m->len += sink->len;
	m->out[m->len] = '\0';
	sink->len = 0;
	return 0;
}

/* A sink with a tiny buffer, so every path through flush() is taken. */
static void mem_init(struct mem *m, char *buf, size_t cap)
{
	memset(m, 0, sizeof(*m));
	m->sink.buf = buf;
	m->sink.cap = cap;
	m->sink.flush = mem_flush;
	m->fail_after = -1;
}

static const char *cond_text(const char *cond)
{
	static struct mem m;
	static char buf[7];

	mem_init(&m, buf, sizeof(buf));
	lp_sink_cond(&m.sink, cond);
	lp_sink_finish(&m.sink);
	return m.out;
}

static void test_numbers__limits(void)
{
	struct mem m;
	char buf[5];

	mem_init(&m, buf, sizeof(buf));
	lp_sink_u64(&m.sink, 0);
	lp_sink_str(&m.sink, " ");
	lp_sink_u64(&m.sink, 18446744073709551615ull);
	lp_sink_str(&m.sink, " ");
	lp_sink_long(&m.sink, -9223372036854775807L - 1);
	LP_CHECK_INT(lp_sink_finish(&m.sink), 0);
	LP_CHECK_STR(m.out, "0 18446744073709551615 -9223372036854775808");
}

static void test_escape__control_and_backslash(void)
{
	struct mem m;
	char buf[3];

	mem_init(&m, buf, sizeof(buf));
	lp_sink_escaped(&m.sink, "a\tb\nc\rd\\e\001f\177g\xc3\xa9");
	lp_sink_finish(&m.sink);
	LP_CHECK_STR(m.out, "a\\tb\\nc\\rd\\\\e\\x01f\\x7fg\xc3\xa9");
}

static void test_record__site_fields(void)
{
	struct mem m;
	char buf[16];

	mem_init(&m, buf, sizeof(buf));
	lp_sink_site(&m.sink, 1, 2, 3, LP_EXPECT_UNKNOWN, 0, "a\tb.c", 7, "f",
		     NULL, "x");
	lp_sink_site(&m.sink, 0, 0, 0, LP_EXPECT_IF, 0, "b.c", 1, "g", "u", "");
	lp_sink_site(&m.sink, 0, 0, 0, -3, 0, "c.c", 2, "h", "u", "y");
	lp_sink_end(&m.sink, 3);
	lp_sink_finish(&m.sink);
	LP_CHECK_STR(m.out,
		     "site\t1\t2\t3\t?\ta\\tb.c\t7\tf\t\tx\n"
		     "site\t0\t0\t0\tif\tb.c\t1\tg\tu\t\n"
		     "site\t0\t0\t0\t-3\tc.c\t2\th\tu\ty\n"
		     "end\t3\n");
}

static void test_sink__error_is_sticky(void)
{
	struct mem m;
	char buf[4];

	mem_init(&m, buf, sizeof(buf));
	m.fail_after = 1;
	lp_sink_str(&m.sink, "abcdefghijkl");
	lp_sink_str(&m.sink, "more");
	LP_CHECK_INT(lp_sink_finish(&m.sink), -LP_EIO);
	LP_CHECK_STR(m.out, "abcd");
}

/* What the header makes of `likely(a && unlikely(b))`'s inner hint. */
#define INNER_C "__builtin_choose_expr(__builtin_types_compatible_p( " \
	"__typeof__(8 ? ((void *)((long)(!!(b)) * 0l)) : (int *)8), int *), " \
	"(__builtin_expect)((!!(b)), (0)), __extension__ ({ static const " \
	"struct lp_site lp__site_2 = { \"t.c\", __func__, \"!!(b)\", " \
	"\"t.c\", 0, 18, 1 }; long lp__val_2 = (long)(!!(b)); " \
	"(__builtin_expect)(lp__val_2, (0)); }))"
#define INNER_CXX "(__builtin_is_constant_evaluated() ? " \
	"(__builtin_expect)((!!(b)), (0)) : (__builtin_expect)(" \
	"lp__hit<2>((long)(!!(b)), (long)(0), \"t.c\", \"!!(b)\", 18), (0)))"

/* ... and of a stated probability, whose condition holds a hint */
#define INNER_PROB "__builtin_choose_expr(__builtin_types_compatible_p( " \
	"__typeof__(8 ? ((void *)((long)(c, d) * 0l)) : (int *)8), int *), " \
	"(__builtin_expect_with_probability)(((c, d)), (1), (0.9)), " \
	"__extension__ ({ long lp__val_4 = ((c, d)); " \
	"(__builtin_expect_with_probability)((lp__val_4), ((1)), ((0.9))); }))"
#define INNER_PROB_CXX "(__builtin_is_constant_evaluated() ? " \
	"(__builtin_expect_with_probability)((x), (0), (0.25)) : " \
	"(__builtin_expect_with_probability)(lp__hit_prob<3>((x), (0), " \
	"true, \"t.cc\", 9), (0), (0.25)))"

static void test_cond__nested_probability_unexpanded(void)
{
	LP_CHECK_STR(cond_text("a || " INNER_PROB),
		     "a || __builtin_expect_with_probability((c, d), 1, 0.9)");
	LP_CHECK_STR(cond_text("!" INNER_PROB_CXX),
		     "!__builtin_expect_with_probability(x, 0, 0.25)");
	/* one kind inside the other's condition */
	LP_CHECK_STR(cond_text("!!(a && __builtin_choose_expr(__builtin_"
			       "types_compatible_p( x), "
			       "(__builtin_expect)((" INNER_PROB "), (0)), "
			       "y))"),
		     "!!(a && __builtin_expect(__builtin_expect_with_"
		     "probability((c, d), 1, 0.9), 0))");
	/* a call cut short is left as it is */
	LP_CHECK_STR(cond_text("__builtin_choose_expr(__builtin_types_"
			       "compatible_p( x), (__builtin_expect_with_"
			       "probability)((x), (1) 0.9), y)"),
		     "__builtin_choose_expr(__builtin_types_"
		     "compatible_p( x), (__builtin_expect_with_"
		     "probability)((x), (1) 0.9), y)");
}

static void test_cond__nested_hint_unexpanded(void)
{
	LP_CHECK_STR(cond_text("!!(a && " INNER_C ")"),
		     "!!(a && __builtin_expect(!!(b), 0))");
	LP_CHECK_STR(cond_text("(a && " INNER_CXX ") != 0"),
		     "(a && __builtin_expect(!!(b), 0)) != 0");
	/* two at one level, and one inside another's condition */
	LP_CHECK_STR(cond_text(INNER_C " || " INNER_C),
		     "__builtin_expect(!!(b), 0) || "
		     "__builtin_expect(!!(b), 0)");
}

/* Only the runtime's sink unexpands: a tool writes back what it read. */
static void test_record__unexpand_only_when_asked(void)
{
	struct mem m;
	char buf[64];

	mem_init(&m, buf, sizeof(buf));
	lp_sink_site(&m.sink, 0, 0, 0, 1, 0, "t.c", 1, "f", "u", INNER_C);
	lp_sink_finish(&m.sink);
	LP_CHECK(strstr(m.out, "__builtin_choose_expr") != NULL);
	mem_init(&m, buf, sizeof(buf));
	m.sink.unexpand = 1;
	lp_sink_site(&m.sink, 0, 0, 0, 1, 0, "t.c", 1, "f", "u", INNER_C);
	lp_sink_finish(&m.sink);
	LP_CHECK_STR(m.out, "site\t0\t0\t0\t1\tt.c\t1\tf\tu\t"
		     "__builtin_expect(!!(b), 0)\n");
}

static void test_cond__plain_text_untouched(void)
{
	LP_CHECK_STR(cond_text("!!(p != 0)"), "!!(p != 0)");
	LP_CHECK_STR(cond_text("s[i] == '(' && t[\"x\"]"),
		     "s[i] == '(' && t[\"x\"]");
	/* a cut-off expansion is written as it is, never misread */
	LP_CHECK_STR(cond_text("a && __builtin_choose_expr(__builtin_types_"
			       "compatible_p( x"),
		     "a && __builtin_choose_expr(__builtin_types_"
		     "compatible_p( x");
	LP_CHECK_STR(cond_text("x\t1"), "x\\t1");
}

/* Writes the same sites with sink.texts set or not; the text is @m's. */
static void write_sites(struct mem *m, char *buf, size_t cap,
			struct lp_texts *texts)
{
	static const char long_name[] = "a_function_name_longer_than_the_"
		"sixty_four_bytes_a_cached_text_holds_in_the_writer";
	static const char *conds[] = {
		"!!(p != 0)", "", "x\t1", "a && b",
		"a && __builtin_choose_expr(__builtin_types_compatible_p( x",
		"a__b", "0123456789abcdef_", "0123456789abcde__x",
		"a string of thirty-three bytes!!", NULL,
		/* longer than the room a record first gives its condition */
		"(a_very_long_condition_that_goes_on + and_on + and_on + "
		"and_on + and_on + and_on + and_on + and_on + and_on + "
		"and_on + and_on + and_on + and_on + and_on + and_on + "
		"and_on + and_on + and_on + and_on + and_on + and_on + "
		"and_on + and_on + and_on + and_on + and_on + and_on + "
		"and_on) != 0 && but_plain",
	};
	static const long expects[] = { 0, 1, -3, LP_EXPECT_UNKNOWN,
					LP_EXPECT_IF };
	size_t i;

	mem_init(m, buf, cap);
	m->sink.unexpand = 1;
	m->sink.texts = texts;
	for (i = 0; i < 40; i++) {
		uint64_t wrong = i < 20 ? i : 18446744073709551615ull;
		const char *file = i % 7 ? "lib/a.c" : "b\tc.c";
		const char *func = i % 4 ? "parse" : long_name;
		const char *unit = i % 9 ? "lib/a.c" : NULL;

		/* a stated probability on some: 0, 1, and places between */
		unsigned int prob = i % 3 ? 0 : 1 + (i * 987654u) % 1000001;

		lp_sink_site(&m->sink, i * 977, wrong, i % 3, expects[i % 5],
			     prob, file, (long)(i * 1234567 % 2147483647),
			     func, unit, conds[i % 11]);
	}
	lp_sink_end(&m->sink, 40);
	LP_CHECK_INT(lp_sink_finish(&m->sink), 0);
}

static void test_record__fast_path_same_bytes(void)
{
	static struct mem slow, fast, tight;
	static char buf_slow[16], buf_fast[4096], buf_tight[700];
	struct lp_texts texts;

	write_sites(&slow, buf_slow, sizeof(buf_slow), NULL);
	memset(&texts, 0, sizeof(texts));
	write_sites(&fast, buf_fast, sizeof(buf_fast), &texts);
	LP_CHECK_STR(fast.out, slow.out);
	/* a buffer that fills in the middle of a record */
	memset(&texts, 0, sizeof(texts));
	write_sites(&tight, buf_tight, sizeof(buf_tight), &texts);
	LP_CHECK_STR(tight.out, slow.out);
}

/*
 * Texts that end where their page does, the next page unmapped: the
 * fast path reads sixteen bytes a step only where they stay in a page,
 * and must give the general writer's bytes for every length and every
 * place of an escape or a "__" near the end.
 */
static void test_record__texts_at_a_page_end(void)
{
	static const char *const tails[] = { "x", "__", "a\tb", "_", "ab" };
	static struct mem slow, fast;
	static char buf_slow[16], buf_fast[4096];
	long page = sysconf(_SC_PAGESIZE);
	char *map = mmap(NULL, (size_t)page * 2, PROT_READ | PROT_WRITE,
			 MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	struct lp_texts texts;
	size_t len, t;

	LP_CHECK(map != MAP_FAILED);
	if (map == MAP_FAILED)
		return;
	LP_CHECK(mprotect(map + page, (size_t)page, PROT_NONE) == 0);
	for (len = 1; len < 40; len++)
		for (t = 0; t < sizeof(tails) / sizeof(tails[0]); t++) {
			char *s = map + page - len - 1;
			size_t k = strlen(tails[t]);

			memset(s, 'c', len);
			memcpy(s + (len > k ? len - k : 0), tails[t],
			       len < k ? len : k);
			s[len] = '\0';
			mem_init(&slow, buf_slow, sizeof(buf_slow));
			slow.sink.unexpand = 1;
			lp_sink_site(&slow.sink, 1, 0, 0, 0, 0, s, 7, s, s, s);
			lp_sink_finish(&slow.sink);
			mem_init(&fast, buf_fast, sizeof(buf_fast));
			fast.sink.unexpand = 1;
			memset(&texts, 0, sizeof(texts));
			fast.sink.texts = &texts;
			lp_sink_site(&fast.sink, 1, 0, 0, 0, 0, s, 7, s, s, s);
			lp_sink_finish(&fast.sink);
			LP_CHECK_STR(fast.out, slow.out);
		}
	munmap(map, (size_t)page * 2);
}

/*
 * The runtime's records, a module at a time: each row as lp_sink_site()
 * writes it the general way, for counts of one digit (one store) and
 * more, every kind of expect, a stated probability, texts that need an
 * escape or an unexpanding; alias records and an ABI the writer does
 * not know give no row; the sums are taken.
 */
static void test_record__runtime_records(void)
{
	static const char *const conds[] = {
		"!!(v == 1)", "a\tb", "x__y", "", NULL,
	};
	static const long expects[] = {
		0, 1, 9, 10, -1, LP_EXPECT_UNKNOWN, LP_EXPECT_IF,
	};
	static const unsigned long long counts[] = {
		0, 1, 8, 10, 99, 12345678901ull,
	};
	static struct lp_site sites[96];
	static struct lp_cell cells[96];
	static struct mem want, got;
	static char buf_want[16], buf_got[4096];
	struct lp_texts texts;
	unsigned long long rows = 0;
	size_t i, n = sizeof(sites) / sizeof(sites[0]);

	mem_init(&want, buf_want, sizeof(buf_want));
	want.sink.unexpand = 1;
	for (i = 0; i < n; i++) {
		struct lp_site *s = &sites[i];
		struct lp_cell *c = &cells[i];
		unsigned int abi = i % 13 == 5 ? LP_SITE_ABI_ALIAS :
				   i % 11 == 3 ? LP_SITE_ABI_BOTH_ :
				   i % 17 == 7 ? 99 : LP_SITE_ABI;
		unsigned long long right, wrong, folded;

		s->file = i % 8 < 5 ? "src/a.c" : "b\\c.c";
		s->func = i / 4 % 2 ? "f" : "parse_field";
		s->unit = i % 9 ? "src/a.c" : NULL;
		s->cond = conds[i % 5];
		s->expect = expects[i % 7];
		s->line = (unsigned int)(i * 37 + 1);
		s->abi = abi | (i % 6 == 1 && abi == LP_SITE_ABI ?
				(1u + 900000u) << 8 : 0);
		c->total[0] = counts[i % 6];
		c->total[1] = counts[i / 2 % 6];
		c->total[2] = counts[i / 3 % 6] % 3;
		c->sum[0] = i % 3;
		c->sum[1] = i % 2;
		c->sum[2] = i % 4 == 0;
		if (abi != LP_SITE_ABI && abi != LP_SITE_ABI_BOTH_)
			continue;
		right = c->total[0] + c->sum[0];
		wrong = c->total[1] + c->sum[1];
		folded = c->total[2] + c->sum[2];
		if (abi == LP_SITE_ABI && s->expect != LP_EXPECT_IF)
			right += folded;
		lp_sink_site(&want.sink, right, wrong, folded, s->expect,
			     LP_SITE_PROB_OF(s->abi), s->file, (long)s->line,
			     s->func, s->unit, s->cond);
		rows++;
	}
	LP_CHECK_INT(lp_sink_finish(&want.sink), 0);
	mem_init(&got, buf_got, sizeof(buf_got));
	got.sink.unexpand = 1;
	memset(&texts, 0, sizeof(texts));
	got.sink.texts = &texts;
	LP_CHECK(lp_sink_records(&got.sink, sites, n, cells) == rows);
	LP_CHECK_INT(lp_sink_finish(&got.sink), 0);
	LP_CHECK_STR(got.out, want.out);
	for (i = 0; i < n; i++)
		if (sites[i].abi != LP_SITE_ABI_ALIAS)
			LP_CHECK(!cells[i].sum[0] && !cells[i].sum[1] &&
				 !cells[i].sum[2]);
}

/* The number alone is the suffix's, '@' and all taken off. */
static void test_prob__text_and_suffix(void)
{
	static const unsigned int probs[] = {
		1, 1 + 1000000, 1 + 900000, 1 + 50000, 1 + 123456, 1 + 1,
	};
	static const char *const want[] = {
		"0", "1", "0.9", "0.05", "0.123456", "0.000001",
	};
	char buf[LP_PROB_MAX], suffix[LP_PROB_MAX + 1];
	size_t i;

	LP_CHECK_STR(lp_prob_text(buf, 0), "");
	for (i = 0; i < sizeof(probs) / sizeof(probs[0]); i++) {
		*lp_put_prob(suffix, probs[i]) = '\0';
		LP_CHECK_STR(lp_prob_text(buf, probs[i]), want[i]);
		LP_CHECK(suffix[0] == '@' && !strcmp(suffix + 1, want[i]));
	}
}

int main(void)
{
	LP_TEST(test_numbers__limits);
	LP_TEST(test_escape__control_and_backslash);
	LP_TEST(test_record__site_fields);
	LP_TEST(test_sink__error_is_sticky);
	LP_TEST(test_cond__nested_hint_unexpanded);
	LP_TEST(test_cond__nested_probability_unexpanded);
	LP_TEST(test_cond__plain_text_untouched);
	LP_TEST(test_record__unexpand_only_when_asked);
	LP_TEST(test_record__fast_path_same_bytes);
	LP_TEST(test_record__texts_at_a_page_end);
	LP_TEST(test_record__runtime_records);
	LP_TEST(test_prob__text_and_suffix);
	return lp_test_done();
}
