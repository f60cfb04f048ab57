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

#include "cc/hintmacro.h"
#include "builtin.h"
#include "write-file.h"
#include "filter.h"
#include "fix/apply.h"
#include "fix/fix.h"
#include "fix/inputs.h"
#include "fix/quote.h"
#include "fold.h"
#include "fix/locate.h"
#include "fix/rewrite.h"
#include "format.h"
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
	"   --hint-macro NAME[=1|0]\n"
	"                     a call of NAME is a hint, as likelyprof cc\n"
	"                     --hint-macro counted it (likely, unlikely,\n"
	"                     LIKELY and UNLIKELY are known already)\n"
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


static void refuse_site(struct lp_fix_run *st, size_t i, const char *why)
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
static char *maybe_folded(const struct lp_fix_run *st, size_t i)
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
static char *flipped_since(const struct lp_fix_run *st, size_t i)
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
static char *unsafe(const struct lp_fix_run *st, size_t i)
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
		return lp_xstrfmt("the %s%s at '%s':%u points the other way "
				  "from the profile's; it was flipped since",
				  pl->hint->name,
				  lp_call_parens(pl->hint->name), pl->file->rel,
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
static void decide(struct lp_fix_run *st)
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
		size_t fine = 0, flip = 0, restate = 0, change = 0, m;
		unsigned int prob = 0;
		struct lp_fix_target *t;

		for (k = i; k < n && st->places[order[k]].file == pl->file &&
		     st->places[order[k]].tok == pl->tok; k++) {
			enum lp_verdict v = J->v[order[k]].j.verdict;

			fine += v == LP_VERDICT_FINE;
			flip += v == LP_VERDICT_FLIP;
			change += lp_verdict_changes(v);
			if (v != LP_VERDICT_RESTATE)
				continue;
			/* one number for every use, or none is right */
			m = lp_prob_restated(J->v[order[k]].j.measured_prob);
			restate += !prob || m == prob;
			prob = (unsigned int)m;
		}
		if (!change)
			continue;
		if (fine) {
			char *why = lp_xstrfmt(
				"the %s%s%s%s is right at %zu of its %zu "
				"profiled uses", pl->hint->name,
				lp_call_parens(pl->hint->name),
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
		t->verdict = flip == change ? LP_VERDICT_FLIP :
			     restate == change ? LP_VERDICT_RESTATE :
			     LP_VERDICT_REMOVE;
		t->prob = prob;
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
static void make_edits(struct lp_fix_run *st)
{
	size_t i, k, kept = 0;

	for (i = 0; i < st->nt; i++) {
		struct lp_fix_target *t = &st->t[i];
		enum lp_fix_action act = t->verdict == LP_VERDICT_FLIP ?
			LP_FIX_FLIP : LP_FIX_REMOVE;
		char *why = NULL, prob[LP_PROB_MAX];
		int ok;

		t->partner = lp_flip_partner(st->tree, t->pl->hint);
		if (t->verdict == LP_VERDICT_RESTATE)
			ok = !lp_rewrite_prob(&t->file->lx, t->tok,
					      t->pl->hint,
					      lp_prob_text(prob, t->prob),
					      &t->edits, &why);
		else if (t->pl->hint->attribute)
			ok = !lp_rewrite_attr(&t->file->lx, &t->pl->attr, act,
					      &t->edits, &why);
		else
			ok = !lp_rewrite(&t->file->lx, t->tok, t->pl->hint,
					 act, t->partner, &t->edits, &why);
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

static int cmp_target_file(const void *pa, const void *pb)
{
	const struct lp_fix_target *a = pa, *b = pb;
	int c = strcmp(a->file->rel, b->file->rel);

	return c ? c : (a->tok > b->tok) - (a->tok < b->tok);
}

/* --apply: every file's edits at once, by fix/apply.c. */
static int apply_all(struct lp_fix_run *st)
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
			const struct lp_fix_target *t = &st->t[i];
			char where[256];
			char *path = lp_tree_path(st->tree, t->file);

			printf("%s:%u: %s %s%s in %s\n", path,
			       t->file->lx.tok[t->tok].line,
			       t->verdict == LP_VERDICT_FLIP ? "flipped" :
			       t->verdict == LP_VERDICT_RESTATE ? "restated"
								 : "removed",
			       t->pl->hint->name,
			       lp_call_parens(t->pl->hint->name),
			       lp_fix_where_name(st, t, where, sizeof(where)));
			free(path);
		}
	for (i = 0; i < n; i++)
		free(p[i].text);
	free(p);
	return ret;
}

/* --explain: what placed each site that the profile says to change. */
static void explain_places(const struct lp_fix_run *st)
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
	struct lp_fix_run st;
	struct lp_filter filt = LP_FILTER_INIT;
	struct lp_hint_macros macros = LP_HINT_MACROS_INIT;
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
		} else if (lp_hint_macro_option(&macros, argc, argv, &k,
						fix_usage)) {
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
	st.tree = lp_tree_open(src, &macros, &err);
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
	else if (do_apply ? apply_all(&st) : lp_fix_print_series(&st, src))
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
	lp_hint_macros_release(&macros);
	free(files);
	return ret;
}
