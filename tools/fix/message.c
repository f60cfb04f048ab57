/*
 * message.c - the patch series of `likelyprof fix`: subjects, authors,
 * dates, and messages that quote the profiles' rows and say why, in the
 * words of the 2010 series; fix/series.c writes the mbox around them
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "fix/fix.h"
#include "fix/quote.h"
#include "fix/series.h"
#include "fold.h"
#include "format.h"
#include "ktable.h"
#include "usage.h"
#include "verdict.h"

/*-************************************
 *  Messages
 **************************************/

const char *lp_fix_where_name(const struct lp_fix_run *st,
			      const struct lp_fix_target *t, char *buf,
			      size_t size)
{
	const struct lp_judged *s = &st->in.sites.v[t->sites[0]];

	if (t->pl->macro)
		snprintf(buf, size, "%s", t->pl->macro);
	else if (s->func && !strcmp(s->func, "operator()") && t->pl->fn &&
		 strcmp(t->pl->fn->name, "operator()"))
		/* a lambda's body is compiled as a function of its own */
		snprintf(buf, size, "the lambda in %s()", t->pl->fn->name);
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
 * How a message names profile @prof: its --label, the workload its own
 * labels name (run --label), or its file's base name (a path of the
 * machine that ran fix says nothing to a reader).
 * @return : a malloc'd string.
 */
static char *profile_label(const struct lp_fix_run *st, size_t prof)
{
	char *workload;

	if (prof < st->nlabels)
		return lp_xstrdup(st->labels[prof]);
	if ((workload = lp_workload_text(&st->in.profs[prof], 1)))
		return workload;
	return lp_xstrdup(st->in.profs[prof].name ?
			  lp_path_base(st->in.profs[prof].name) : "a profile");
}


/* The rows of @t's sites from profile @prof, as the kernel prints them. */
static void put_rows(FILE *out, const struct lp_fix_run *st,
		     const struct lp_fix_target *t, size_t prof)
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
	if (st->in.n > 1) {
		char *label = profile_label(st, prof);

		fprintf(out, "In %s:\n\n", label);
		free(label);
	}
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
static void put_setting(FILE *out, const struct lp_fix_run *st,
			const struct lp_fix_target *t, const char *name)
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
		"The %s%s went against the hint all through each of %llu "
		"processes profiled%s, and never both ways in one: it may "
		"follow a setting of the process (a flag, a mode) rather "
		"than the data. It is changed because fix was asked to "
		"(--settings); the change is right only if the program's "
		"users run it as these processes ran.", name,
		lp_call_parens(name),
		(unsigned long long)j->procs_wrong, also));
	free(also);
}

/* "0.9", as the profile and the source spell a stated probability */
static char *prob_text(unsigned int prob)
{
	char buf[LP_PROB_MAX];

	return lp_xstrdup(lp_prob_text(buf, prob));
}

/*
 * A hint that states a probability is judged by that number (policy.h,
 * lp_policy_judge_stated()), and its patch says so: what it stated,
 * what came, and the number it gets, or why it goes.
 */
static void put_stated(FILE *out, const struct lp_fix_run *st,
		       const struct lp_fix_target *t,
		       const struct lp_judgement *sum, const char *rests)
{
	const struct lp_judged *s = &st->in.sites.v[t->sites[0]];
	char where[256], *call = lp_place_call_text(t->pl);
	char *said = prob_text(s->prob);
	double came = sum->measured_prob ?
		(double)(sum->measured_prob - 1) / 1e4 : 0.0;
	const char *unit = s->j.procs_known ? "processes" : "profiles";
	size_t k;

	put_paragraph(out, lp_xstrfmt(
		"The %s in %s (%s:%u) states a probability of %s, but its "
		"value came %.0f%% of the time. The annotated branch "
		"profile%s%s%s showed:", call ? call : t->pl->hint->name,
		lp_fix_where_name(st, t, where, sizeof(where)),
		t->file->rel, t->file->lx.tok[t->tok].line, said, came,
		rests ? " (" : "", rests ? rests : "", rests ? ")" : ""));
	for (k = 0; k < st->in.n; k++)
		put_rows(out, st, t, k);
	if (t->verdict == LP_VERDICT_RESTATE) {
		char *to = prob_text(t->prob);

		put_paragraph(out, lp_xstrfmt(
			"Its value came in %.0f%% of %llu evaluations, so "
			"state %s, what was measured, for the compiler to "
			"weigh the branch by.", came,
			(unsigned long long)sum->evals, to));
		free(to);
	} else {
		put_paragraph(out, lp_xstrfmt(
			"It held the stated %s in %llu of the %s and not in "
			"%llu, so no one number is right: remove it rather "
			"than restate it, and no workload pays for another.",
			said, (unsigned long long)sum->profiles_right, unit,
			(unsigned long long)sum->profiles_wrong));
	}
	free(said);
	free(call);
}

/*
 * What a flipped hint saw: a label's attribute is about where the switch
 * goes (cases.c), not a condition.
 */
static const char *went_other_way(const struct lp_judged *s,
				  const struct lp_place *pl)
{
	if (!pl->hint->attribute || !pl->attr.label)
		return "The condition goes the other way";
	return s->expect == 1 ? "The switch goes elsewhere"
			      : "The switch goes to this label";
}

static void put_target(FILE *out, const struct lp_fix_run *st,
		       const struct lp_fix_target *t)
{
	struct lp_judgement sum;
	struct lp_counts *per = lp_xcalloc(st->in.n, sizeof(*per));
	const struct lp_judgement *one = NULL;
	const char *name = t->pl->hint->name, *unit;
	char where[256], *how, *call, *rests, *workload;
	size_t i, k;
	long pct;
	const char *parens = lp_call_parens(name);
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
	lp_policy_judge_stated(&st->pol, per, st->in.n, LP_EXPECT_UNKNOWN,
			       st->in.sites.v[t->sites[0]].prob, &sum);
	pct = lp_kernel_percent(sum.total.correct, sum.total.incorrect);
	unit = one->procs_known ? "processes" : "profiles";
	if (st->in.sites.v[t->sites[0]].prob) {
		workload = lp_workload_text(st->in.profs, st->in.n);
		rests = lp_rests_on(one, workload);
		put_stated(out, st, t, &sum, rests);
		put_setting(out, st, t, name);
		free(rests);
		free(workload);
		free(per);
		return;
	}
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
	workload = lp_workload_text(st->in.profs, st->in.n);
	rests = lp_rests_on(one, workload);
	put_paragraph(out, lp_xstrfmt(
		"The %s in %s (%s:%u) was %s. The annotated branch "
		"profile%s%s%s showed:", call ? call : name,
		lp_fix_where_name(st, t, where, sizeof(where)),
		t->file->rel, t->file->lx.tok[t->tok].line, how,
		rests ? " (" : "", rests ? rests : "", rests ? ")" : ""));
	free(rests);
	free(workload);
	free(how);
	free(call);
	for (k = 0; k < st->in.n; k++)
		put_rows(out, st, t, k);
	put_paragraph(out, lp_xstrfmt(
		"The %s%s was correct a total of %llu times and incorrect "
		"%llu times, with %ld%% being incorrect.", name, parens,
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
			"%s almost every time, so change it to %s%s.",
			went_other_way(&st->in.sites.v[t->sites[0]], t->pl),
			t->partner ? t->partner : "the opposite",
			t->partner ? lp_call_parens(t->partner) : "()"));
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
			"remove the %s%s and let the compiler and the branch "
			"predictor figure it out.", name, parens));
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

static char *subject(const struct lp_fix_run *st, struct lp_fix_target **t,
		     size_t n, const char *prefix)
{
	char **wheres = NULL, **names = NULL, where[256], *a, *b, *s;
	size_t nw = 0, nn = 0, flips = 0, restates = 0, i;

	for (i = 0; i < n; i++) {
		const char *h = t[i]->pl->hint->name;
		char *spelled = lp_xstrfmt("%s%s", h, lp_call_parens(h));
		size_t k;

		add_word(&wheres, &nw, lp_fix_where_name(st, t[i], where,
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
		restates += t[i]->verdict == LP_VERDICT_RESTATE;
	}
	a = list_words(names, nn);
	b = list_words(wheres, nw);
	if (restates == n)
		s = lp_xstrfmt("%s: Restate the probability of %s in %s",
			       prefix, a, b);
	else if (restates)
		s = lp_xstrfmt("%s: Change %s in %s", prefix, a, b);
	else if (flips == 1 && n == 1)
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
	const struct lp_fix_target *a = pa, *b = pb;
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

/*
 * What @t's condition tests: see lp_place_condition().  A case label's
 * site tests none of the source's expressions: its `case 1` is no
 * other switch's.
 */
static char *tested(const struct lp_fix_target *t)
{
	size_t from, to;

	if ((t->pl->hint->attribute && t->pl->attr.label) ||
	    lp_place_condition(t->pl, &from, &to))
		return NULL;
	return lp_tok_text(&t->file->lx, from, to);
}

static int cmp_patch(const void *pa, const void *pb)
{
	const struct lp_fix_target *a = pa, *b = pb;

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
static void assign_patches(struct lp_fix_run *st)
{
	char **key = lp_xcalloc(st->nt + 1, sizeof(char *));
	char a[256], b[256];
	size_t i, k, next = 0;

	for (i = 0; i < st->nt; i++)
		key[i] = tested(&st->t[i]);
	for (i = 0; i < st->nt; i++) {
		struct lp_fix_target *t = &st->t[i];

		for (k = 0; k < i; k++) {
			struct lp_fix_target *o = &st->t[k];

			if (st->split_subsystem ?
			    !strcmp(o->subsystem, t->subsystem) :
			    o->file == t->file &&
			    (!strcmp(lp_fix_where_name(st, o, a, sizeof(a)),
				     lp_fix_where_name(st, t, b, sizeof(b))) ||
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
int lp_fix_print_series(struct lp_fix_run *st, const char *src)
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
		struct lp_fix_target **group = NULL;
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
			"--remove-at %g --min-hits %llu%s%s",
			st->pol.flip_at, st->pol.remove_at,
			(unsigned long long)st->pol.min_hits,
			st->pol.no_flip ? " --no-flip" : "",
			st->settings ? " --settings" : "");
		/* the threshold of a stated number, where one was judged */
		for (m = i; m < k; m++)
			if (st->in.sites.v[st->t[m].sites[0]].prob) {
				fprintf(out, " --restate-at %g",
					st->pol.restate_at);
				break;
			}
		fputs(").\n", out);
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

