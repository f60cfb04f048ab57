/*
 * u-judge-capture.c - the pool that runs judge's tools several at once
 * (tools/judge/capture.c): each command's output and status reach the
 * caller in the commands' order, whichever ends first; a command that
 * cannot run is said as such; the caller can stop the pool.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "judge/judge.h"
#include "test.h"

/* What done() saw: "status:output|..." in the order it was called. */
struct seen {
	char text[1024];
	int stop_at;            /* return -1 at this call (1-based), or 0 */
	int calls;
};

static int done(struct lp_capture *c, void *ctx)
{
	struct seen *s = ctx;
	char one[128];

	s->calls++;
	snprintf(one, sizeof(one), "%s%d:%s", s->text[0] ? "|" : "",
		 c->status, c->out ? c->out : "(null)");
	strncat(s->text, one, sizeof(s->text) - strlen(s->text) - 1);
	return s->calls == s->stop_at ? -1 : 0;
}

/* sh -c SCRIPT for each of @n scripts; what done() saw. */
static const char *run(const char *const *scripts, size_t n, int stop_at,
		       int *ret)
{
	static struct seen s;
	struct lp_capture c[8];
	const char *argv[8][4];
	size_t i;

	memset(&s, 0, sizeof(s));
	memset(c, 0, sizeof(c));
	s.stop_at = stop_at;
	for (i = 0; i < n; i++) {
		argv[i][0] = "sh";
		argv[i][1] = "-c";
		argv[i][2] = scripts[i];
		argv[i][3] = NULL;
		c[i].argv = argv[i];
		c[i].quiet = 1;
	}
	*ret = lp_judge_capture_all(c, n, done, &s);
	return s.text;
}

static void test_pool__in_order_whoever_ends_first(void)
{
	/* the first ends last: its output still comes first */
	const char *const scripts[] = {
		"sleep 0.3; printf a", "sleep 0.1; printf b", "printf c",
		"sleep 0.2; printf d; exit 3", "printf e >&2",
	};
	int ret;

	LP_CHECK_STR(run(scripts, 5, 0, &ret), "0:a|0:b|0:c|3:d|0:");
	LP_CHECK_INT(ret, 0);
}

static void test_pool__output_longer_than_a_pipe(void)
{
	const char *const scripts[] = {
		"head -c 300000 /dev/zero | tr '\\0' x | wc -c | tr -d ' \\n'",
		"head -c 300000 /dev/zero | tr '\\0' y | tail -c 3",
	};
	int ret;

	LP_CHECK_STR(run(scripts, 2, 0, &ret), "0:300000|0:yyy");
	LP_CHECK_INT(ret, 0);
}

static void test_pool__the_caller_stops_it(void)
{
	const char *const scripts[] = {
		"printf a", "printf b", "sleep 5; printf c", "printf d",
	};
	int ret;

	LP_CHECK_STR(run(scripts, 4, 2, &ret), "0:a|0:b");
	LP_CHECK_INT(ret, -1);
}

static void test_pool__a_stop_ends_what_runs(void)
{
	const char *const scripts[] = { "printf a", "sleep 60; printf b" };
	time_t start = time(NULL);
	int ret;

	/* the sleeper is ended, not waited for: far less than its minute */
	LP_CHECK_STR(run(scripts, 2, 1, &ret), "0:a");
	LP_CHECK_INT(ret, -1);
	LP_CHECK(time(NULL) - start < 30);
}

static void test_pool__a_command_that_cannot_run(void)
{
	const char *argv[] = { "no-such-tool-of-likelyprof", NULL };
	struct lp_capture c[1];
	struct seen s;

	memset(c, 0, sizeof(c));
	memset(&s, 0, sizeof(s));
	c[0].argv = argv;
	c[0].quiet = 1;
	/* said (on stderr) and handed over with status -1 */
	LP_CHECK_INT(lp_judge_capture_all(c, 1, done, &s), 0);
	LP_CHECK_STR(s.text, "-1:(null)");
}

int main(void)
{
	LP_TEST(test_pool__in_order_whoever_ends_first);
	LP_TEST(test_pool__output_longer_than_a_pipe);
	LP_TEST(test_pool__the_caller_stops_it);
	LP_TEST(test_pool__a_stop_ends_what_runs);
	LP_TEST(test_pool__a_command_that_cannot_run);
	return lp_test_done();
}
