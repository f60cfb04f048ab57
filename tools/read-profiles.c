/*
 * read-profiles.c - read the FILE... arguments of a command into one profile
 */
#include <stdlib.h>
#include <string.h>

#include "merge.h"
#include "read-profiles.h"
#include "progress.h"
#include "usage.h"

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
	lp_meta_keep_common(acc, src);
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
		stack[depth].count = lp_merged_count(cur);
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
