/*
 * fold.c - views that fold the rows of a profile
 *
 * Folding is what a reader of the kernel's table does by hand: seed 011
 * lists page_mapping() at mm.h:657 six times, once per caller the static
 * inline was compiled into, and the decision is made on the sum.
 */
#include <stdlib.h>
#include <string.h>

#include "fold.h"
#include "internal.h"
#include "keymap.h"

const char *lp_path_base(const char *path)
{
	const char *slash = strrchr(path, '/');

	return slash ? slash + 1 : path;
}

char *lp_path_canonical(const char *path)
{
	size_t n = strlen(path), len = 0, keep;
	char *out = malloc(n + 2);
	const char *p = path;
	int absolute = path[0] == '/';

	if (!out)
		return NULL;
	if (absolute)
		out[len++] = '/';
	/* out[0..keep) is what ".." may not take back: "/" or "../.." */
	keep = len;
	while (*p) {
		const char *c;
		size_t cl;

		while (*p == '/')
			p++;
		c = p;
		while (*p && *p != '/')
			p++;
		cl = (size_t)(p - c);
		if (!cl || (cl == 1 && c[0] == '.'))
			continue;
		if (cl == 2 && c[0] == '.' && c[1] == '.') {
			if (len > keep) {
				/* drop the last component and its slash */
				while (len > keep && out[len - 1] != '/')
					len--;
				if (len > keep)
					len--;
				continue;
			}
			if (absolute)
				continue;       /* "/.." is "/" */
		}
		if (len && out[len - 1] != '/')
			out[len++] = '/';
		memcpy(out + len, c, cl);
		len += cl;
		if (cl == 2 && c[0] == '.' && c[1] == '.')
			keep = len;
	}
	if (!len && n)
		out[len++] = '.';
	out[len] = '\0';
	return out;
}

/* True when @suffix is @path or ends it at a '/': "lz4.c", "lib/lz4.c". */
static int path_ends_with(const char *path, const char *suffix)
{
	size_t n = strlen(path), m = strlen(suffix);

	return m <= n && !strcmp(path + n - m, suffix) &&
	       (m == n || path[n - m - 1] == '/');
}

static int same_but_path(const struct lp_spelling_key *a,
			 const struct lp_spelling_key *b)
{
	return a->line == b->line && a->expect == b->expect &&
	       !lp_strcmp0(a->func, b->func) &&
	       !lp_strcmp0(a->cond, b->cond) &&
	       !strcmp(lp_path_base(a->file), lp_path_base(b->file));
}

static int cmp_for_paths(const void *pa, const void *pb)
{
	const struct lp_spelling_key *a =
		*(const struct lp_spelling_key *const *)pa;
	const struct lp_spelling_key *b =
		*(const struct lp_spelling_key *const *)pb;
	int c = strcmp(lp_path_base(a->file), lp_path_base(b->file));
	size_t la, lb;

	if (c)
		return c;
	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if ((c = lp_strcmp0(a->func, b->func)) ||
	    (c = lp_strcmp0(a->cond, b->cond)))
		return c;
	if (a->expect != b->expect)
		return a->expect < b->expect ? -1 : 1;
	/* longest path first: the one the others may be suffixes of */
	la = strlen(a->file);
	lb = strlen(b->file);
	if (la != lb)
		return la < lb ? 1 : -1;
	return strcmp(a->file, b->file);
}

int lp_fold_spellings(const struct lp_spelling_key *keys, size_t n,
		      size_t *into)
{
	const struct lp_spelling_key **by = malloc((n ? n : 1) * sizeof(*by));
	size_t i, j, k;

	if (!by)
		return -LP_ENOMEM;
	for (i = 0; i < n; i++) {
		by[i] = &keys[i];
		into[i] = i;
	}
	if (n > 1)
		qsort(by, n, sizeof(*by), cmp_for_paths);
	for (i = 0; i < n; i = j) {
		int chain = 1;

		for (j = i + 1; j < n && same_but_path(by[i], by[j]); j++)
			chain &= path_ends_with(by[i]->file, by[j]->file);
		if (j - i < 2 || !chain)
			continue;
		for (k = i + 1; k < j; k++)
			into[by[k] - keys] = (size_t)(by[i] - keys);
	}
	free(by);
	return 0;
}

struct fold_ctx {
	const struct lp_profile *out;
	const struct lp_prof_site *probe;       /* file already canonical */
	enum lp_group group;
};

static int fold_eq(const void *ctx, size_t id)
{
	const struct fold_ctx *f = ctx;
	const struct lp_prof_site *a = &f->out->sites[id], *b = f->probe;

	if (strcmp(a->file, b->file) || strcmp(a->func, b->func))
		return 0;
	if (f->group == LP_GROUP_FUNCTION)
		return 1;
	return a->line == b->line && a->expect == b->expect &&
	       !strcmp(a->cond, b->cond);
}

static uint64_t fold_hash(const struct lp_prof_site *s, enum lp_group group)
{
	uint64_t h = LP_HASH_SEED;

	h = lp_hash_str(h, s->file);
	h = lp_hash_str(h, s->func);
	if (group == LP_GROUP_LINE) {
		h = lp_hash_u64(h, (uint64_t)s->line);
		h = lp_hash_u64(h, (uint64_t)s->expect);
		h = lp_hash_str(h, s->cond);
	}
	return lp_hash_finish(h);
}

/*
 * Row @from counted into @to, which stands for both: its first line, and
 * no one expected value where the two disagree.
 */
static void add_row(struct lp_prof_site *to, const struct lp_prof_site *from)
{
	to->correct = lp_sat_add(to->correct, from->correct);
	to->incorrect = lp_sat_add(to->incorrect, from->incorrect);
	to->constant = lp_sat_add(to->constant, from->constant);
	if (from->line < to->line)
		to->line = from->line;
	if (from->expect != to->expect)
		to->expect = LP_EXPECT_UNKNOWN;
}

static int fold_rows(struct lp_profile *out, const struct lp_profile *in,
		     enum lp_group group)
{
	struct lp_keymap map = LP_KEYMAP_INIT;
	struct fold_ctx ctx = { out, NULL, group };
	size_t i;
	int err = -LP_ENOMEM;

	if (lp_keymap_init(&map, in->nr) < 0)
		return -LP_ENOMEM;
	for (i = 0; i < in->nr; i++) {
		const struct lp_prof_site *s = &in->sites[i];
		struct lp_prof_site key = *s;
		struct lp_keymap_slot *slot;
		struct lp_prof_site *d;
		char *canon;
		uint64_t h;

		canon = lp_path_canonical(s->file);
		if (!canon) {
			err = -LP_ENOMEM;
			goto out;
		}
		key.file = canon;
		h = fold_hash(&key, group);
		ctx.probe = &key;
		slot = lp_keymap_find(&map, h, fold_eq, &ctx);
		if (!slot->id) {
			key.unit = "";
			if (group == LP_GROUP_FUNCTION)
				key.cond = "";
			err = lp_profile_add(out, &key);
			free(canon);
			if (err < 0)
				goto out;
			slot->hash = h;
			slot->id = out->nr;
			continue;
		}
		free(canon);
		d = &out->sites[slot->id - 1];
		add_row(d, s);
	}
	err = 0;
out:
	lp_keymap_release(&map);
	return err;
}

/*
 * Folds the rows of @p that are one line (or function) under two
 * spellings of its path into the row with the longer path, in place.
 */
static int fold_spellings(struct lp_profile *p, enum lp_group group)
{
	struct lp_spelling_key *keys = malloc((p->nr ? p->nr : 1) *
					      sizeof(*keys));
	size_t *into = malloc((p->nr ? p->nr : 1) * sizeof(*into));
	size_t k, kept = 0;
	int err = -LP_ENOMEM;

	if (!keys || !into)
		goto out;
	for (k = 0; k < p->nr; k++) {
		const struct lp_prof_site *s = &p->sites[k];

		/* a function's rows differ in line and cond: not in its key */
		keys[k] = group == LP_GROUP_FUNCTION ?
			(struct lp_spelling_key){ s->file, s->func, "", 0, 0 } :
			(struct lp_spelling_key){ s->file, s->func, s->cond,
						  s->line, s->expect };
	}
	if ((err = lp_fold_spellings(keys, p->nr, into)) < 0)
		goto out;
	for (k = 0; k < p->nr; k++) {
		struct lp_prof_site *from = &p->sites[k], *to;

		if (into[k] == k)
			continue;
		to = &p->sites[into[k]];
		add_row(to, from);
	}
	/* the strings live in p's pool: dropping a row frees nothing */
	for (k = 0; k < p->nr; k++)
		if (into[k] == k)
			p->sites[kept++] = p->sites[k];
	p->nr = kept;
out:
	free(keys);
	free(into);
	return err;
}

int lp_profile_fold(struct lp_profile *out, const struct lp_profile *in,
		    enum lp_group group)
{
	size_t i;
	int err = 0;

	out->origin = in->origin;
	if (in->name && !(out->name = strdup(in->name)))
		return -LP_ENOMEM;
	if (group == LP_GROUP_SITE) {
		for (i = 0; i < in->nr && !err; i++)
			err = lp_profile_add(out, &in->sites[i]);
	} else {
		err = fold_rows(out, in, group);
		if (!err)
			err = fold_spellings(out, group);
	}
	if (err < 0)
		lp_profile_release(out);
	return err;
}
