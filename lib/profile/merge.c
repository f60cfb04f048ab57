/*
 * merge.c - merge sorted profiles in one pass, holding one record of each
 *
 * The output's k-th record of a key is the sum of the k-th records of
 * that key in the inputs, as lp_profile_merge() pairs them: taking, at
 * each step, the smallest key among the inputs' next records and one
 * record of it from every input that has it does exactly that, because
 * each input holds its records of a key in their order.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "internal.h"
#include "merge.h"
#include "stream.h"

/* Inputs read by threads of their own up to this many */
#define PREFETCH_MAX 16

struct src {
	struct lp_merge_input *in;
	struct lp_prof_stream *stream;
	struct lp_profile prof;         /* an input read whole */
	const struct lp_profile *mem;   /* prof, or in->mem */
	size_t pos;
	const struct lp_mrec *head;     /* its next record */
	struct lp_mrec mem_rec;         /* head, of a profile in memory */
	struct lp_diag diag;
	const struct lp_policy *pol;    /* judges a record without votes */
	int one_process;        /* lp_profile_one_process() of its meta */
};

static const char *src_name(const struct lp_merge_input *in)
{
	return strcmp(in->path, "-") ? in->path : "<stdin>";
}

static int meta_ptr_cmp(const void *pa, const void *pb)
{
	const struct lp_prof_meta *a = *(const struct lp_prof_meta *const *)pa;
	const struct lp_prof_meta *b = *(const struct lp_prof_meta *const *)pb;
	int c = strcmp(a->key, b->key);

	return c ? c : (a > b) - (a < b);
}

/* The first value of @key among the @n sorted @by, or NULL. */
static const char *meta_find(const struct lp_prof_meta *const *by, size_t n,
			     const char *key)
{
	size_t lo = 0, hi = n;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(by[mid]->key, key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo < n && !strcmp(by[lo]->key, key) ? by[lo]->value : NULL;
}

/*
 * The workloads of a sum are those of its parts: every label of @p that
 * @acc lacks is added (merge order aside, the same set in any order).
 * Out of memory, a label is lost, never a count.
 */
static void keep_labels(struct lp_profile *acc, const struct lp_profile *p)
{
	size_t i;

	for (i = 0; i < p->meta_nr; i++)
		if (!strcmp(p->meta[i].key, LP_META_LABEL))
			(void)lp_profile_set_meta(acc, LP_META_LABEL,
						  p->meta[i].value);
}

/*
 * A key that differs (pid, host) says nothing true of the sum, and
 * dropping it whenever any input disagrees keeps the result independent
 * of order.  @p's records are looked up in a sorted copy, so that many
 * meta records cost n log n, not n squared.
 */
void lp_meta_keep_common(struct lp_profile *acc, const struct lp_profile *p)
{
	const struct lp_prof_meta **by = malloc((p->meta_nr + 1) *
						sizeof(*by));
	size_t i, j = 0;

	for (i = 0; by && i < p->meta_nr; i++)
		by[i] = &p->meta[i];
	if (by)
		qsort(by, p->meta_nr, sizeof(*by), meta_ptr_cmp);
	for (i = 0; i < acc->meta_nr; i++) {
		const char *v = NULL;
		size_t k;

		if (by) {
			v = meta_find(by, p->meta_nr, acc->meta[i].key);
		} else {        /* no memory for the copy: the long way */
			for (k = 0; k < p->meta_nr && !v; k++)
				if (!strcmp(p->meta[k].key, acc->meta[i].key))
					v = p->meta[k].value;
		}
		if ((v && !strcmp(v, acc->meta[i].value)) ||
		    !strcmp(acc->meta[i].key, LP_META_LABEL)) {
			acc->meta[j++] = acc->meta[i];
			continue;
		}
		free(acc->meta[i].key);
		free(acc->meta[i].value);
	}
	acc->meta_nr = j;
	free(by);
	keep_labels(acc, p);
}


/*
 * A stream only knows that a record is bad; the whole reading names the
 * line and the reason as every other command does.
 */
static int diagnose(struct src *s, int err, struct lp_diag *diag)
{
	struct lp_profile tmp = LP_PROFILE_INIT;
	int again = lp_profile_read_file(&tmp, s->in->path, diag);

	lp_profile_release(&tmp);
	if (again < 0)
		return again;
	memcpy(diag, &s->diag, sizeof(*diag));
	return err;
}

static int src_open(struct src *s, size_t bufsize, struct lp_diag *diag)
{
	int err;

	if (s->in->mem) {
		s->mem = s->in->mem;
		return 0;
	}
	if (!s->in->whole) {
		err = lp_prof_stream_open(&s->stream, s->in->path, bufsize,
					  &s->diag);
		if (err < 0) {
			memcpy(diag, &s->diag, sizeof(*diag));
			return err;
		}
		if (!err)
			return 0;
	}
	/* not a profile the stream reads: read it whole, in the order */
	err = lp_profile_read_file(&s->prof, s->in->path, diag);
	if (err < 0)
		return err;
	lp_profile_sort(&s->prof);
	s->mem = &s->prof;
	return 0;
}

static const struct lp_profile *src_meta(const struct src *s)
{
	return s->mem ? s->mem : lp_prof_stream_meta(s->stream);
}

/*
 * What the merge needs of each record besides its counts, made where it
 * is read: a profile of one run votes by its counts (judged by the
 * policy), and one process went its way through a site or both ways.
 */
static void judge_recs(void *ctx, struct lp_mrec *m, size_t n)
{
	const struct src *s = ctx;
	size_t i;

	for (i = 0; i < n; i++) {
		const struct lp_prof_site *r = &m[i].s;

		if (!r->has_votes)
			m[i].vote = (signed char)lp_policy_vote_site(s->pol,
								      r);
		if (!r->has_procs && s->one_process &&
		    r->expect != LP_EXPECT_IF)
			m[i].way = (unsigned char)lp_counts_way(
				r->correct, r->incorrect, r->constant);
	}
}

/* Steps to the next record: 1, 0 at the end, LP_MERGE_AGAIN or -LP_E*. */
static int src_next(struct src *s, struct lp_diag *diag)
{
	int err;

	if (s->mem) {
		if (s->pos == s->mem->nr) {
			s->head = NULL;
			return 0;
		}
		lp_mrec_of_site(&s->mem_rec, &s->mem->sites[s->pos++]);
		judge_recs(s, &s->mem_rec, 1);
		s->head = &s->mem_rec;
		return 1;
	}
	err = lp_prof_stream_next(s->stream, &s->head);
	if (err == LP_STREAM_UNSORTED) {
		s->in->whole = 1;
		return LP_MERGE_AGAIN;
	}
	if (err < 0)
		return diagnose(s, err, diag);
	if (!err)
		s->head = NULL;
	return err;
}

static void src_close(struct src *s)
{
	lp_prof_stream_close(s->stream);
	lp_profile_release(&s->prof);
}

/*-************************************
 *  A heap of the inputs by their next record
 **************************************/
static int src_less(struct src *const *h, size_t a, size_t b)
{
	int c = lp_mrec_cmp(h[a]->head, h[b]->head);

	/* equal keys: the input given first, so the order is total */
	return c < 0 || (c == 0 && h[a] < h[b]);
}

static void sift_down(struct src **h, size_t n, size_t i)
{
	for (;;) {
		size_t l = 2 * i + 1, m = i;
		struct src *t;

		if (l < n && src_less(h, l, m))
			m = l;
		if (l + 1 < n && src_less(h, l + 1, m))
			m = l + 1;
		if (m == i)
			return;
		t = h[i];
		h[i] = h[m];
		h[m] = t;
		i = m;
	}
}

static void sift_up(struct src **h, size_t i)
{
	while (i) {
		size_t p = (i - 1) / 2;
		struct src *t;

		if (!src_less(h, i, p))
			return;
		t = h[i];
		h[i] = h[p];
		h[p] = t;
		i = p;
	}
}

/*
 * For a few inputs, a scan beats the heap: where most keys are in every
 * input (a fleet runs one program), finding them all costs the heap two
 * compares per level and input, the scan one per input.  Moves the
 * inputs with the smallest key from @h to @taken, in their order.
 */
static size_t take_smallest(struct src **h, size_t *n, struct src **taken)
{
	size_t i, k = 1, j = 0;

	taken[0] = h[0];
	for (i = 1; i < *n; i++) {
		int c = lp_mrec_cmp(h[i]->head, taken[0]->head);

		if (c < 0) {
			/* the ones taken so far go back */
			while (k)
				h[j++] = taken[--k];
			taken[k++] = h[i];
		} else if (c == 0) {
			taken[k++] = h[i];
		} else {
			h[j++] = h[i];
		}
	}
	*n = j;
	return k;
}

/*-************************************
 *  Summing one key
 **************************************/
/* A count as this input contributes it: normalised, then weighted. */
static int scaled(const struct src *s, const struct lp_prof_site *r,
		  uint64_t c, uint64_t *out, struct lp_diag *diag)
{
	const struct lp_merge_input *in = s->in;
	unsigned __int128 x = c;
	uint64_t w = in->weight ? in->weight : 1;

	/* the usual input: as it is, without 128-bit arithmetic */
	if (w == 1 && !in->scale_den) {
		*out = c;
		return 0;
	}
	if (in->scale_den)
		x = (x * in->scale_num + in->scale_den / 2) / in->scale_den;
	x *= w;
	if (x > UINT64_MAX) {
		snprintf(diag->msg, sizeof(diag->msg), "%s:%zu: count %llu "
			 "times weight %llu is more than 2^64-1",
			 src_name(in), r->src_line, (unsigned long long)c,
			 (unsigned long long)w);
		return -LP_ERANGE;
	}
	*out = (uint64_t)x;
	return 0;
}

/*
 * The ways of record @r (doc/FORMAT.md, "Ways") into @acc: as it says
 * them, or, for the profile of one process, as its counts tell.
 */
static void add_ways(struct lp_prof_site *acc, const struct src *s,
		     const struct lp_mrec *m)
{
	const struct lp_prof_site *r = &m->s;

	if (r->has_procs) {
		acc->procs_right = lp_sat_add(acc->procs_right, r->procs_right);
		acc->procs_wrong = lp_sat_add(acc->procs_wrong, r->procs_wrong);
		acc->procs_both = lp_sat_add(acc->procs_both, r->procs_both);
		acc->has_procs = 1;
		return;
	}
	if (!s->one_process || r->expect == LP_EXPECT_IF)
		return;
	acc->procs_right += m->way == LP_WAY_RIGHT;
	acc->procs_wrong += m->way == LP_WAY_WRONG;
	acc->procs_both += m->way == LP_WAY_BOTH;
	acc->has_procs = 1;
}

/* Adds record @m of input @s into @acc. */
static int add_record(struct lp_prof_site *acc, const struct src *s,
		      const struct lp_mrec *m, struct lp_diag *diag)
{
	const struct lp_prof_site *r = &m->s;
	uint64_t c, i, k;
	int err;

	if ((err = scaled(s, r, r->correct, &c, diag)) < 0 ||
	    (err = scaled(s, r, r->incorrect, &i, diag)) < 0 ||
	    (err = scaled(s, r, r->constant, &k, diag)) < 0)
		return err;
	acc->correct = lp_sat_add(acc->correct, c);
	acc->incorrect = lp_sat_add(acc->incorrect, i);
	acc->constant = lp_sat_add(acc->constant, k);
	if (r->sure > acc->sure)
		acc->sure = r->sure;
	/* samples are what they are: a scaled profile scales its estimate */
	if (r->has_samples) {
		acc->samp_right = lp_sat_add(acc->samp_right, r->samp_right);
		acc->samp_wrong = lp_sat_add(acc->samp_wrong, r->samp_wrong);
		acc->has_samples = 1;
	}
	if (r->has_votes) {
		acc->votes_right = lp_sat_add(acc->votes_right,
					      r->votes_right);
		acc->votes_wrong = lp_sat_add(acc->votes_wrong,
					      r->votes_wrong);
	} else {
		/* a profile of one run: its counts are its vote */
		acc->votes_right += m->vote > 0;
		acc->votes_wrong += m->vote < 0;
	}
	add_ways(acc, s, m);
	return 0;
}

/*
 * Pops every input whose next record has the smallest key, sums one
 * record of each into @acc, and puts the inputs back with their next.
 * @return : 0, LP_MERGE_AGAIN or -LP_E*.
 */
static int merge_one(struct src **h, size_t *n, int linear,
		     struct src **taken, size_t *taken_nr,
		     struct lp_prof_site *acc, struct lp_diag *diag)
{
	size_t k = 0, i;
	int err;

	if (linear) {
		k = take_smallest(h, n, taken);
	} else {
		do {
			taken[k++] = h[0];
			h[0] = h[--*n];
			sift_down(h, *n, 0);
		} while (*n && !lp_mrec_cmp(h[0]->head, taken[0]->head));
	}
	*acc = taken[0]->head->s;
	acc->correct = acc->incorrect = acc->constant = 0;
	acc->votes_right = acc->votes_wrong = 0;
	acc->samp_right = acc->samp_wrong = 0;
	acc->has_samples = 0;
	acc->procs_right = acc->procs_wrong = acc->procs_both = 0;
	acc->has_procs = 0;
	acc->sure = LP_SURE_MEASURED;
	acc->has_votes = 1;
	for (i = 0; i < k; i++)
		if ((err = add_record(acc, taken[i], taken[i]->head,
				      diag)) < 0)
			return err;
	*taken_nr = k;
	return 0;
}

/* Puts the @k inputs of the last key back, each with its next record. */
static int put_back(struct src **h, size_t *n, int linear, struct src **taken,
		    size_t k, struct lp_diag *diag)
{
	size_t i;
	int err;

	for (i = 0; i < k; i++) {
		err = src_next(taken[i], diag);
		if (err < 0 || err == LP_MERGE_AGAIN)
			return err;
		if (!err)
			continue;
		h[*n] = taken[i];
		if (linear)
			(*n)++;
		else
			sift_up(h, (*n)++);
	}
	return 0;
}

/*-************************************
 *  The whole merge
 **************************************/
/* The build-id of a build record "HEX PATH": its length, 0 if none. */
static size_t build_hex_len(const char *v)
{
	const char *sp = strchr(v, ' ');

	return sp && sp > v ? (size_t)(sp - v) : 0;
}

/* A build record of an input, and where it stands among all of them. */
struct build_ref {
	const char *v;          /* "HEX PATH" */
	size_t hl;              /* the length of HEX, 0 if none */
	size_t at;              /* its place, inputs in order */
	size_t input;
};

static const char *build_path(const struct build_ref *b)
{
	return b->hl ? b->v + b->hl + 1 : "";
}

/* By path, then by place: a path's first record comes first. */
static int build_path_cmp(const void *pa, const void *pb)
{
	const struct build_ref *a = pa, *b = pb;
	int c = strcmp(build_path(a), build_path(b));

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

/* By the whole record, then by place: copies meet, the first first. */
static int build_value_cmp(const void *pa, const void *pb)
{
	const struct build_ref *a = pa, *b = pb;
	int c = strcmp(a->v, b->v);

	return c ? c : (a->at > b->at) - (a->at < b->at);
}

static int build_at_cmp(const void *pa, const void *pb)
{
	const struct build_ref *a = pa, *b = pb;

	return (a->at > b->at) - (a->at < b->at);
}

/* Every build record of the @n inputs, in their order; NULL: no memory. */
static struct build_ref *collect_builds(struct src *srcs, size_t n,
					size_t *nr)
{
	struct build_ref *b = NULL;
	size_t i, j, k = 0, total = 0;

	for (i = 0; i < n; i++)
		total += src_meta(&srcs[i])->meta_nr;
	b = malloc((total + 1) * sizeof(*b));
	for (i = 0; b && i < n; i++) {
		const struct lp_profile *p = src_meta(&srcs[i]);

		for (j = 0; j < p->meta_nr; j++) {
			if (strcmp(p->meta[j].key, LP_META_BUILD))
				continue;
			b[k].v = p->meta[j].value;
			b[k].hl = build_hex_len(b[k].v);
			b[k].at = k;
			b[k].input = i;
			k++;
		}
	}
	*nr = k;
	return b;
}

/*
 * The first record, in the inputs' order, whose path an earlier record
 * gives another build-id; @*first is that earlier record.  Sorted by
 * path and place, a path's records that differ from its first are the
 * candidates.
 */
static const struct build_ref *build_conflict(struct build_ref *b, size_t n,
					      const struct build_ref **first)
{
	const struct build_ref *found = NULL;
	size_t i, g;

	qsort(b, n, sizeof(*b), build_path_cmp);
	for (g = 0; g < n; g = i) {
		for (i = g + 1; i < n && !strcmp(build_path(&b[i]),
						 build_path(&b[g])); i++) {
			if (!b[g].hl || (b[i].hl == b[g].hl &&
					 !memcmp(b[i].v, b[g].v, b[g].hl)))
				continue;
			if (!found || b[i].at < found->at) {
				found = &b[i];
				*first = &b[g];
			}
			break;
		}
		while (i < n && !strcmp(build_path(&b[i]), build_path(&b[g])))
			i++;
	}
	return found;
}

/*
 * The builds every input came from, each once, in the order they came,
 * into @meta.  Two builds of one path are two programs whose sites meet
 * by key only where their sources happen to agree, so they are refused
 * unless LP_MERGE_ANY_BUILD.  Sorting, not a scan per record: a fleet's
 * inputs may carry many.
 */
static int merge_builds(struct lp_profile *meta, struct src *srcs, size_t n,
			unsigned flags, struct lp_diag *diag)
{
	const struct build_ref *bad, *first = NULL;
	size_t nr, i, k = 0;
	struct build_ref *b = collect_builds(srcs, n, &nr);
	int err = 0;

	if (!b)
		return -LP_ENOMEM;
	if (!(flags & LP_MERGE_ANY_BUILD) &&
	    (bad = build_conflict(b, nr, &first))) {
		snprintf(diag->msg, sizeof(diag->msg),
			 "%s: profiles of different builds of '%s': %.*s in "
			 "%s, %.*s in %s (merge them anyway with "
			 "--allow-different-builds)",
			 src_name(srcs[bad->input].in), build_path(bad),
			 (int)first->hl, first->v,
			 src_name(srcs[first->input].in), (int)bad->hl,
			 bad->v, src_name(srcs[bad->input].in));
		free(b);
		return -LP_ECONFLICT;
	}
	qsort(b, nr, sizeof(*b), build_value_cmp);
	for (i = 0; i < nr; i++)
		if (!i || strcmp(b[i - 1].v, b[i].v))
			b[k++] = b[i];
	qsort(b, k, sizeof(*b), build_at_cmp);
	for (i = 0; i < k && !err; i++)
		err = lp_profile_add_meta(meta, LP_META_BUILD, b[i].v);
	free(b);
	return err;
}

static void drop_key(struct lp_profile *p, const char *key)
{
	size_t i, j = 0;

	for (i = 0; i < p->meta_nr; i++) {
		if (strcmp(p->meta[i].key, key)) {
			p->meta[j++] = p->meta[i];
			continue;
		}
		free(p->meta[i].key);
		free(p->meta[i].value);
	}
	p->meta_nr = j;
}

static int write_head(struct lp_sink *sink, struct src *srcs, size_t n,
		      unsigned flags, const char *label, struct lp_diag *diag)
{
	struct lp_profile meta = LP_PROFILE_INIT;
	const struct lp_profile *first = src_meta(&srcs[0]);
	uint64_t merged = 0;
	char count[32];
	size_t i;
	int err = -LP_ENOMEM;

	for (i = 0; i < first->meta_nr; i++)
		if (lp_profile_add_meta(&meta, first->meta[i].key,
					first->meta[i].value) < 0)
			goto out;
	if (lp_meta_tidy(&meta) < 0)
		goto out;
	for (i = 0; i < n; i++) {
		const struct lp_profile *p = src_meta(&srcs[i]);

		lp_meta_keep_common(&meta, p);
		merged = lp_sat_add(merged, lp_merged_count(p));
	}
	drop_key(&meta, LP_META_BUILD);
	if ((err = merge_builds(&meta, srcs, n, flags, diag)) < 0)
		goto out;
	err = -LP_ENOMEM;
	/* a label given names the whole: the inputs' own are replaced */
	if (label) {
		drop_key(&meta, LP_META_LABEL);
		if (lp_profile_add_meta(&meta, LP_META_LABEL, label) < 0)
			goto out;
	}
	snprintf(count, sizeof(count), "%llu", (unsigned long long)merged);
	if (lp_profile_set_meta(&meta, "merged", count) < 0)
		goto out;
	lp_profile_sort(&meta);
	lp_sink_header(sink);
	for (i = 0; i < meta.meta_nr; i++)
		lp_sink_meta(sink, meta.meta[i].key, meta.meta[i].value);
	err = 0;
out:
	lp_profile_release(&meta);
	return err;
}

static int merge_all(struct lp_sink *sink, struct src *srcs, size_t n,
		     struct lp_diag *diag)
{
	struct src **h = malloc(n * sizeof(*h));
	struct src **taken = malloc(n * sizeof(*taken));
	size_t hn = 0, i, k;
	uint64_t written = 0;
	int linear = n <= 8;
	int err = -LP_ENOMEM;

	if (!h || !taken)
		goto out;
	for (i = 0; i < n; i++) {
		err = src_next(&srcs[i], diag);
		if (err < 0 || err == LP_MERGE_AGAIN)
			goto out;
		if (err) {
			h[hn] = &srcs[i];
			sift_up(h, hn++);
		}
	}
	err = 0;
	while (hn && !sink->error) {
		struct lp_prof_site acc;
		const struct lp_mrec *first;

		if ((err = merge_one(h, &hn, linear, taken, &k, &acc,
				     diag)) < 0)
			goto out;
		/* the text as the first input spelled it, if it can be */
		first = taken[0]->head;
		if (first->span)
			lp_sink_site_span(sink, &acc, first->span,
					  first->span_n);
		else
			lp_sink_prof_site(sink, &acc);
		written++;
		if ((err = put_back(h, &hn, linear, taken, k, diag)))
			goto out;
	}
	lp_sink_end(sink, written);
out:
	free(h);
	free(taken);
	return err;
}

int lp_merge_write(FILE *out, struct lp_merge_input *in, size_t n,
		   const struct lp_policy *pol, size_t bufsize, unsigned flags,
		   const char *label, struct lp_diag *diag)
{
	struct lp_policy def = LP_POLICY_INIT;
	struct src *srcs = calloc(n ? n : 1, sizeof(*srcs));
	struct lp_file_sink fs;
	char buf[1 << 16];
	size_t i, opened = 0;
	int err = -LP_ENOMEM;

	diag->msg[0] = '\0';
	if (!srcs)
		return err;
	if (!pol)
		pol = &def;
	for (opened = 0; opened < n; opened++) {
		srcs[opened].in = &in[opened];
		srcs[opened].pol = pol;
		if ((err = src_open(&srcs[opened], bufsize, diag)) < 0)
			goto out;
		srcs[opened].one_process =
			lp_profile_one_process(src_meta(&srcs[opened]));
		if (srcs[opened].stream)
			lp_prof_stream_hook(srcs[opened].stream, judge_recs,
					    &srcs[opened]);
		/*
		 * Reading is half the work: a few big inputs are read by
		 * threads of their own, on the other cores.  Many are small
		 * and would only add threads.
		 */
		if (n <= PREFETCH_MAX && srcs[opened].stream)
			lp_prof_stream_prefetch(srcs[opened].stream);
	}
	lp_file_sink_init(&fs, out, buf, sizeof(buf));
	err = n ? write_head(&fs.sink, srcs, n, flags, label, diag)
		: -LP_EINVAL;
	if (!err)
		err = merge_all(&fs.sink, srcs, n, diag);
	/* diag stays empty: the caller knows which file it was writing */
	if (!err && (lp_sink_finish(&fs.sink) < 0 || fflush(out) ||
		     ferror(out))) {
		if (!errno)
			errno = EIO;
		err = -LP_EIO;
	}
out:
	for (i = 0; i < opened && i < n; i++)
		src_close(&srcs[i]);
	free(srcs);
	return err;
}

int lp_merge_total(struct lp_merge_input *in, uint64_t *total,
		   struct lp_diag *diag)
{
	struct lp_policy def = LP_POLICY_INIT;
	struct src s;
	int err;

	memset(&s, 0, sizeof(s));
	s.in = in;
	s.pol = &def;           /* a record in memory is judged as read */
	*total = 0;
	if ((err = src_open(&s, 1 << 16, diag)) < 0)
		return err;
	while ((err = src_next(&s, diag)) == 1)
		*total = lp_sat_add(*total, lp_sat_add(s.head->s.correct,
						       s.head->s.incorrect));
	if (err == LP_MERGE_AGAIN) {
		/* out of order is no matter for a total: read it whole */
		src_close(&s);
		return lp_merge_total(in, total, diag);
	}
	src_close(&s);
	return err;
}
