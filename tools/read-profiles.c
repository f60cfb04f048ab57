/*
 * read-profiles.c - read the FILE... arguments of a command into one profile
 */
#include <stdlib.h>
#include <string.h>

#include "read-profiles.h"
#include "usage.h"

/* How many original profiles @p stands for. */
static unsigned long long merged_count(const struct lp_profile *p)
{
	size_t i;

	for (i = 0; i < p->meta_nr; i++) {
		const char *v = p->meta[i].value;
		char *end;
		unsigned long long n;

		if (strcmp(p->meta[i].key, "merged"))
			continue;
		n = strtoull(v, &end, 10);
		if (*v >= '1' && *v <= '9' && !*end)
			return n;
	}
	return 1;
}

static const char *meta_get(const struct lp_profile *p, const char *key)
{
	size_t i;

	for (i = 0; i < p->meta_nr; i++)
		if (!strcmp(p->meta[i].key, key))
			return p->meta[i].value;
	return NULL;
}

/*
 * Keeps in @acc only the meta that @p has with the same value.  A key
 * that differs (pid, host) says nothing true of the sum, and dropping it
 * whenever any input disagrees keeps the result independent of order.
 */
static void keep_common_meta(struct lp_profile *acc,
			     const struct lp_profile *p)
{
	size_t i, j = 0;

	for (i = 0; i < acc->meta_nr; i++) {
		const char *v = meta_get(p, acc->meta[i].key);

		if (v && !strcmp(v, acc->meta[i].value)) {
			acc->meta[j++] = acc->meta[i];
			continue;
		}
		free(acc->meta[i].key);
		free(acc->meta[i].value);
	}
	acc->meta_nr = j;
}

static int read_one(struct lp_profile *p, const char *path)
{
	struct lp_diag diag;
	int err = lp_profile_read_file(p, path, &diag);

	if (err == -LP_ENOMEM)
		lp_die("out of memory");
	if (err < 0)
		return lp_error("%s", diag.msg);
	return 0;
}

int lp_read_profiles(struct lp_profile *out, const char *const *paths,
		     int n)
{
	unsigned long long merged;
	char count[32];
	int i, stdin_seen = 0;

	for (i = 0; i < n; i++) {
		if (!strcmp(paths[i], "-")) {
			if (stdin_seen++)
				return lp_error("standard input ('-') given "
						"twice");
		}
	}
	/* the first input is read in place: no copy for the common case */
	if (read_one(out, paths[0]) < 0)
		return -1;
	merged = merged_count(out);
	for (i = 1; i < n; i++) {
		struct lp_profile one = LP_PROFILE_INIT;

		if (read_one(&one, paths[i]) < 0) {
			lp_profile_release(&one);
			return -1;
		}
		if (lp_profile_merge(out, &one) < 0)
			lp_die("out of memory");
		keep_common_meta(out, &one);
		merged += merged_count(&one);
		if (out->origin != one.origin)
			out->origin = LP_ORIGIN_PROFILE;
		lp_profile_release(&one);
	}
	snprintf(count, sizeof(count), "%llu", merged);
	if (lp_profile_set_meta(out, "merged", count) < 0)
		lp_die("out of memory");
	return 0;
}
