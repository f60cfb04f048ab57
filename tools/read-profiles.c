/*
 * read-profiles.c - read the FILE... arguments of a command into one profile
 */
#include <stdlib.h>
#include <string.h>

#include "read-profiles.h"
#include "progress.h"
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

/*
 * Adds @src (which it releases) into @acc: sites, meta, origin, and the
 * number of original profiles each stands for.
 */
static void combine(struct lp_profile *acc, unsigned long long *acc_count,
		    struct lp_profile *src, unsigned long long src_count)
{
	if (lp_profile_merge(acc, src) < 0)
		lp_die("out of memory");
	keep_common_meta(acc, src);
	if (acc->origin != src->origin)
		acc->origin = LP_ORIGIN_PROFILE;
	*acc_count += src_count;
	lp_profile_release(src);
}

/*
 * Profiles are merged as a balanced tree, the way a binary counter
 * carries: a merge costs the size of both sides, so merging k profiles
 * that share no site one after the other would cost k^2 times a profile,
 * and the tree costs k log k.  Merging is associative and commutative
 * (doc/FORMAT.md), so the result is the same; at most log2(k) partial
 * results are held at once.
 */
int lp_read_profiles(struct lp_profile *out, const char *const *paths,
		     int n)
{
	struct {
		struct lp_profile p;
		unsigned long long count;
		unsigned level;
	} stack[64];
	int depth = 0, i, stdin_seen = 0;
	char count[32];

	for (i = 0; i < n; i++) {
		if (!strcmp(paths[i], "-")) {
			if (stdin_seen++)
				return lp_error("standard input ('-') given "
						"twice");
		}
	}
	for (i = 0; i < n; i++) {
		struct lp_profile *cur = &stack[depth].p;

		lp_profile_init(cur);
		lp_progress(lp_progress_big(lp_progress_file_size(paths[i])),
			    "reading %s (%d of %d)", paths[i], i + 1, n);
		if (read_one(cur, paths[i]) < 0) {
			while (depth >= 0)
				lp_profile_release(&stack[depth--].p);
			return -1;
		}
		stack[depth].count = merged_count(cur);
		stack[depth].level = 0;
		/* carry: two partial results of one size make a bigger one */
		while (depth > 0 &&
		       stack[depth - 1].level == stack[depth].level) {
			combine(&stack[depth - 1].p, &stack[depth - 1].count,
				&stack[depth].p, stack[depth].count);
			stack[--depth].level++;
		}
		depth++;
	}
	while (depth > 1) {
		depth--;
		combine(&stack[depth - 1].p, &stack[depth - 1].count,
			&stack[depth].p, stack[depth].count);
	}
	*out = stack[0].p;
	snprintf(count, sizeof(count), "%llu", stack[0].count);
	if (lp_profile_set_meta(out, "merged", count) < 0)
		lp_die("out of memory");
	return 0;
}
