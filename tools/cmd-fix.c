/*
 * cmd-fix.c - `likelyprof fix`: the patches that remove or flip the
 * annotations the profiles say are wrong
 *
 * The pipeline: judge the profiles (lib/profile/policy.c), place each
 * site in the tree (fix/locate.c), decide once per annotation (an
 * annotation in a macro body serves every call of the macro, so they
 * must all agree), make the edits (fix/rewrite.c), and print them as a
 * series of patches, one per subsystem (fix/series.c), or write them
 * with --apply (fix/apply.c).  A site
 * that cannot be placed or changed without doubt is reported with its
 * reason and the rest go on; nothing is written outside --src, and with
 * --apply a failure leaves every file as it was.
 */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "builtin.h"
#include "write-file.h"
#include "filter.h"
#include "fix/apply.h"
#include "fix/inputs.h"
#include "fix/quote.h"
#include "fold.h"
#include "fix/locate.h"
#include "fix/rewrite.h"
#include "fix/series.h"
#include "ktable.h"
#include "progress.h"
#include "usage.h"

static const char fix_usage[] =
	"usage: likelyprof fix --src DIR [--apply] [--explain] "
	"[--label NAME]...\n"
	"                      [--split function|subsystem] "
	"[--flip-at PCT]\n"
	"                      [--remove-at PCT] [--min-hits N] [--no-flip] "
	"FILE...\n"
	"\n"
	"Finds each annotation that the profiles (one per machine or\n"
	"workload; kernel tables too) say is wrong in the source tree DIR\n"
	"and prints a patch series that `git am` applies: one patch per\n"
	"function, each quoting the profile.  Sites that cannot be found\n"
	"without doubt are reported and left alone.\n"
	"\n"
	"   --src DIR         the source tree; nothing outside it is read\n"
	"   --apply           change the files in place instead\n"
	"   --settings        change hints that follow a setting of the\n"
	"                     process too (check says which)\n"
	"   --file GLOB, --function GLOB, --verdict LIST\n"
	"                     only the sites that match, as for check\n"
	"   --explain         say what placed each site (on stderr)\n"
	"   --progress        say what it is doing on stderr even when that\n"
	"                     is no terminal\n"
	"   --split HOW       function (default: one patch per function,\n"
	"                     or per expression they test) or subsystem\n"
	"   --label NAME      names the profiles in the messages, in order\n"
	"                     (default: their files' base names)\n"
	LP_POLICY_USAGE;

/* One annotation to change, and the sites of the profile that say so. */
struct target {
	struct lp_srcfile *file;
	size_t tok;
	const struct lp_place *pl;      /* of the first site */
	size_t *sites;
	size_t nsites;
	enum lp_verdict verdict;
	const char *partner;
	struct lp_edits edits;
	char *subsystem;
	size_t patch;           /* the patch it goes in */
};

struct fix_state {
	struct lp_inputs in;
	struct lp_policy pol;
	struct lp_tree *tree;
	struct lp_place *places;
	struct target *t;
	size_t nt;
	size_t refused;
	int split_subsystem;    /* --split subsystem */
	const char **labels;    /* --label, one per profile in order */
	size_t nlabels;
	int settings;           /* --settings: change hints that follow one */
};

static void refuse_site(struct fix_state *st, size_t i, const char *why)
{
	const struct lp_judged *s = &st->in.sites.v[i];

	lp_warning("%s:%ld: %s%snot changed: %s", s->file, s->line,
		   s->func && *s->func ? s->func : "",
		   s->func && *s->func ? "(): " : "", why);
	st->refused++;
}

static int cmp_place(const void *pa, const void *pb, void *ctx)
{
	const struct lp_place *P = ctx;
	const struct lp_place *a = &P[*(const size_t *)pa];
	const struct lp_place *b = &P[*(const size_t *)pb];
	int c = strcmp(a->file->rel, b->file->rel);

	if (c)
		return c;
	if (a->tok != b->tok)
		return a->tok < b->tok ? -1 : 1;
	return *(const size_t *)pa < *(const size_t *)pb ? -1 : 1;
}

/*
 * A kernel table of the 2010 layout has no constant column: a branch the
 * compiler folded (unlikely(sched_info_on()), where sched_info_on()
 * returns 1) reads as 0 correct and all incorrect, which is a flip.
 * Such a site whose condition calls a function of the tree that returns
 * a constant is not flipped.
 */
static char *maybe_folded(const struct fix_state *st, size_t i)
{
	const struct lp_place *pl = &st->places[i];
	const struct lp_judged *s = &st->in.sites.v[i];
	size_t from, to;
	const char *where;
	char *fn, *why = NULL;

	if ((st->in.sites.origin != LP_ORIGIN_KERNEL &&
	     st->in.sites.origin != LP_ORIGIN_KERNEL_ALL) ||
	    s->j.total.correct || s->j.total.constant || pl->macro)
		return NULL;
	if (lp_place_condition(pl, &from, &to))
		return NULL;
	fn = lp_condition_call(&pl->file->lx, from, to);
	if (fn && (where = lp_tree_constant_function(st->tree, fn)))
		why = lp_xstrfmt("its condition calls %s(), which returns a "
				 "constant in '%s': the branch may have been "
				 "folded, and the table has no constant "
				 "column; not flipping it", fn, where);
	free(fn);
	return why;
}

/* A kernel table's flip of a line that a commit flipped since. */
static char *flipped_since(const struct fix_state *st, size_t i)
{
	const struct lp_place *pl = &st->places[i];
	char *by, *why;

	if (st->in.sites.v[i].j.verdict != LP_VERDICT_FLIP ||
	    st->in.sites.v[i].expect != LP_EXPECT_UNKNOWN)
		return NULL;
	by = lp_history_flipped(st->tree, pl->file,
				pl->file->lx.tok[pl->tok].line,
				pl->hint->name,
				lp_flip_partner(st->tree, pl->hint));
	if (!by)
		return NULL;
	why = lp_xstrfmt("%s flipped it since; the table does not say which "
			 "way the profiled code had it, so it is not flipped "
			 "back", by);
	free(by);
	return why;
}

/*
 * Why a site that the profile says to change must be left alone: a
 * commit that quotes its row changed it already, the tree's annotation
 * points the other way (someone flipped it since), or the history says
 * its line changed since the profiled revision.
 */
static char *unsafe(const struct fix_state *st, size_t i)
{
	const struct lp_place *pl = &st->places[i];
	const struct lp_judged *s = &st->in.sites.v[i];
	char *why;

	if (!lp_verdict_changes(s->j.verdict))
		return NULL;
	if (pl->quoted)
		return lp_xstrfmt("already changed by %s, whose message "
				  "quotes this row; the profile is older "
				  "than the tree", pl->quoted);
	if (!pl->placed)
		return NULL;
	if (pl->opposite)
		return lp_xstrfmt("the %s() at '%s':%u points the other way "
				  "from the profile's; it was flipped since",
				  pl->hint->name, pl->file->rel,
				  pl->file->lx.tok[pl->tok].line);
	if (pl->changed && s->j.verdict == LP_VERDICT_FLIP)
		return lp_xstrfmt("%s; not flipping it", pl->changed);
	if (s->j.verdict == LP_VERDICT_FLIP && (why = maybe_folded(st, i)))
		return why;
	if (s->j.verdict == LP_VERDICT_FLIP)
		return flipped_since(st, i);
	return NULL;
}


/* Hints left as they are because they follow a setting, said once. */
static void note_settings(const struct lp_judged_list *J)
{
	size_t i, n = 0;

	for (i = 0; i < J->nr; i++)
		n += J->v[i].j.verdict == LP_VERDICT_SETTING;
	if (n)
		lp_note("%zu hint%s went one way all through each process "
			"and may follow a setting of the process, not the "
			"data (check says which); left as %s (--settings to "
			"change %s)", n, n == 1 ? "" : "s",
			n == 1 ? "it is" : "they are", n == 1 ? "it" : "them");
}

/*
 * --settings: a hint that followed a setting gets the remove or flip its
 * counts alone give; setting_of stays, so that its patch says why.
 */
static void take_settings(struct lp_judged_list *J)
{
	size_t i;

	for (i = 0; i < J->nr; i++)
		if (J->v[i].j.verdict == LP_VERDICT_SETTING)
			J->v[i].j.verdict = J->v[i].j.setting_of;
}

/*
 * Groups the placed sites by annotation and decides each once: any site
 * that says "fine" keeps it (a macro right at one call and wrong at
 * another stays as it is), a flip needs every site to flip, and a mix
 * of flip and remove removes, as the policy does across profiles.
 */
static void decide(struct fix_state *st)
{
	const struct lp_judged_list *J = &st->in.sites;
	size_t *order = lp_xcalloc(J->nr + 1, sizeof(size_t));
	size_t n = 0, i, k;

	for (i = 0; i < J->nr; i++) {
		char *why = unsafe(st, i);

		if (why) {
			refuse_site(st, i, why);
			free(why);
		} else if (st->places[i].placed) {
			order[n++] = i;
		} else if (lp_verdict_changes(J->v[i].j.verdict)) {
			refuse_site(st, i, st->places[i].reason ?
				    st->places[i].reason : "not found");
		}
	}
	if (n > 1)
		qsort_r(order, n, sizeof(size_t), cmp_place, st->places);
	for (i = 0; i < n; i = k) {
		const struct lp_place *pl = &st->places[order[i]];
		size_t fine = 0, flip = 0, change = 0, m;
		struct target *t;

		for (k = i; k < n && st->places[order[k]].file == pl->file &&
		     st->places[order[k]].tok == pl->tok; k++) {
			enum lp_verdict v = J->v[order[k]].j.verdict;

			fine += v == LP_VERDICT_FINE;
			flip += v == LP_VERDICT_FLIP;
			change += lp_verdict_changes(v);
		}
		if (!change)
			continue;
		if (fine) {
			char *why = lp_xstrfmt(
				"the %s()%s%s is right at %zu of its %zu "
				"profiled uses", pl->hint->name,
				pl->macro ? " in macro " : "",
				pl->macro ? pl->macro : "", fine, k - i);

			for (m = i; m < k; m++) {
				enum lp_verdict v = J->v[order[m]].j.verdict;

				if (lp_verdict_changes(v))
					refuse_site(st, order[m], why);
			}
			free(why);
			continue;
		}
		st->t = lp_xrealloc(st->t, (st->nt + 1) * sizeof(*st->t));
		t = &st->t[st->nt++];
		memset(t, 0, sizeof(*t));
		t->file = pl->file;
		t->tok = pl->tok;
		t->pl = pl;
		t->verdict = flip == change ? LP_VERDICT_FLIP
					    : LP_VERDICT_REMOVE;
		for (m = i; m < k; m++) {
			if (!lp_verdict_changes(J->v[order[m]].j.verdict))
				continue;
			t->sites = lp_xrealloc(t->sites, (t->nsites + 1) *
					       sizeof(size_t));
			t->sites[t->nsites++] = order[m];
		}
	}
	free(order);
}

/* Makes each target's edits; drops those that cannot be made. */
static void make_edits(struct fix_state *st)
{
	size_t i, k, kept = 0;

	for (i = 0; i < st->nt; i++) {
		struct target *t = &st->t[i];
		enum lp_fix_action act = t->verdict == LP_VERDICT_FLIP ?
			LP_FIX_FLIP : LP_FIX_REMOVE;
		char *why = NULL;
		int ok;

		t->partner = lp_flip_partner(st->tree, t->pl->hint);
		ok = !lp_rewrite(&t->file->lx, t->tok, t->pl->hint, act,
				 t->partner, &t->edits, &why);
		for (k = 0; ok && k < kept; k++)
			if (st->t[k].file == t->file &&
			    lp_edits_overlap(&st->t[k].edits, &t->edits)) {
				why = lp_xstrdup("its edit overlaps another");
				ok = 0;
			}
		if (!ok) {
			for (k = 0; k < t->nsites; k++)
				refuse_site(st, t->sites[k], why);
			free(why);
			lp_edits_release(&t->edits);
			free(t->sites);
			continue;
		}
		st->t[kept++] = *t;
	}
	st->nt = kept;
}

/*-************************************
 *  Messages
 **************************************/

static const char *where_name(const struct fix_state *st,
			      const struct target *t, char *buf, size_t size)
{
	const struct lp_judged *s = &st->in.sites.v[t->sites[0]];

	if (t->pl->macro)
		snprintf(buf, size, "%s", t->pl->macro);
	else if (s->func && *s->func)
		snprintf(buf, size, "%s()", s->func);
	else
		snprintf(buf, size, "%s", lp_path_base(t->file->rel));
	return buf;
}

static int cmp_row(const void *a, const void *b)
{
	return lp_kernel_cmp(*(const struct lp_prof_site *const *)a,
			     *(const struct lp_prof_site *const *)b);
}

/*
 * How a message names profile @prof: its --label, or its file's base
 * name (a path of the machine that ran fix says nothing to a reader).
 */
static const char *profile_label(const struct fix_state *st, size_t prof)
{
	if (prof < st->nlabels)
		return st->labels[prof];
	return st->in.profs[prof].name ? lp_path_base(st->in.profs[prof].name)
				       : "a profile";
}


/* The rows of @t's sites from profile @prof, as the kernel prints them. */
static void put_rows(FILE *out, const struct fix_state *st,
		     const struct target *t, size_t prof)
{
	const struct lp_prof_site **rows = NULL;
	size_t n = 0, i, k;
	char line[LP_KERNEL_ROW_MAX];

	for (i = 0; i < t->nsites; i++) {
		const struct lp_judged *s = &st->in.sites.v[t->sites[i]];

		for (k = 0; k < s->nrows; k++) {
			if (s->rows[k].prof != prof)
				continue;
			rows = lp_xrealloc(rows, (n + 1) * sizeof(*rows));
			rows[n++] = s->rows[k].row;
		}
	}
	if (!n)
		return;
	qsort(rows, n, sizeof(*rows), cmp_row);
	if (st->in.n > 1)
		fprintf(out, "In %s:\n\n", profile_label(st, prof));
	fputs(LP_KERNEL_HEADER, out);
	for (i = 0; i < n; i++) {
		lp_kernel_row(line, rows[i]);
		fputs(line, out);
	}
	fputc('\n', out);
	free(rows);
}

static void put_paragraph(FILE *out, char *text)
{
	char *w = lp_wrap(text, 72);

	fprintf(out, "%s\n\n", w);
	free(w);
	free(text);
}

/*
 * A hint changed under --settings says so: it went one way all through
 * every process profiled, which is how they were run, not the data.
 */
static void put_setting(FILE *out, const struct fix_state *st,
			const struct target *t, const char *name)
{
	const struct lp_judgement *j = NULL;
	char *also;
	size_t i;

	for (i = 0; i < t->nsites && !j; i++)
		if (st->in.sites.v[t->sites[i]].j.setting_of)
			j = &st->in.sites.v[t->sites[i]].j;
	if (!j)
		return;
	also = j->procs_right ? lp_xstrfmt(" (and with it in %llu)",
			(unsigned long long)j->procs_right) : lp_xstrdup("");
	put_paragraph(out, lp_xstrfmt(
		"The %s() went against the hint all through each of %llu "
		"processes profiled%s, and never both ways in one: it may "
		"follow a setting of the process (a flag, a mode) rather "
		"than the data. It is changed because fix was asked to "
		"(--settings); the change is right only if the program's "
		"users run it as these processes ran.", name,
		(unsigned long long)j->procs_wrong, also));
	free(also);
}

static void put_target(FILE *out, const struct fix_state *st,
		       const struct target *t)
{
	struct lp_judgement sum;
	struct lp_counts *per = lp_xcalloc(st->in.n, sizeof(*per));
	const struct lp_judgement *one = NULL;
	const char *name = t->pl->hint->name, *unit;
	char where[256], *how, *call;
	size_t i, k;
	long pct;
	int flip = t->verdict == LP_VERDICT_FLIP;

	for (i = 0; i < t->nsites; i++) {
		const struct lp_judged *s = &st->in.sites.v[t->sites[i]];

		for (k = 0; k < st->in.n; k++) {
			per[k].correct += s->per[k].correct;
			per[k].incorrect += s->per[k].incorrect;
			per[k].constant += s->per[k].constant;
			/* the uses of a macro were voted on by one profile */
			if (s->per[k].has_votes &&
			    s->per[k].votes_right + s->per[k].votes_wrong >
			    per[k].votes_right + per[k].votes_wrong) {
				per[k].votes_right = s->per[k].votes_right;
				per[k].votes_wrong = s->per[k].votes_wrong;
				per[k].has_votes = 1;
			}
		}
		one = &s->j;
	}
	lp_policy_judge(&st->pol, per, st->in.n, LP_EXPECT_UNKNOWN, &sum);
	pct = lp_kernel_percent(sum.total.correct, sum.total.incorrect);
	unit = one->procs_known ? "processes" : "profiles";
	if (flip)
		how = lp_xstrdup("backwards");
	else if (pct < (long)st->pol.remove_at && sum.profiles_wrong)
		how = lp_xstrfmt("right on the whole but wrong in %llu of the "
				 "%llu %s that ran it often enough",
				 (unsigned long long)sum.profiles_wrong,
				 (unsigned long long)(sum.profiles_right +
						      sum.profiles_wrong),
				 unit);
	else if (pct > 50)
		how = lp_xstrdup("incorrect most of the time");
	else
		how = lp_xstrfmt("incorrect %ld%% of the time", pct);
	/* the hint as the source spells it, condition and all */
	call = lp_place_call_text(t->pl);
	put_paragraph(out, lp_xstrfmt(
		"The %s in %s (%s:%u) was %s. The annotated branch "
		"profile showed:", call ? call : name,
		where_name(st, t, where, sizeof(where)),
		t->file->rel, t->file->lx.tok[t->tok].line, how));
	free(how);
	free(call);
	for (k = 0; k < st->in.n; k++)
		put_rows(out, st, t, k);
	put_paragraph(out, lp_xstrfmt(
		"The %s() was correct a total of %llu times and incorrect "
		"%llu times, with %ld%% being incorrect.", name,
		(unsigned long long)sum.total.correct,
		(unsigned long long)sum.total.incorrect,
		pct));
	if (t->pl->macro)
		put_paragraph(out, lp_xstrfmt(
			"The %s() is in the body of the macro %s; every "
			"profiled use of the macro agrees.", name,
			t->pl->macro));
	put_setting(out, st, t, name);
	if (one->one_way_few)
		put_paragraph(out, lp_xstrfmt(
			"It went against the hint all through each of the "
			"%llu process%s that ran it, too few to tell a setting "
			"of the process (a flag, a mode) from the data: "
			"profile more runs of the program to be sure.",
			(unsigned long long)one->procs_wrong,
			one->procs_wrong == 1 ? "" : "es"));
	if (flip)
		put_paragraph(out, lp_xstrfmt(
			"The condition goes the other way almost every time, "
			"so change it to %s().", t->partner ? t->partner
							     : "the opposite"));
	else if (sum.disagree)
		put_paragraph(out, lp_xstrfmt(
			"It was right in %llu of the %s and wrong in %llu, so "
			"remove it rather than flip it: no workload should "
			"pay for another.",
			(unsigned long long)sum.profiles_right, unit,
			(unsigned long long)sum.profiles_wrong));
	else
		put_paragraph(out, lp_xstrfmt(
			"With this much of an error, it is best to simply "
			"remove the %s() and let the compiler and the branch "
			"predictor figure it out.", name));
	free(per);
}

/* "a()", "a() and b()", "a(), b() and 2 more" */
static char *list_words(char **w, size_t n)
{
	if (n == 1)
		return lp_xstrdup(w[0]);
	if (n == 2)
		return lp_xstrfmt("%s and %s", w[0], w[1]);
	return lp_xstrfmt("%s, %s and %zu more", w[0], w[1], n - 2);
}

static void add_word(char ***w, size_t *n, const char *s)
{
	size_t i;

	for (i = 0; i < *n; i++)
		if (!strcmp((*w)[i], s))
			return;
	*w = lp_xrealloc(*w, (*n + 1) * sizeof(**w));
	(*w)[(*n)++] = lp_xstrdup(s);
}

static char *subject(const struct fix_state *st, struct target **t,
		     size_t n, const char *prefix)
{
	char **wheres = NULL, **names = NULL, where[256], *a, *b, *s;
	size_t nw = 0, nn = 0, flips = 0, i;

	for (i = 0; i < n; i++) {
		char *spelled = lp_xstrfmt("%s()", t[i]->pl->hint->name);
		size_t k;

		add_word(&wheres, &nw, where_name(st, t[i], where,
						  sizeof(where)));
		/* one body compiled as several functions names them all */
		for (k = 1; !t[i]->pl->macro && k < t[i]->nsites; k++) {
			const char *f = st->in.sites.v[t[i]->sites[k]].func;

			if (f && *f) {
				snprintf(where, sizeof(where), "%s()", f);
				add_word(&wheres, &nw, where);
			}
		}
		add_word(&names, &nn, spelled);
		free(spelled);
		flips += t[i]->verdict == LP_VERDICT_FLIP;
	}
	a = list_words(names, nn);
	b = list_words(wheres, nw);
	if (flips == 1 && n == 1)
		s = lp_xstrfmt("%s: Change %s from %s to %s", prefix, b,
			       t[0]->pl->hint->name, t[0]->partner ?
			       t[0]->partner : "the opposite");
	else if (flips == n)
		s = lp_xstrfmt("%s: Flip %s in %s", prefix, a, b);
	else if (flips)
		s = lp_xstrfmt("%s: Remove or flip %s in %s", prefix, a, b);
	else
		s = lp_xstrfmt("%s: Remove %s%s from %s", prefix, a,
			       n > 1 && nn == 1 ? "s" : "", b);
	for (i = 0; i < nw; i++)
		free(wheres[i]);
	for (i = 0; i < nn; i++)
		free(names[i]);
	free(wheres);
	free(names);
	free(a);
	free(b);
	return s;
}

static char *trim_line(char *s)
{
	size_t n = s ? strlen(s) : 0;

	while (n && (s[n - 1] == '\n' || s[n - 1] == '\r'))
		s[--n] = '\0';
	if (s && !n) {
		free(s);
		return NULL;
	}
	return s;
}

static char *author(const char *src, int git)
{
	const char *en = getenv("GIT_AUTHOR_NAME");
	const char *ee = getenv("GIT_AUTHOR_EMAIL");
	static const char *const qn[] = { "config", "user.name", NULL };
	static const char *const qe[] = { "config", "user.email", NULL };
	char *name, *email, *s;

	if (en && *en && ee && *ee)
		return lp_xstrfmt("%s <%s>", en, ee);
	if (!git)
		return lp_xstrdup("likelyprof <likelyprof@localhost>");
	name = trim_line(lp_git_output(src, qn));
	email = trim_line(lp_git_output(src, qe));
	s = name && email ? lp_xstrfmt("%s <%s>", name, email)
			  : lp_xstrdup("likelyprof <likelyprof@localhost>");
	free(name);
	free(email);
	return s;
}

static int cmp_target(const void *pa, const void *pb)
{
	const struct target *a = pa, *b = pb;
	int c = strcmp(a->subsystem, b->subsystem);

	if (c)
		return c;
	if ((c = strcmp(a->file->rel, b->file->rel)))
		return c;
	return (a->tok > b->tok) - (a->tok < b->tok);
}

static int is_git_tree(const char *src)
{
	static const char *const q[] = {
		"rev-parse", "--is-inside-work-tree", NULL
	};
	char *out = lp_git_output(src, q);
	int yes = out && !strncmp(out, "true", 4);

	free(out);
	return yes;
}

static long long patch_date(void)
{
	const char *e = getenv("SOURCE_DATE_EPOCH");

	if (e && *e)
		return strtoll(e, NULL, 10);
	return (long long)time(NULL);
}

/* What @t's condition tests: see lp_place_condition(). */
static char *tested(const struct target *t)
{
	size_t from, to;

	if (lp_place_condition(t->pl, &from, &to))
		return NULL;
	return lp_tok_text(&t->file->lx, from, to);
}

static int cmp_patch(const void *pa, const void *pb)
{
	const struct target *a = pa, *b = pb;

	if (a->patch != b->patch)
		return a->patch < b->patch ? -1 : 1;
	return cmp_target(pa, pb);
}

/*
 * Which patch each target goes in, the targets sorted by subsystem:
 * --split subsystem, one per subsystem; by default one per function,
 * but functions of one file that test the same expression share one
 * (seed 003's two WORKER_NOT_RUNNING flips).
 */
static void assign_patches(struct fix_state *st)
{
	char **key = lp_xcalloc(st->nt + 1, sizeof(char *));
	char a[256], b[256];
	size_t i, k, next = 0;

	for (i = 0; i < st->nt; i++)
		key[i] = tested(&st->t[i]);
	for (i = 0; i < st->nt; i++) {
		struct target *t = &st->t[i];

		for (k = 0; k < i; k++) {
			struct target *o = &st->t[k];

			if (st->split_subsystem ?
			    !strcmp(o->subsystem, t->subsystem) :
			    o->file == t->file &&
			    (!strcmp(where_name(st, o, a, sizeof(a)),
				     where_name(st, t, b, sizeof(b))) ||
			     (key[k] && key[i] && !strcmp(key[k], key[i]))))
				break;
		}
		t->patch = k < i ? st->t[k].patch : next++;
	}
	for (i = 0; i < st->nt; i++)
		free(key[i]);
	free(key);
	if (st->nt > 1)
		qsort(st->t, st->nt, sizeof(*st->t), cmp_patch);
}

/* The patches, each with its files and their edits in path order. */
static int print_series(struct fix_state *st, const char *src)
{
	struct lp_patch *p = NULL;
	size_t np = 0, i, k, m;
	int git = is_git_tree(src), ret;
	char *who = author(src, git);

	for (i = 0; i < st->nt; i++) {
		for (k = 0; k < i; k++)
			if (st->t[k].file == st->t[i].file)
				break;
		st->t[i].subsystem = k < i ?
			lp_xstrdup(st->t[k].subsystem) :
			lp_subsystem(src, st->t[i].file->rel, git);
	}
	if (st->nt > 1)
		qsort(st->t, st->nt, sizeof(*st->t), cmp_target);
	assign_patches(st);
	for (i = 0; i < st->nt; i = k) {
		struct target **group = NULL;
		struct lp_patch *q;
		char *body = NULL;
		size_t blen = 0;
		FILE *out;

		for (k = i; k < st->nt && st->t[k].patch == st->t[i].patch;
		     k++) {
			group = lp_xrealloc(group, (k - i + 1) *
					    sizeof(*group));
			group[k - i] = &st->t[k];
		}
		p = lp_xrealloc(p, (np + 1) * sizeof(*p));
		q = &p[np++];
		memset(q, 0, sizeof(*q));
		q->subject = subject(st, group, k - i, st->t[i].subsystem);
		out = open_memstream(&body, &blen);
		if (!out)
			lp_die("out of memory");
		for (m = i; m < k; m++)
			put_target(out, st, &st->t[m]);
		fprintf(out, "Found by likelyprof fix (--flip-at %g "
			"--remove-at %g --min-hits %llu%s%s).\n",
			st->pol.flip_at, st->pol.remove_at,
			(unsigned long long)st->pol.min_hits,
			st->pol.no_flip ? " --no-flip" : "",
			st->settings ? " --settings" : "");
		fclose(out);
		q->body = body;
		for (m = i; m < k; m++) {
			struct lp_patch_file *f;

			if (q->nfiles &&
			    !strcmp(q->files[q->nfiles - 1].path,
				    st->t[m].file->rel)) {
				lp_edits_take(q->files[q->nfiles - 1].edits,
					      &st->t[m].edits);
				continue;
			}
			q->files = lp_xrealloc(q->files, (q->nfiles + 1) *
					       sizeof(*q->files));
			f = &q->files[q->nfiles++];
			f->path = st->t[m].file->rel;
			f->buf = st->t[m].file->buf;
			f->len = st->t[m].file->len;
			f->edits = &st->t[m].edits;
		}
		free(group);
	}
	ret = lp_write_series(stdout, p, np, who, patch_date());
	for (i = 0; i < np; i++) {
		free(p[i].subject);
		free(p[i].body);
		free(p[i].files);
	}
	free(p);
	free(who);
	return ret;
}

static int cmp_target_file(const void *pa, const void *pb)
{
	const struct target *a = pa, *b = pb;
	int c = strcmp(a->file->rel, b->file->rel);

	return c ? c : (a->tok > b->tok) - (a->tok < b->tok);
}

/* --apply: every file's edits at once, by fix/apply.c. */
static int apply_all(struct fix_state *st)
{
	struct lp_apply_file *p = lp_xcalloc(st->nt + 1, sizeof(*p));
	size_t n = 0, i, k;
	int ret;

	if (st->nt > 1)
		qsort(st->t, st->nt, sizeof(*st->t), cmp_target_file);
	for (i = 0; i < st->nt; i = k) {
		struct lp_edits all = LP_EDITS_INIT;

		for (k = i; k < st->nt && st->t[k].file == st->t[i].file; k++) {
			struct lp_edits copy = LP_EDITS_INIT;
			size_t e;

			/* a copy: the targets keep theirs for the report */
			copy.v = lp_xcalloc(st->t[k].edits.nr + 1,
					    sizeof(*copy.v));
			for (e = 0; e < st->t[k].edits.nr; e++) {
				copy.v[e] = st->t[k].edits.v[e];
				copy.v[e].text = lp_xstrdup(
					st->t[k].edits.v[e].text);
			}
			copy.nr = copy.alloc = st->t[k].edits.nr;
			lp_edits_take(&all, &copy);
		}
		p[n].file = st->t[i].file;
		p[n].text = lp_edits_apply(&all, p[n].file->buf,
					   p[n].file->len, &p[n].len);
		lp_edits_release(&all);
		n++;
	}
	ret = lp_apply_edits(lp_tree_root(st->tree), p, n);
	if (!ret)
		for (i = 0; i < st->nt; i++) {
			const struct target *t = &st->t[i];
			char where[256];
			char *path = lp_tree_path(st->tree, t->file);

			printf("%s:%u: %s %s() in %s\n", path,
			       t->file->lx.tok[t->tok].line,
			       t->verdict == LP_VERDICT_FLIP ? "flipped"
							      : "removed",
			       t->pl->hint->name,
			       where_name(st, t, where, sizeof(where)));
			free(path);
		}
	for (i = 0; i < n; i++)
		free(p[i].text);
	free(p);
	return ret;
}

/* --explain: what placed each site that the profile says to change. */
static void explain_places(const struct fix_state *st)
{
	static const char *const how[] = {
		"", "its line", "the order of its function's annotations",
		"one shift of its function's lines", "its condition's text",
		"the git history", "the shift of a site nearby",
		"the nearest annotation of its function",
	};
	size_t i;

	for (i = 0; i < st->in.sites.nr; i++) {
		const struct lp_judged *s = &st->in.sites.v[i];
		const struct lp_place *pl = &st->places[i];

		if (!lp_verdict_changes(s->j.verdict) || !pl->placed)
			continue;
		lp_note("%s:%ld: %s%splaced at '%s':%u by %s", s->file, s->line,
			s->func && *s->func ? s->func : "",
			s->func && *s->func ? "(): " : "", pl->call_file->rel,
			pl->line, how[pl->how]);
	}
}

int cmd_fix(int argc, const char **argv)
{
	struct fix_state st;
	struct lp_filter filt = LP_FILTER_INIT;
	const char **files = lp_xcalloc((size_t)argc, sizeof(char *));
	const char *src = NULL, *v;
	size_t nfiles = 0, i;
	int do_apply = 0, explain = 0, ret = LP_EXIT_OK, k;
	char *err = NULL;

	if (lp_wants_help(argc, argv)) {
		fputs(fix_usage, stdout);
		free(files);
		return LP_EXIT_OK;
	}
	memset(&st, 0, sizeof(st));
	st.pol = (struct lp_policy)LP_POLICY_INIT;
	for (k = 1; k < argc; k++) {
		if (lp_policy_option(&st.pol, argc, argv, &k, fix_usage)) {
		} else if ((v = lp_option_value(argc, argv, &k, "--src",
						fix_usage))) {
			src = v;
		} else if (!strcmp(argv[k], "--apply")) {
			do_apply = 1;
		} else if (!strcmp(argv[k], "--explain")) {
			explain = 1;
		} else if (!strcmp(argv[k], "--settings")) {
			st.settings = 1;
		} else if (lp_filter_option(&filt, argc, argv, &k, fix_usage,
					    1)) {
		} else if (lp_progress_option(argv[k])) {
		} else if ((v = lp_option_value(argc, argv, &k, "--split",
						fix_usage))) {
			if (strcmp(v, "function") && strcmp(v, "subsystem"))
				lp_usage_error(fix_usage, "--split takes "
					       "function or subsystem, not "
					       "'%s'", v);
			st.split_subsystem = !strcmp(v, "subsystem");
		} else if ((v = lp_option_value(argc, argv, &k, "--label",
						fix_usage))) {
			st.labels = lp_xrealloc(st.labels, (st.nlabels + 1) *
						sizeof(char *));
			st.labels[st.nlabels++] = v;
		} else if (!strcmp(argv[k], "--")) {
			while (++k < argc)
				files[nfiles++] = argv[k];
		} else if (argv[k][0] == '-' && argv[k][1]) {
			lp_usage_error(fix_usage, "unknown option '%s'",
				       argv[k]);
		} else {
			files[nfiles++] = argv[k];
		}
	}
	if (!src)
		lp_usage_error(fix_usage, "--src DIR is required");
	/* the whole filesystem is nobody's source tree */
	if (src[strspn(src, "/")] == '\0')
		lp_usage_error(fix_usage, "--src '/' is not a source tree");
	if (!nfiles)
		lp_usage_error(fix_usage, "no profile given");
	if (lp_inputs_read(&st.in, &st.pol, files, nfiles)) {
		ret = LP_EXIT_ERROR;
		goto out;
	}
	lp_filter_judged(&st.in.sites, &filt);
	if (st.settings)
		take_settings(&st.in.sites);
	else
		note_settings(&st.in.sites);
	lp_progress(0, "placing %zu site%s in '%s'", st.in.sites.nr,
		    lp_plural(st.in.sites.nr), src);
	st.tree = lp_tree_open(src, &err);
	if (!st.tree) {
		lp_error("%s", err);
		free(err);
		ret = LP_EXIT_ERROR;
		goto out;
	}
	st.places = lp_xcalloc(st.in.sites.nr + 1, sizeof(*st.places));
	lp_tree_place(st.tree, &st.in.sites, st.places);
	lp_progress_end();
	if (explain)
		explain_places(&st);
	decide(&st);
	make_edits(&st);
	if (!st.nt)
		lp_note("no annotation to change%s",
			st.refused ? " that could be found" : "");
	else if (do_apply ? apply_all(&st) : print_series(&st, src))
		ret = LP_EXIT_ERROR;
out:
	for (i = 0; i < st.nt; i++) {
		lp_edits_release(&st.t[i].edits);
		free(st.t[i].sites);
		free(st.t[i].subsystem);
	}
	free(st.t);
	free(st.labels);
	if (st.places)
		lp_place_release(st.places, st.in.sites.nr);
	free(st.places);
	lp_tree_free(st.tree);
	lp_inputs_release(&st.in);
	lp_filter_release(&filt);
	free(files);
	return ret;
}
