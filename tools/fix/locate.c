/*
 * locate.c - from a profile's (file, line, function, direction,
 * condition) to one annotation of the tree, by the weight of the evidence
 *
 * locate.h gives the strategy.  Three passes, strongest evidence first:
 *
 *  1. per function: the sites the profile has in one function of one
 *     file against the annotations the source has there, by exact line,
 *     by order, by a common shift, by the condition's text;
 *  2. a site still open takes the shift of the nearest placed site of the
 *     same file;
 *  3. every site still open is weighed against every annotation of every
 *     file of its name: line, condition, direction, function name and
 *     path each count, and the function name is only one of them, so a
 *     name the source does not spell plainly does not stop a site whose
 *     file, line and condition agree.
 *
 * In a git work tree, history.c then maps sites placed on weak evidence
 * (and every flip) from the revision the profile was made from.
 */
#include <stdlib.h>
#include <string.h>

#include "fix/tree.h"
#include "fold.h"
#include "usage.h"

/*-************************************
 *  Finding the file
 **************************************/

/* Number of trailing path components @a and @b share. */
static size_t common_tail(const char *a, const char *b)
{
	size_t la = strlen(a), lb = strlen(b), n = 0;

	for (;;) {
		size_t ea = la, eb = lb;

		while (la && a[la - 1] != '/')
			la--;
		while (lb && b[lb - 1] != '/')
			lb--;
		if (ea - la != eb - lb || memcmp(a + la, b + lb, ea - la) ||
		    ea == la)
			return n;
		n++;
		if (!la || !lb)
			return n;
		la--;
		lb--;
	}
}

/* The profile's path relative to the tree when it is under it. */
static const char *tree_relative(const struct lp_tree *t, const char *path)
{
	size_t rl = strlen(t->real);

	if (path[0] == '/' && !strncmp(path, t->real, rl) && path[rl] == '/')
		return path + rl + 1;
	return path;
}

/* How well the best function of @f answers to @func. */
static int file_name_match(struct lp_tree *t, struct lp_srcfile *f,
			   const char *func, int kernel)
{
	char *err = NULL;
	int best = LP_NAME_NO;
	size_t i;

	if (f->is_link || lp_srcfile_load(t, f, &err)) {
		free(err);
		return LP_NAME_NO;
	}
	if (!*func)
		return LP_NAME_EXACT;
	for (i = 0; i < f->nfuncs && best < LP_NAME_EXACT; i++) {
		int m = lp_func_name_is(t, f, &f->funcs[i], func, kernel);

		if (m > best)
			best = m;
	}
	return best;
}

/*
 * Finds the file of profile path @path (canonical) defining @func: the
 * longest common tail, then a plain definition of the function.
 * @return : the file, or NULL with *@why set; pass 3 looks again.
 */
static struct lp_srcfile *find_file(struct lp_tree *t, const char *path,
				    const char *func, int kernel, char **why)
{
	const char *rel = tree_relative(t, path);
	struct lp_srcfile *best = NULL, *top_other = NULL, *top_one = NULL;
	size_t i, top = 0, nwith = 0, ntop_with = 0, ntop = 0;
	int outside = rel == path && (path[0] == '/' ||
				      !strncmp(path, "../", 3) ||
				      !strcmp(path, ".."));

	for (i = 0; i < t->nfiles; i++) {
		size_t s = common_tail(t->files[i].rel, rel);

		if (s > top)
			top = s;
	}
	if (!top) {
		*why = outside && path[0] != '/' ?
			lp_xstrfmt("'%s' leads outside the source tree, and "
				   "no file in it has that name", path) :
			lp_xstrfmt("no file named '%s' in the source tree",
				   lp_path_base(path));
		return NULL;
	}
	for (i = 0; i < t->nfiles; i++) {
		struct lp_srcfile *f = &t->files[i];
		size_t s = common_tail(f->rel, rel);
		int has;

		if (!s)
			continue;
		has = file_name_match(t, f, func, kernel) >= LP_NAME_PREFIXED;
		if (s == top) {
			ntop++;
			top_one = f;
			if (has) {
				ntop_with++;
				best = f;
			}
		} else if (has && !nwith) {
			top_other = f;
		}
		nwith += has;
	}
	if (ntop_with == 1)
		return best;
	if (ntop_with > 1)
		*why = lp_xstrfmt("%zu files in the tree end in '%s' and "
				  "define '%s'", ntop_with, rel, func);
	else if (nwith == 1)
		return top_other;       /* moved to a file of that name */
	else if (nwith > 1)
		*why = lp_xstrfmt("%zu files named '%s' define '%s'", nwith,
				  lp_path_base(path), func);
	else if (ntop == 1 && top_one->is_link)
		*why = lp_xstrfmt("'%s' is a symbolic link; not following it",
				  top_one->rel);
	else if (ntop == 1 && !lp_profile_name_readable(func))
		*why = lp_xstrfmt("no annotation of '%s' has the site's line "
				  "and condition ('%s' is the compiler's name "
				  "of a lambda or another body no definition "
				  "names)", top_one->rel, func);
	else if (ntop == 1)
		*why = lp_xstrfmt("no function '%s' in '%s'", func,
				  top_one->rel);
	else
		*why = lp_xstrfmt("no file named '%s' defines '%s'",
				  lp_path_base(path), func);
	return NULL;
}

/*-************************************
 *  Pass 1 and 2: the sites of one function
 **************************************/

/* The profile's sites of one function of one file. */
struct group {
	struct lp_srcfile *file;
	const char *func;
	size_t *idx;            /* into sites->v, in line order */
	size_t n;
};

static int compatible(const struct lp_judged *p, const struct lp_slot *s)
{
	if (p->expect == LP_EXPECT_UNKNOWN || s->expect == LP_EXPECT_UNKNOWN)
		return 1;
	return p->expect == s->expect;
}

/*
 * May the site be this annotation at all, when the lines are not the
 * same: the direction agrees, and the condition, if both sides have its
 * text, is not another one.  (Once a series removed the annotation a
 * profile named, its function's other annotations must not take its
 * place.)
 */
static int may_be(struct lp_tree *t, const struct lp_judged *p,
		  const struct lp_slot *s)
{
	return compatible(p, s) &&
	       lp_cond_compare(t, p->cond, s->cond) != LP_COND_DIFFERENT;
}

static int cond_matches(struct lp_tree *t, const struct lp_judged *p,
			const struct lp_slot *s)
{
	return lp_cond_compare(t, p->cond, s->cond) >= LP_COND_EXPANDED;
}

/*
 * The slot for the site at @line + @shift: the one slot whose range holds
 * it (a condition that matches breaks a tie).  @return : its index,
 * (size_t)-1 for none, (size_t)-2 for several.
 */
static size_t slot_at(struct lp_tree *t, const struct lp_slots *S,
		      const struct lp_judged *p, long line)
{
	size_t k, hit = (size_t)-1, nhit = 0, ncond = 0, cond_hit = 0;

	for (k = 0; k < S->nr; k++) {
		if (line < S->v[k].lo || line > S->v[k].hi ||
		    !(line == p->line ? compatible(p, &S->v[k])
				      : may_be(t, p, &S->v[k])))
			continue;
		nhit++;
		hit = k;
		if (cond_matches(t, p, &S->v[k])) {
			ncond++;
			cond_hit = k;
		}
	}
	if (nhit == 1)
		return hit;
	if (ncond == 1)
		return cond_hit;
	return nhit ? (size_t)-2 : (size_t)-1;
}

/* Maps every site at a common @shift; 0 when one is missing or unclear. */
static int map_shift(struct lp_tree *t, const struct lp_judged_list *J,
		     const struct group *g, const struct lp_slots *S,
		     long shift, size_t *map)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		map[i] = slot_at(t, S, &J->v[g->idx[i]],
				 J->v[g->idx[i]].line + shift);
		if (map[i] >= (size_t)-2)
			return 0;
		for (k = 0; k < i; k++)
			if (map[k] == map[i])
				return 0;
	}
	return 1;
}

static void place_slot(struct lp_place *pl, const struct lp_slot *s,
		       struct lp_srcfile *call_file, enum lp_place_how how,
		       const struct lp_judged *p)
{
	free(pl->reason);
	pl->reason = NULL;
	pl->placed = 1;
	pl->how = how;
	pl->file = s->file;
	pl->hint = s->hint;
	pl->expect = s->expect;
	pl->call_file = call_file;
	pl->fn = s->fn;
	pl->line = s->lo;
	pl->macro = s->macro;
	pl->opposite = !compatible(p, s);
	pl->tok = (size_t)s->off;       /* a byte offset until resolved */
	if (s->attr)
		pl->attr = *s->attr;
}

/* A reason; pass 3 may still place the site unless it is @final. */
static void refuse(struct lp_place *pl, int *final, char *why)
{
	if (pl->placed || (final && *final)) {
		free(why);
		return;
	}
	free(pl->reason);
	pl->reason = why;
}

/*
 * The one shift that puts every site on an annotation.  When several do,
 * pass 3 weighs each site with the drift of its neighbours.
 */
static int one_shift(struct lp_tree *t, const struct lp_judged_list *J,
		     const struct group *g, const struct lp_slots *S,
		     size_t *map)
{
	long best = 0, shift;
	size_t k, nshift = 0;

	for (k = 0; k < S->nr; k++) {
		shift = (long)S->v[k].lo - J->v[g->idx[0]].line;
		if ((!nshift || shift != best) &&
		    map_shift(t, J, g, S, shift, map)) {
			nshift++;
			best = shift;
		}
	}
	return nshift == 1 && map_shift(t, J, g, S, best, map);
}

/* Each site by its condition's text, when only one annotation has it. */
static int map_by_cond(struct lp_tree *t, const struct lp_judged_list *J,
		       const struct group *g, const struct lp_slots *S,
		       size_t *map)
{
	size_t i, k;

	for (i = 0; i < g->n; i++) {
		size_t n = 0;

		for (k = 0; k < S->nr; k++)
			if (compatible(&J->v[g->idx[i]], &S->v[k]) &&
			    cond_matches(t, &J->v[g->idx[i]], &S->v[k])) {
				n++;
				map[i] = k;
			}
		if (n != 1)
			return 0;
	}
	return 1;
}

/* Pass 1 for one function: exact lines, order, one shift, condition. */
static void align(struct lp_tree *t, const struct lp_judged_list *J,
		  const struct group *g, const struct lp_slots *S,
		  struct lp_place *out, int *final)
{
	size_t *map = lp_xcalloc(g->n, sizeof(*map)), i;
	enum lp_place_how how = LP_PLACED_LINE;
	int ok = 0;

	if (!S->nr) {
		for (i = 0; i < g->n; i++)
			refuse(&out[g->idx[i]], NULL, lp_xstrfmt(
				"'%s' in '%s' has no annotation left",
				g->func, g->file->rel));
		free(map);
		return;
	}
	if (map_shift(t, J, g, S, 0, map)) {
		ok = 1;
	} else if (g->n == S->nr) {
		ok = 1;
		how = LP_PLACED_ORDER;
		for (i = 0; i < g->n; i++) {
			map[i] = i;
			if (!may_be(t, &J->v[g->idx[i]], &S->v[i]))
				ok = 0;
		}
	}
	if (!ok && (ok = one_shift(t, J, g, S, map)))
		how = LP_PLACED_SHIFT;
	if (!ok && (ok = map_by_cond(t, J, g, S, map)))
		how = LP_PLACED_COND;
	for (i = 0; ok && i < g->n; i++) {
		struct lp_place *pl = &out[g->idx[i]];

		if (S->v[map[i]].ambiguous) {
			refuse(pl, &final[g->idx[i]], lp_xstrfmt(
				"macro %s has several definitions in the "
				"tree", S->v[map[i]].macro));
			final[g->idx[i]] = 1;
			continue;
		}
		place_slot(pl, &S->v[map[i]], g->file, how, &J->v[g->idx[i]]);
	}
	free(map);
}

/*
 * The drift of @f's lines since the profile, as the placed site nearest
 * to @p shows it: one placed on good evidence, not in a macro.
 * @return : 1 with *@shift set, or 0 when there is none.
 */
static int file_shift(const struct lp_judged_list *J,
		      const struct lp_place *out, const struct lp_judged *p,
		      const struct lp_srcfile *f, long *shift)
{
	long best = -1;
	size_t k;

	*shift = 0;
	for (k = 0; k < J->nr; k++) {
		long d = labs(J->v[k].line - p->line);

		if (!out[k].placed || out[k].call_file != f || out[k].macro ||
		    out[k].how >= LP_PLACED_NEIGHBOUR || &J->v[k] == p)
			continue;
		if (best < 0 || d < best) {
			best = d;
			*shift = (long)out[k].line - J->v[k].line;
		}
	}
	return best >= 0;
}

/*
 * Pass 2: a site still unplaced takes the shift of the placed site of the
 * same file nearest to it, if that shift lands on exactly one annotation
 * of its function (give or take two lines).
 */
static void align_by_neighbours(struct lp_tree *t,
				const struct lp_judged_list *J,
				const struct group *g,
				const struct lp_slots *S, struct lp_place *out,
				const int *final)
{
	size_t i, k;

	if (!S->nr)
		return;         /* pass 1 said so */
	for (i = 0; i < g->n; i++) {
		const struct lp_judged *p = &J->v[g->idx[i]];
		struct lp_place *pl = &out[g->idx[i]];
		long shift;
		size_t hit = 0, nhit = 0;
		int found;

		if (pl->placed || final[g->idx[i]])
			continue;
		found = file_shift(J, out, p, g->file, &shift);
		for (k = 0; found && k < S->nr; k++) {
			long at = p->line + shift;

			if (at + 2 >= S->v[k].lo && at - 2 <= S->v[k].hi &&
			    may_be(t, p, &S->v[k])) {
				nhit++;
				hit = k;
			}
		}
		if (nhit == 1 && !S->v[hit].ambiguous) {
			place_slot(pl, &S->v[hit], g->file,
				   LP_PLACED_NEIGHBOUR, p);
			continue;
		}
		refuse(pl, NULL, lp_xstrfmt(
			"%s() in '%s' has %zu annotation%s and the profile "
			"%zu site%s there; cannot tell which one line %ld "
			"was", g->func, g->file->rel, S->nr,
			S->nr == 1 ? "" : "s", g->n, g->n == 1 ? "" : "s",
			p->line));
	}
}

/* The slots of the functions of @g's file that answer best to its name. */
static void group_slots(struct lp_tree *t, const struct group *g, int kernel,
			struct lp_slots *S)
{
	struct lp_srcfile *f = g->file;
	int *m = lp_xcalloc(f->nfuncs + 1, sizeof(int)), best = LP_NAME_NO;
	size_t i;

	for (i = 0; i < f->nfuncs; i++) {
		m[i] = *g->func ? lp_func_name_is(t, f, &f->funcs[i], g->func,
						  kernel)
				: LP_NAME_EXACT;
		if (m[i] > best)
			best = m[i];
	}
	for (i = 0; best >= LP_NAME_PREFIXED && i < f->nfuncs; i++)
		if (m[i] == best)
			lp_function_slots(t, f, &f->funcs[i], S);
	free(m);
}

/*-************************************
 *  Pass 3: every annotation of the files of that name
 **************************************/

/* One annotation weighed for one site. */
struct weighed {
	const struct lp_slot *s;
	int tier;               /* 0: no case for it */
	size_t tail;
	int dir_ok, name, cond;
	long dist;
};

/* The slots of every function of @f, computed once. */
struct file_slots {
	int done;
	struct lp_slots S;
};

static long distance(long line, const struct lp_slot *s)
{
	if (line < s->lo)
		return (long)s->lo - line;
	if (line > s->hi)
		return line - (long)s->hi;
	return 0;
}

/*
 * The tiers of evidence, strongest first: 4, an annotation at the line
 * whose condition matches; 3, one at the line where no condition text
 * can say otherwise, in a function that may be the one; 2, the
 * condition matches, away from the line; 1, the nearest annotation of a
 * function of that name, when no condition text can say otherwise.
 */
static void weigh(struct lp_tree *t, const struct lp_judged *p,
		  const struct lp_slot *s, size_t tail, long shift, int kernel,
		  struct weighed *w)
{
	int name_known = lp_profile_name_readable(p->func);

	w->s = s;
	w->tail = tail;
	w->dir_ok = compatible(p, s);
	w->dist = distance(p->line, s);
	if (w->dist && shift)
		w->dist = distance(p->line + shift, s);
	w->cond = lp_cond_compare(t, p->cond, s->cond);
	w->name = name_known ? lp_func_name_is(t, s->call_file, s->fn,
					       p->func, kernel)
			     : LP_NAME_UNKNOWN;
	w->tier = 0;
	if (!w->dist && w->cond >= LP_COND_EXPANDED)
		w->tier = 4;
	else if (!w->dist && w->cond == LP_COND_UNKNOWN &&
		 w->name >= LP_NAME_UNKNOWN)
		w->tier = 3;
	else if (w->cond >= LP_COND_EXPANDED && w->name >= LP_NAME_UNKNOWN)
		w->tier = 2;
	else if (w->cond == LP_COND_UNKNOWN && w->name >= LP_NAME_PREFIXED)
		w->tier = 1;
}

/* Compares two weighed annotations: > 0 when @a is the better. */
static int better(const struct weighed *a, const struct weighed *b)
{
	if (a->tier != b->tier)
		return a->tier - b->tier;
	if (a->tail != b->tail)
		return a->tail > b->tail ? 1 : -1;
	if (a->dir_ok != b->dir_ok)
		return a->dir_ok - b->dir_ok;
	if (a->cond != b->cond)
		return a->cond - b->cond;
	if (a->name != b->name)
		return a->name - b->name;
	if (a->dist != b->dist)
		return a->dist < b->dist ? 1 : -1;
	return 0;
}

static struct lp_slots *slots_of(struct lp_tree *t, struct file_slots *fs,
				 struct lp_srcfile *f)
{
	struct file_slots *c = &fs[f - t->files];
	char *err = NULL;
	size_t i;

	if (!c->done) {
		c->done = 1;
		if (!f->is_link && !lp_srcfile_load(t, f, &err))
			for (i = 0; i < f->nfuncs; i++)
				lp_function_slots(t, f, &f->funcs[i], &c->S);
		free(err);
	}
	return &c->S;
}

static char *tie_reason(const struct weighed *a, const struct weighed *b)
{
	return lp_xstrfmt("two annotations are equally likely: '%s':%u and "
			  "'%s':%u", a->s->call_file->rel, a->s->lo,
			  b->s->call_file->rel, b->s->lo);
}


static void place_by_evidence(struct lp_tree *t,
			      const struct lp_judged_list *J,
			      const struct lp_judged *p, struct lp_place *out,
			      struct lp_place *pl, struct file_slots *fs,
			      int kernel)
{
	const char *rel = tree_relative(t, p->file);
	struct weighed best = { 0 }, second = { 0 }, w;
	size_t i, k;
	long shift;
	static const enum lp_place_how how[] = {
		0, LP_PLACED_NEAREST, LP_PLACED_COND, LP_PLACED_LINE,
		LP_PLACED_LINE,
	};

	for (i = 0; i < t->nfiles; i++) {
		size_t tail = common_tail(t->files[i].rel, rel);
		struct lp_slots *S;

		if (!tail)
			continue;
		S = slots_of(t, fs, &t->files[i]);
		if (S->nr)
			file_shift(J, out, p, &t->files[i], &shift);
		for (k = 0; k < S->nr; k++) {
			weigh(t, p, &S->v[k], tail, shift, kernel, &w);
			if (!w.tier)
				continue;
			if (!best.s || better(&w, &best) > 0) {
				second = best;
				best = w;
			} else if (S->v[k].off != best.s->off ||
				   S->v[k].file != best.s->file) {
				if (!second.s || better(&w, &second) > 0)
					second = w;
			}
		}
	}
	if (!best.s)
		return;
	if (second.s && !better(&best, &second) &&
	    (second.s->off != best.s->off || second.s->file != best.s->file)) {
		refuse(pl, NULL, tie_reason(&best, &second));
		return;
	}
	if (best.s->ambiguous) {
		refuse(pl, NULL, lp_xstrfmt("macro %s has several definitions "
					    "in the tree", best.s->macro));
		return;
	}
	place_slot(pl, best.s, best.s->call_file, how[best.tier], p);
}

/*-************************************
 *  History, and the tokens
 **************************************/

/* The file to ask git about for site @i: its own, or the one of its name. */
static struct lp_srcfile *history_file(struct lp_tree *t,
				       const struct lp_judged *p,
				       struct lp_srcfile *found)
{
	const char *rel = tree_relative(t, p->file);
	struct lp_srcfile *one = NULL;
	size_t i, top = 0, ntop = 0;

	if (found)
		return found;
	for (i = 0; i < t->nfiles; i++) {
		size_t s = common_tail(t->files[i].rel, rel);

		if (s > top) {
			top = s;
			ntop = 0;
		}
		if (s && s == top) {
			ntop++;
			one = &t->files[i];
		}
	}
	return ntop == 1 && !one->is_link ? one : NULL;
}

/* Does site @i need the history: weakly placed, open, or a flip? */
static int wants_history(const struct lp_judged *p, const struct lp_place *pl,
			 int final)
{
	if (final)
		return 0;
	if (!pl->placed)
		return 1;
	return pl->how >= LP_PLACED_NEIGHBOUR ||
	       p->j.verdict == LP_VERDICT_FLIP;
}

static void place_by_history(struct lp_tree *t, const struct lp_judged *p,
			     struct lp_place *pl, struct lp_srcfile *f,
			     struct file_slots *fs, int kernel)
{
	struct lp_slots *S;
	unsigned line;
	char *changed = NULL;
	size_t k, hit = 0, nhit = 0;

	if (!lp_history_place(t, f, p, kernel, &line, &changed)) {
		if (changed && !pl->placed)
			refuse(pl, NULL, lp_xstrfmt("%s; not changing it",
						    changed));
		free(pl->changed);
		pl->changed = changed;
		return;
	}
	S = slots_of(t, fs, f);
	for (k = 0; k < S->nr; k++)
		if (S->v[k].call_file == f && line >= S->v[k].lo &&
		    line <= S->v[k].hi && compatible(p, &S->v[k])) {
			hit = k;
			nhit++;
		}
	if (nhit == 1 && !S->v[hit].ambiguous &&
	    (!pl->placed || pl->how > LP_PLACED_HISTORY))
		place_slot(pl, &S->v[hit], f, LP_PLACED_HISTORY, p);
	free(pl->changed);
	pl->changed = changed;
}

int lp_place_condition(const struct lp_place *pl, size_t *from, size_t *to)
{
	const struct lp_lexed *lx = &pl->file->lx;
	size_t af[8], at[8], a, b;
	int n;

	if (pl->hint->attribute) {
		a = pl->attr.from;
		b = pl->attr.to;
	} else {
		n = lp_tok_args(lx, pl->tok + 1, af, at, 8);
		if (n <= pl->hint->cond_arg)
			return -1;
		a = af[pl->hint->cond_arg];
		b = at[pl->hint->cond_arg];
	}
	while (a < b &&
	       (lp_tok_is(lx, a, "!") ||
		(lp_tok_is(lx, a, "(") && lx->tok[a].match == b - 1))) {
		if (lp_tok_is(lx, a, "("))
			b--;
		a++;
	}
	if (a == b)
		return -1;
	*from = a;
	*to = b;
	return 0;
}

/* Turns the byte offsets of placed sites into token indices. */
static void resolve_tokens(struct lp_tree *t, struct lp_place *out, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		struct lp_place *pl = &out[i];
		size_t lo, hi, off;
		char *err = NULL;

		if (!pl->placed)
			continue;
		off = pl->tok;
		if (lp_srcfile_load(t, pl->file, &err)) {
			pl->placed = 0;
			pl->reason = err;
			continue;
		}
		lo = 0;
		hi = pl->file->lx.nr;
		while (lo < hi) {
			size_t mid = lo + (hi - lo) / 2;

			if (pl->file->lx.tok[mid].start < off)
				lo = mid + 1;
			else
				hi = mid;
		}
		if (lo == pl->file->lx.nr || pl->file->lx.tok[lo].start != off)
			lp_bug("annotation at byte %zu of '%s' lost", off,
			       pl->file->rel);
		pl->tok = lo;
	}
}

static int cmp_line_idx(const void *a, const void *b, void *ctx)
{
	const struct lp_judged_list *J = ctx;
	const struct lp_judged *x = &J->v[*(const size_t *)a];
	const struct lp_judged *y = &J->v[*(const size_t *)b];

	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* The file of each site, one look-up per distinct (path, function). */
static void find_files(struct lp_tree *t, const struct lp_judged_list *J,
		       struct lp_srcfile **file_of, struct lp_place *out,
		       int kernel)
{
	size_t i, k, run = 0;

	for (i = 0; i < J->nr; i++) {
		const struct lp_judged *p = &J->v[i];
		const char *func = p->func ? p->func : "";

		if (i && !strcmp(J->v[i - 1].file, p->file) &&
		    !strcmp(J->v[i - 1].func ? J->v[i - 1].func : "", func)) {
			file_of[i] = file_of[i - 1];
			if (!file_of[i])
				out[i].reason = lp_xstrdup(out[i - 1].reason);
			continue;
		}
		/* sites are sorted by file: look back over this file's only */
		if (!i || strcmp(J->v[i - 1].file, p->file))
			run = i;
		for (k = run; k < i && !file_of[i]; k++)
			if (file_of[k] && !strcmp(J->v[k].file, p->file) &&
			    !strcmp(J->v[k].func ? J->v[k].func : "", func))
				file_of[i] = file_of[k];
		if (!file_of[i])
			file_of[i] = find_file(t, p->file, func, kernel,
					       &out[i].reason);
	}
}

/* Groups: the sites of one function of one file. */
static struct group *make_groups(const struct lp_judged_list *J,
				 struct lp_srcfile **file_of, const int *final,
				 size_t *ngroups)
{
	struct group *groups = NULL;
	size_t i, k;

	*ngroups = 0;
	for (i = 0; i < J->nr; i++) {
		const char *func = J->v[i].func ? J->v[i].func : "";
		struct group *g = NULL;

		if (!file_of[i] || final[i])
			continue;
		for (k = *ngroups; k-- > 0 && groups[k].file == file_of[i];)
			if (!strcmp(groups[k].func, func)) {
				g = &groups[k];
				break;
			}
		if (!g) {
			groups = lp_xrealloc(groups, (*ngroups + 1) *
					     sizeof(*groups));
			g = &groups[(*ngroups)++];
			memset(g, 0, sizeof(*g));
			g->file = file_of[i];
			g->func = func;
		}
		g->idx = lp_xrealloc(g->idx, (g->n + 1) * sizeof(size_t));
		g->idx[g->n++] = i;
	}
	return groups;
}

static void align_groups(struct lp_tree *t, const struct lp_judged_list *J,
			 struct group *groups, size_t ngroups,
			 struct lp_place *out, int *final, int kernel)
{
	size_t pass, k, i;

	for (pass = 1; pass <= 2; pass++) {
		for (k = 0; k < ngroups; k++) {
			struct group *g = &groups[k];
			struct lp_slots S = { NULL, 0, 0 };
			char *err = NULL;

			if (lp_srcfile_load(t, g->file, &err)) {
				for (i = 0; i < g->n; i++) {
					refuse(&out[g->idx[i]], NULL,
					       lp_xstrdup(err));
					final[g->idx[i]] = 1;
				}
				free(err);
				continue;
			}
			qsort_r(g->idx, g->n, sizeof(size_t), cmp_line_idx,
				(void *)J);
			group_slots(t, g, kernel, &S);
			if (pass == 1)
				align(t, J, g, &S, out, final);
			else
				align_by_neighbours(t, J, g, &S, out, final);
			lp_slots_release(&S);
		}
	}
}

/* Token @i calls a macro of the tree's on @p's condition: cc's by name? */
static int unknown_hint_macro(struct lp_tree *t, const struct lp_srcfile *f,
			      const struct lp_judged *p, size_t i)
{
	const struct lp_lexed *lx = &f->lx;
	size_t from[2], to[2];
	char *name, *arg;
	int r;

	if (!lp_tok_call(lx, i, lx->nr) || lp_tok_keyword(lx, i) ||
	    lp_tok_args(lx, i + 1, from, to, 2) != 1 || !p->cond)
		return 0;
	name = lp_tok_dup(lx, i);
	r = lp_tree_defines(t, name);
	free(name);
	if (!r)
		return 0;
	arg = lp_tok_text(lx, from[0], to[0]);
	r = lp_cond_compare(t, p->cond, arg) >= LP_COND_EXPANDED;
	free(arg);
	return r;
}

/*
 * A macro that cc counted by name (--hint-macro) is no spelling unless
 * fix is told so too.  A site left unplaced on a line that calls one
 * gets that true reason, not a guess at which annotation it was.
 */
static void refuse_unknown_forms(struct lp_tree *t,
				 const struct lp_srcfile *f,
				 const struct lp_judged *p,
				 struct lp_place *pl)
{
	const struct lp_lexed *lx;
	size_t i, macro = LP_NO_MATCH;
	char *name;

	if (pl->placed || !f || !f->loaded)
		return;
	lx = &f->lx;
	for (i = 0; i < lx->nr; i++) {
		const struct lp_token *tk = &lx->tok[i];

		if ((long)tk->line != p->line || tk->kind != LP_TOK_IDENT ||
		    (tk->flags & LP_TOKF_DEAD))
			continue;
		if (lp_tok_hint(t, lx, i))
			return;         /* a spelling: the guess stands */
		if (macro == LP_NO_MATCH && unknown_hint_macro(t, f, p, i))
			macro = i;
	}
	if (macro == LP_NO_MATCH)
		return;
	name = lp_tok_dup(lx, macro);
	free(pl->reason);
	pl->reason = lp_xstrfmt("line %ld calls %s(), which the tree defines "
				"as no hint: if likelyprof cc --hint-macro %s "
				"counted it, give --hint-macro %s here too",
				p->line, name, name, name);
	free(name);
}

void lp_tree_place(struct lp_tree *t, const struct lp_judged_list *J,
		   struct lp_place *out)
{
	struct lp_srcfile **file_of = lp_xcalloc(J->nr + 1, sizeof(*file_of));
	struct file_slots *fs = lp_xcalloc(t->nfiles + 1, sizeof(*fs));
	int *final = lp_xcalloc(J->nr + 1, sizeof(int));
	struct group *groups;
	size_t ngroups, i;
	int kernel = J->origin == LP_ORIGIN_KERNEL ||
		     J->origin == LP_ORIGIN_KERNEL_ALL;

	memset(out, 0, J->nr * sizeof(*out));
	find_files(t, J, file_of, out, kernel);
	groups = make_groups(J, file_of, final, &ngroups);
	align_groups(t, J, groups, ngroups, out, final, kernel);
	for (i = 0; i < J->nr; i++)
		if (!out[i].placed && !final[i])
			place_by_evidence(t, J, &J->v[i], out, &out[i], fs,
					  kernel);
	for (i = 0; i < J->nr; i++) {
		struct lp_srcfile *f;

		if (!wants_history(&J->v[i], &out[i], final[i]) ||
		    !lp_tree_is_git(t))
			continue;
		f = history_file(t, &J->v[i], out[i].placed ?
				 out[i].call_file : file_of[i]);
		if (f)
			place_by_history(t, &J->v[i], &out[i], f, fs, kernel);
	}
	for (i = 0; i < J->nr; i++)
		refuse_unknown_forms(t, file_of[i], &J->v[i], &out[i]);
	for (i = 0; i < J->nr; i++)
		if (lp_verdict_changes(J->v[i].j.verdict))
			out[i].quoted = lp_history_quoted(t, &J->v[i]);
	resolve_tokens(t, out, J->nr);
	for (i = 0; i < ngroups; i++)
		free(groups[i].idx);
	for (i = 0; i < t->nfiles; i++)
		lp_slots_release(&fs[i].S);
	free(groups);
	free(fs);
	free(final);
	free(file_of);
}

void lp_place_release(struct lp_place *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++) {
		free(p[i].reason);
		free(p[i].changed);
		free(p[i].quoted);
	}
}
