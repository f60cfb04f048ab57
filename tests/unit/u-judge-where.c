/*
 * u-judge-where.c - the real paths judge gives the names of the line
 * tables (lp_real_of()): asked once per instruction, so kept in a table
 * by name; what it answers must be realpath()'s, however many names it
 * holds and in whatever order they are asked
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "judge/where.h"
#include "test.h"

/* More names than the table's first size, so that it grows. */
#define NAMES 300

static char dir[] = "/tmp/lp-u-where-XXXXXX";
static char *names[NAMES];

/* Even names are files that exist, through "./"; odd ones do not. */
static int setup(void)
{
	int i;

	if (!mkdtemp(dir))
		return -1;
	for (i = 0; i < NAMES; i++) {
		char path[PATH_MAX];
		FILE *f;

		snprintf(path, sizeof(path), "%s/./f%d.c", dir, i);
		names[i] = strdup(path);
		if (i % 2 == 0 && (f = fopen(path, "w")))
			fclose(f);
	}
	return 0;
}

static void cleanup(void)
{
	int i;

	for (i = 0; i < NAMES; i++) {
		unlink(names[i]);
		free(names[i]);
	}
	rmdir(dir);
}

/* Each answer is realpath()'s, first asked and asked again. */
static void test_real__as_realpath(void)
{
	struct lp_real_cache c = LP_REAL_CACHE_INIT;
	int i, round;

	for (round = 0; round < 2; round++)
		for (i = 0; i < NAMES; i++) {
			/* forwards, then backwards */
			int k = round ? NAMES - 1 - i : i;
			const char *got = lp_real_of(&c, names[k]);
			char *want = realpath(names[k], NULL);

			if (!want != !got || (want && strcmp(want, got)))
				LP_CHECK_STR(got ? got : "(none)",
					     want ? want : "(none)");
			free(want);
		}
	LP_CHECK_INT(c.nr, NAMES);
	lp_real_cache_release(&c);
}

/* The same name is the same answer, kept once. */
static void test_real__once_per_name(void)
{
	struct lp_real_cache c = LP_REAL_CACHE_INIT;
	const char *first = lp_real_of(&c, names[0]);
	int i;

	for (i = 1; i < NAMES; i++)
		lp_real_of(&c, names[i]);
	LP_CHECK(first && lp_real_of(&c, names[0]) == first);
	LP_CHECK(!lp_real_of(&c, names[1]));
	LP_CHECK_INT(c.nr, NAMES);
	lp_real_cache_release(&c);
}

int main(void)
{
	if (setup() < 0) {
		printf("Bail out! cannot make a temporary folder\n");
		return 1;
	}
	LP_TEST(test_real__as_realpath);
	LP_TEST(test_real__once_per_name);
	cleanup();
	return lp_test_done();
}
