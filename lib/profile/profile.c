/*
 * profile.c - the in-memory profile: its strings, sites and meta, merge,
 * sort and writer
 *
 * The model knows no reader: reader.c splits lines, records.c reads the
 * likelyprof format, ktable.c and csv.c the other tables, and read.c
 * tells them apart and reads a whole file; each builds a profile through
 * the calls here, so data flows from the readers into the model only.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stddef.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bigmem.h"
#include "internal.h"
#include "keymap.h"
#include "profile.h"
#include "simd.h"

/*-************************************
 *  Ownership
 **************************************/
struct pool_chunk {
	struct pool_chunk *next;
	size_t used, size;
	char data[];
};

/* The chunk that takes new strings is the first of the list. */
struct lp_strpool {
	struct pool_chunk *head;
};

#define POOL_FIRST_CHUNK 4096
/* big enough for huge pages (bigmem.h) once a profile is big */
#define POOL_MAX_CHUNK ((size_t)8 << 20)

char *lp_pool_reserve(struct lp_profile *p, size_t n)
{
	struct pool_chunk *c, *head;
	size_t size;

	if (!p->strings && !(p->strings = calloc(1, sizeof(*p->strings))))
		return NULL;
	head = p->strings->head;
	if (head && head->size - head->used >= n)
		return head->data + head->used;
	/* small profiles stay small, big ones take few chunks */
	size = head ? head->size * 2 : POOL_FIRST_CHUNK;
	if (size > POOL_MAX_CHUNK)
		size = POOL_MAX_CHUNK;
	if (size < n)
		size = n;
	if (size > SIZE_MAX - sizeof(*c))
		return NULL;
	c = lp_big_malloc(sizeof(*c) + size);
	if (!c)
		return NULL;
	c->used = 0;
	c->size = size;
	c->next = head;
	p->strings->head = c;
	return c->data;
}

void lp_pool_commit(struct lp_profile *p, size_t n)
{
	p->strings->head->used += n;
}

char *lp_pool_dup(struct lp_profile *p, const char *s, size_t n)
{
	char *d = lp_pool_reserve(p, n + 1);

	if (!d)
		return NULL;
	memcpy(d, s, n);
	d[n] = '\0';
	lp_pool_commit(p, n + 1);
	return d;
}

static void pool_free(struct lp_strpool *pool)
{
	struct pool_chunk *c, *next;

	if (!pool)
		return;
	for (c = pool->head; c; c = next) {
		next = c->next;
		free(c);
	}
	free(pool);
}

/* Moves every chunk of @from into @to, behind the chunk in use. */
void lp_pool_splice(struct lp_profile *to, struct lp_profile *from)
{
	struct pool_chunk *tail;

	if (!from->strings || !from->strings->head)
		return;
	if (!to->strings || !to->strings->head) {
		pool_free(to->strings);
		to->strings = from->strings;
		from->strings = NULL;
		return;
	}
	for (tail = from->strings->head; tail->next; tail = tail->next)
		;
	tail->next = to->strings->head->next;
	to->strings->head->next = from->strings->head;
	from->strings->head = NULL;
}

void lp_profile_clear(struct lp_profile *p)
{
	struct lp_strpool *pool = p->strings;
	size_t i;

	for (i = 0; i < p->meta_nr; i++) {
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	p->meta_nr = 0;
	p->nr = 0;
	/* the newest chunk is the biggest: keep it alone */
	if (pool && pool->head) {
		struct pool_chunk *rest = pool->head->next;

		pool->head->next = NULL;
		pool->head->used = 0;
		while (rest) {
			struct pool_chunk *next = rest->next;

			free(rest);
			rest = next;
		}
	}
}

void lp_profile_init(struct lp_profile *p)
{
	memset(p, 0, sizeof(*p));
	p->origin = LP_ORIGIN_PROFILE;
}

void lp_profile_release(struct lp_profile *p)
{
	size_t i;

	if (!p)
		return;
	free(p->sites);
	for (i = 0; i < p->meta_nr; i++) {
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	free(p->meta);
	free(p->name);
	pool_free(p->strings);
	lp_profile_init(p);
}

/* Makes room for @need elements of @size bytes; 0 or -LP_ENOMEM. */
int lp_grow(void **array, size_t *alloc, size_t need, size_t size)
{
	size_t n = *alloc;
	void *a;

	if (need <= n)
		return 0;
	if (n < 16)
		n = 16;
	while (n < need) {
		if (n > SIZE_MAX / 2 / size)
			return -LP_ENOMEM;
		n *= 2;
	}
	a = realloc(*array, n * size);
	if (!a)
		return -LP_ENOMEM;
	lp_big_hint(a, n * size);
	*array = a;
	*alloc = n;
	return 0;
}

int lp_profile_push(struct lp_profile *p, const struct lp_prof_site *s)
{
	if (lp_grow((void **)&p->sites, &p->alloc, p->nr + 1, sizeof(*s)) < 0)
		return -LP_ENOMEM;
	p->sites[p->nr++] = *s;
	return 0;
}

static char *pool_str(struct lp_profile *p, const char *s)
{
	return s ? lp_pool_dup(p, s, strlen(s)) : lp_pool_dup(p, "", 0);
}

int lp_profile_add(struct lp_profile *p, const struct lp_prof_site *s)
{
	struct lp_prof_site copy = *s;

	copy.plain = 0;         /* the caller may have changed a string */
	copy.file = pool_str(p, s->file);
	copy.func = pool_str(p, s->func);
	copy.unit = pool_str(p, s->unit);
	copy.cond = pool_str(p, s->cond);
	if (!copy.file || !copy.func || !copy.unit || !copy.cond)
		return -LP_ENOMEM;
	return lp_profile_push(p, &copy);
}

int lp_profile_set_meta(struct lp_profile *p, const char *key,
			const char *value)
{
	char *v = strdup(value ? value : "");
	char *k;
	size_t i;

	if (!v)
		return -LP_ENOMEM;
	for (i = 0; i < p->meta_nr; i++) {
		if (strcmp(p->meta[i].key, key))
			continue;
		/* "build" repeats: one per object, every build merged */
		if (lp_meta_repeats(key) &&
		    strcmp(p->meta[i].value, v))
			continue;
		free(p->meta[i].value);
		p->meta[i].value = v;
		return 0;
	}
	k = strdup(key);
	if (!k || lp_grow((void **)&p->meta, &p->meta_alloc, p->meta_nr + 1,
		       sizeof(*p->meta)) < 0) {
		free(k);
		free(v);
		return -LP_ENOMEM;
	}
	p->meta[p->meta_nr].key = k;
	p->meta[p->meta_nr].value = v;
	p->meta_nr++;
	return 0;
}

uint64_t lp_merged_count(const struct lp_profile *p)
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

int lp_profile_one_process(const struct lp_profile *p)
{
	size_t i;

	if (p->origin != LP_ORIGIN_PROFILE || lp_merged_count(p) != 1)
		return 0;
	for (i = 0; i < p->meta_nr; i++)
		if (!strcmp(p->meta[i].key, "origin") &&
		    !strcmp(p->meta[i].value, "judge-perf"))
			return 0;
	return 1;
}

/* Appends @key and @value, which the profile then owns; 0 or -LP_ENOMEM. */
int lp_meta_take(struct lp_profile *p, char *key, char *value)
{
	if (lp_grow((void **)&p->meta, &p->meta_alloc, p->meta_nr + 1,
		 sizeof(*p->meta)) < 0)
		return -LP_ENOMEM;
	p->meta[p->meta_nr].key = key;
	p->meta[p->meta_nr].value = value;
	p->meta_nr++;
	return 0;
}

int lp_meta_repeats(const char *key)
{
	return !strcmp(key, LP_META_BUILD) || !strcmp(key, LP_META_LABEL);
}

static int has_label(const char **v, size_t n, const char *label)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (!strcmp(v[i], label))
			return 1;
	return 0;
}

/* Few labels to a profile: the quadratic look-up costs nothing. */
long lp_profiles_labels(const struct lp_profile *p, size_t n,
			const char ***labels)
{
	const char **v = NULL;
	size_t nr = 0, alloc = 0, i, k;

	for (i = 0; i < n; i++) {
		for (k = 0; k < p[i].meta_nr; k++) {
			const char *l = p[i].meta[k].value;

			if (strcmp(p[i].meta[k].key, LP_META_LABEL) ||
			    has_label(v, nr, l))
				continue;
			if (lp_grow((void **)&v, &alloc, nr + 1,
				    sizeof(*v)) < 0) {
				free(v);
				return -LP_ENOMEM;
			}
			v[nr++] = l;
		}
	}
	*labels = v;
	return (long)nr;
}

int lp_profile_add_meta(struct lp_profile *p, const char *key,
			const char *value)
{
	char *k = strdup(key), *v = strdup(value ? value : "");

	if (!k || !v || lp_meta_take(p, k, v) < 0) {
		free(k);
		free(v);
		return -LP_ENOMEM;
	}
	return 0;
}

/* By key; labels by name too (see sort_meta()). */
static int meta_cmp(const void *pa, const void *pb)
{
	const struct lp_prof_meta *a = pa, *b = pb;
	int c = strcmp(a->key, b->key);

	return c || strcmp(a->key, LP_META_LABEL) ? c
						   : strcmp(a->value, b->value);
}

/*
 * The order lp_meta_tidy() sorts into: by key; a repeating key (build,
 * label) by its value too, so that copies meet; then by where it was,
 * so that the order is total and the last of a key is last.
 */
struct meta_ref {
	struct lp_prof_meta m;
	size_t at;
};

static int meta_ref_cmp(const void *pa, const void *pb)
{
	const struct meta_ref *a = pa, *b = pb;
	int c = strcmp(a->m.key, b->m.key);

	if (!c && lp_meta_repeats(a->m.key))
		c = strcmp(a->m.value, b->m.value);
	return c ? c : (a->at > b->at) - (a->at < b->at);
}

static int meta_key_at_cmp(const void *pa, const void *pb)
{
	const struct meta_ref *a = pa, *b = pb;
	int c = meta_cmp(&a->m, &b->m);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* Is @r (of @n, sorted) the one of its key that lp_meta_tidy() keeps? */
static int meta_kept(const struct meta_ref *r, size_t i, size_t n)
{
	if (lp_meta_repeats(r[i].m.key))
		return !i || strcmp(r[i - 1].m.key, r[i].m.key) ||
		       strcmp(r[i - 1].m.value, r[i].m.value);
	return i + 1 == n || strcmp(r[i + 1].m.key, r[i].m.key);
}

int lp_meta_tidy(struct lp_profile *p)
{
	struct meta_ref *r;
	unsigned char *kept;
	size_t i, k = 0, n = p->meta_nr;

	if (n < 2)
		return 0;
	r = malloc(n * sizeof(*r));
	kept = malloc(n);
	if (!r || !kept) {
		free(r);
		free(kept);
		return -LP_ENOMEM;
	}
	for (i = 0; i < n; i++) {
		r[i].m = p->meta[i];
		r[i].at = i;
	}
	qsort(r, n, sizeof(*r), meta_ref_cmp);
	/*
	 * Every decision first: meta_kept() compares a record with its
	 * neighbours, whose strings the pass below frees.
	 */
	for (i = 0; i < n; i++)
		kept[i] = (unsigned char)meta_kept(r, i, n);
	for (i = 0; i < n; i++) {
		if (kept[i]) {
			r[k++] = r[i];
			continue;
		}
		free(r[i].m.key);
		free(r[i].m.value);
	}
	free(kept);
	/* by key, and the builds as they came: the writer's order */
	qsort(r, k, sizeof(*r), meta_key_at_cmp);
	for (i = 0; i < k; i++)
		p->meta[i] = r[i].m;
	p->meta_nr = k;
	free(r);
	return 0;
}

/*-************************************
 *  Merge
 **************************************/
static uint64_t site_hash(const struct lp_prof_site *s)
{
	uint64_t h = LP_HASH_SEED;

	h = lp_hash_str(h, s->file);
	h = lp_hash_u64(h, (uint64_t)s->line);
	h = lp_hash_str(h, s->func);
	h = lp_hash_u64(h, (uint64_t)s->expect);
	h = lp_hash_str(h, s->unit);
	h = lp_hash_str(h, s->cond);
	return lp_hash_finish(h);
}

static int same_key(const struct lp_prof_site *a, const struct lp_prof_site *b)
{
	return a->line == b->line && a->expect == b->expect &&
	       !strcmp(a->file, b->file) && !strcmp(a->func, b->func) &&
	       !strcmp(a->unit, b->unit) && !strcmp(a->cond, b->cond);
}

/* The keys of dst: one group per distinct key, listing its records. */
struct merge_ctx {
	const struct lp_prof_site *sites;       /* dst's */
	const size_t *first;                    /* group -> first record */
	const struct lp_prof_site *probe;
};

static int group_eq(const void *ctx, size_t group)
{
	const struct merge_ctx *m = ctx;

	return same_key(&m->sites[m->first[group]], m->probe);
}

static void add_counts(struct lp_prof_site *d, const struct lp_prof_site *s)
{
	/* a sum is only as sure as the least sure of its parts */
	if (s->sure > d->sure)
		d->sure = s->sure;
	d->correct = lp_sat_add(d->correct, s->correct);
	d->incorrect = lp_sat_add(d->incorrect, s->incorrect);
	d->constant = lp_sat_add(d->constant, s->constant);
	d->votes_right = lp_sat_add(d->votes_right, s->votes_right);
	d->votes_wrong = lp_sat_add(d->votes_wrong, s->votes_wrong);
	d->has_votes |= s->has_votes;
	d->samp_right = lp_sat_add(d->samp_right, s->samp_right);
	d->samp_wrong = lp_sat_add(d->samp_wrong, s->samp_wrong);
	d->has_samples |= s->has_samples;
	d->procs_right = lp_sat_add(d->procs_right, s->procs_right);
	d->procs_wrong = lp_sat_add(d->procs_wrong, s->procs_wrong);
	d->procs_both = lp_sat_add(d->procs_both, s->procs_both);
	d->has_procs |= s->has_procs;
}

/*
 * Pairs the k-th record of a key in src with the k-th of that key in dst.
 * Records of dst are linked per key in their order (next[]); cursor[g] is
 * the next dst record of group g that src has not paired yet.  Unpaired
 * src records are appended in src order, so they follow every dst record
 * of their key: the k-th record of a key in the result is always the sum
 * of the k-th records of the inputs, which makes merging commutative and
 * associative once the writer's stable sort puts keys in order.
 */
int lp_profile_merge(struct lp_profile *dst, const struct lp_profile *src)
{
	struct lp_keymap map = LP_KEYMAP_INIT;
	struct merge_ctx ctx;
	size_t *first = NULL, *next = NULL, *cursor = NULL, *last = NULL;
	size_t *pair = NULL, groups = 0, extra = 0, i, j;
	const size_t none = SIZE_MAX;
	int err = -LP_ENOMEM;

	if (!src->nr)
		return 0;
	if (lp_keymap_init(&map, dst->nr) < 0)
		return -LP_ENOMEM;
	first = malloc((dst->nr + 1) * sizeof(*first));
	last = malloc((dst->nr + 1) * sizeof(*last));
	next = malloc((dst->nr + 1) * sizeof(*next));
	pair = malloc(src->nr * sizeof(*pair));
	if (!first || !last || !next || !pair)
		goto out;
	ctx.sites = dst->sites;
	ctx.first = first;
	for (i = 0; i < dst->nr; i++) {
		struct lp_keymap_slot *slot;
		uint64_t h = site_hash(&dst->sites[i]);

		ctx.probe = &dst->sites[i];
		slot = lp_keymap_find(&map, h, group_eq, &ctx);
		next[i] = none;
		if (slot->id) {
			next[last[slot->id - 1]] = i;
			last[slot->id - 1] = i;
			continue;
		}
		first[groups] = last[groups] = i;
		slot->hash = h;
		slot->id = ++groups;
	}
	/* cursor[g]: the next record of group g that src has not paired */
	cursor = malloc((groups + 1) * sizeof(*cursor));
	if (!cursor)
		goto out;
	memcpy(cursor, first, groups * sizeof(*cursor));
	for (i = 0; i < src->nr; i++) {
		struct lp_keymap_slot *slot;
		size_t g;

		pair[i] = none;
		ctx.probe = &src->sites[i];
		slot = lp_keymap_find(&map, site_hash(ctx.probe), group_eq,
				      &ctx);
		if (!slot->id)
			continue;
		g = slot->id - 1;
		if (cursor[g] == none)
			continue;
		pair[i] = cursor[g];
		cursor[g] = next[cursor[g]];
	}
	/* Copy the unpaired records first: the only step that can fail. */
	for (i = 0; i < src->nr; i++)
		if (pair[i] == none)
			extra++;
	if (lp_grow((void **)&dst->sites, &dst->alloc, dst->nr + extra,
		 sizeof(*dst->sites)) < 0)
		goto out;
	for (i = 0, j = dst->nr; i < src->nr; i++) {
		if (pair[i] != none)
			continue;
		if (lp_profile_add(dst, &src->sites[i]) < 0) {
			/* what the pool took is lost until release */
			dst->nr = j;
			goto out;
		}
	}
	for (i = 0; i < src->nr; i++)
		if (pair[i] != none)
			add_counts(&dst->sites[pair[i]], &src->sites[i]);
	err = 0;
out:
	lp_keymap_release(&map);
	free(first);
	free(last);
	free(next);
	free(cursor);
	free(pair);
	return err;
}

/*-************************************
 *  Sort and write
 **************************************/
static int cmp_long(long a, long b)
{
	return (a > b) - (a < b);
}

int lp_site_cmp(const struct lp_prof_site *a, const struct lp_prof_site *b)
{
	int c;

	if (a->file != b->file && (c = strcmp(a->file, b->file)))
		return c;
	if ((c = cmp_long(a->line, b->line)))
		return c;
	if ((c = strcmp(a->func, b->func)))
		return c;
	if ((c = cmp_long(a->expect, b->expect)))
		return c;
	if ((c = strcmp(a->unit, b->unit)))
		return c;
	return strcmp(a->cond, b->cond);
}

/*
 * A merge sort of an index array: stable by construction, which qsort
 * does not promise, and it moves 4-byte indices rather than whole records.
 * Runs that are already in order (a profile read back) cost one compare
 * per record.
 */
static void msort(uint32_t *a, uint32_t *tmp, size_t n,
		  const struct lp_prof_site *s)
{
	size_t mid = n / 2, i = 0, j, k = 0;

	if (n < 2)
		return;
	msort(a, tmp, mid, s);
	msort(a + mid, tmp, n - mid, s);
	if (lp_site_cmp(&s[a[mid - 1]], &s[a[mid]]) <= 0)
		return;
	j = mid;
	while (i < mid && j < n) {
		if (lp_site_cmp(&s[a[j]], &s[a[i]]) < 0)
			tmp[k++] = a[j++];
		else
			tmp[k++] = a[i++];
	}
	while (i < mid)
		tmp[k++] = a[i++];
	memcpy(a, tmp, k * sizeof(*a));
}

/*
 * Keys are unique but for build, whose records keep the order they came
 * in when the meta is already in order (lp_meta_tidy() leaves it so),
 * and label, whose records are in the order of their names, so that a
 * merge in any order writes the same file.
 */
static void sort_meta(struct lp_profile *p)
{
	size_t i;

	for (i = 1; i < p->meta_nr; i++)
		if (meta_cmp(&p->meta[i - 1], &p->meta[i]) > 0)
			break;
	if (i < p->meta_nr)
		qsort(p->meta, p->meta_nr, sizeof(*p->meta), meta_cmp);
}

void lp_profile_sort(struct lp_profile *p)
{
	uint32_t *idx, *tmp;
	struct lp_prof_site *sorted;
	size_t i;

	sort_meta(p);
	if (p->nr < 2)
		return;
	if (p->nr > UINT32_MAX)
		return;         /* NEEDSWORK: profiles of 4G sites */
	idx = malloc(p->nr * sizeof(*idx));
	tmp = malloc(p->nr * sizeof(*tmp));
	sorted = malloc(p->nr * sizeof(*sorted));
	if (idx && tmp && sorted) {
		for (i = 0; i < p->nr; i++)
			idx[i] = (uint32_t)i;
		msort(idx, tmp, p->nr, p->sites);
		for (i = 0; i < p->nr; i++)
			sorted[i] = p->sites[idx[i]];
		memcpy(p->sites, sorted, p->nr * sizeof(*sorted));
	} else {
		/* no memory for the fast way: insertion sort in place */
		size_t j;

		for (i = 1; i < p->nr; i++) {
			struct lp_prof_site s = p->sites[i];

			for (j = i; j; j--) {
				if (lp_site_cmp(&s, &p->sites[j - 1]) >= 0)
					break;
				p->sites[j] = p->sites[j - 1];
			}
			p->sites[j] = s;
		}
	}
	free(idx);
	free(tmp);
	free(sorted);
}

static int file_flush(struct lp_sink *sink)
{
	struct lp_file_sink *fs = (struct lp_file_sink *)sink;

	if (fwrite(sink->buf, 1, sink->len, fs->out) != sink->len)
		return -LP_EIO;
	sink->len = 0;
	return 0;
}

void lp_file_sink_init(struct lp_file_sink *fs, FILE *out, char *buf,
		       size_t cap)
{
	memset(fs, 0, sizeof(*fs));
	fs->sink.buf = buf;
	fs->sink.cap = cap;
	fs->sink.flush = file_flush;
	fs->out = out;
}

int lp_profile_write(struct lp_profile *p, FILE *out)
{
	char buf[1 << 16];
	struct lp_file_sink fs;
	size_t i;

	lp_profile_sort(p);
	lp_file_sink_init(&fs, out, buf, sizeof(buf));
	lp_sink_header(&fs.sink);
	for (i = 0; i < p->meta_nr; i++)
		lp_sink_meta(&fs.sink, p->meta[i].key, p->meta[i].value);
	for (i = 0; i < p->nr; i++)
		lp_sink_prof_site(&fs.sink, &p->sites[i]);
	lp_sink_end(&fs.sink, p->nr);
	if (lp_sink_finish(&fs.sink) < 0 || fflush(out) || ferror(out)) {
		if (!errno)
			errno = EIO;
		return -LP_EIO;
	}
	return 0;
}
