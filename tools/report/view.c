/*
 * view.c - the page's source views: a page per source file with hints,
 * every line numbered, each hinted line with its sites' counts, verdict
 * and check's reason beside it (html.h: lp_html_views)
 *
 * What genhtml and llvm-cov show -output-dir give for coverage, with
 * what they do not give: which way the hint points and what to do about
 * it.  Files of the -o folder, src/<path>.html, rather than views drawn
 * inside the one page: the page keeps its size at 100k sites, and a
 * view is read only when it is opened and is the size of its file.
 * The lines marked are annotate's (marks.c).
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "fix/inputs.h"
#include "marks.h"
#include "report/html.h"
#include "report/page.h"
#include "report/site.h"
#include "usage.h"

/* A view's own style, after the page's: a tint per verdict, as its dots */
static const char view_style[] =
	"#src{font:12px/1.35 ui-monospace,monospace}\n"
	"#src td{padding:0 6px;border:0;white-space:pre;tab-size:8}\n"
	"#src td:first-child{color:#888;text-align:right;user-select:none}\n"
	"#src tr:target td{background:#fff3b0}\n"
	"#src tr.h.flip td{background:#fbe3e0}"
	"#src tr.h.remove td{background:#fdebd8}"
	"#src tr.h.fine td{background:#e3f1e6}"
	"#src tr.h.unsure td{background:#ece6f4}"
	"#src tr.h td{background:#f0f0f0}\n"
	"#src tr.why td{white-space:normal;color:#555;"
	"font:12px system-ui,sans-serif}\n";

/* The folder @name in @fd, made if it is not there, never a link. */
static int open_dir_at(int fd, const char *name)
{
	if (mkdirat(fd, name, 0777) < 0 && errno != EEXIST)
		return -1;
	return openat(fd, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
		      O_CLOEXEC);
}

/*
 * Opens <@rel>.html under the folder @dir for writing, making the
 * folders of @rel: each opened without following a link, and a path
 * that would climb out ("..", "/x") refused, so that nothing is written
 * outside @dir whatever the tree's names or the folder already holds.
 */
static FILE *open_under(int dir, const char *rel)
{
	char *path = lp_xmalloc(strlen(rel) + sizeof(".html"));
	char *part = path, *slash;
	int fd = dir, next;
	FILE *f = NULL;

	strcpy(path, rel);
	for (; (slash = strchr(part, '/')); part = slash + 1) {
		*slash = '\0';
		if (!*part || !strcmp(part, ".") || !strcmp(part, ".."))
			goto refuse;
		next = open_dir_at(fd, part);
		if (fd != dir)
			close(fd);
		fd = next;
		if (fd < 0)
			goto out;
	}
	if (!*part)
		goto refuse;
	strcat(part, ".html");
	next = openat(fd, part, O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW |
		      O_CLOEXEC, 0666);
	if (next >= 0 && !(f = fdopen(next, "w")))
		close(next);
	goto out;
refuse:
	errno = EINVAL;
out:
	if (fd != dir && fd >= 0)
		close(fd);
	free(path);
	return f;
}

/* The view's head: where it is, the way back, the file's own link. */
static void put_head(FILE *f, const char *rel, const struct lp_tree *tree,
		     const struct lp_html_opts *o)
{
	const char *p;

	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\">\n<title>", f);
	lp_html_puts(f, rel);
	fputs(" &ndash; ", f);
	lp_html_puts(f, o->title);
	fprintf(f, "</title>\n<style>\n%s%s</style>\n</head>\n<body>\n"
		"<p><a id=\"up\" href=\"", lp_html_style, view_style);
	/* up from src/ and from each folder of the path */
	for (p = LP_HTML_VIEWS; *p; p++)
		if (*p == '/')
			fputs("../", f);
	for (p = rel; *p; p++)
		if (*p == '/')
			fputs("../", f);
	fputs("index.html#file=", f);
	lp_uri_put(f, rel);
	fputs("\">", f);
	lp_html_puts(f, o->title);
	fputs("</a></p>\n<h1><a href=\"", f);
	lp_html_link(f, o->link, rel, 1, tree);
	fputs("\">", f);
	lp_html_puts(f, rel);
	fputs("</a></h1>\n", f);
}

/* The file's hints, in the order of their lines, each linked to it. */
static void put_hints(FILE *f, const struct lp_check_entry *e, size_t n,
		      struct lp_tree *tree)
{
	size_t i, change = 0;

	for (i = 0; i < n; i++)
		change += lp_verdict_changes(e[i].s->j.verdict) &&
			!lp_place_stale(e[i].pl);
	fprintf(f, "<p id=\"summary\">%zu hint%s, %zu to change.</p>\n"
		"<div class=\"box\"><table id=\"hints\">\n<thead><tr>"
		"<th>line</th><th>annotation</th><th>verdict</th>"
		"<th class=\"num\">correct</th><th class=\"num\">incorrect</th>"
		"<th class=\"num\">%% wrong</th><th>function</th></tr></thead>\n"
		"<tbody>\n", n, lp_plural(n), change);
	for (i = 0; i < n; i++) {
		const struct lp_judgement *j = &e[i].s->j;
		const char *vn = lp_verdict_name(j->verdict);
		char *spell = lp_spelling(e[i].s, e[i].pl->hint ?
					  e[i].pl->hint->name : NULL, NULL, 0);
		char *why = lp_site_reason(&e[i], tree);

		fprintf(f, "<tr data-v=\"%s\"><td><a href=\"#L%u\">%u</a>"
			"</td><td><code>", vn, e[i].pl->line, e[i].pl->line);
		lp_html_puts(f, spell);
		fprintf(f, "</code></td><td><span class=\"v %s\">%s</span>"
			"<div class=\"why\">", vn,
			lp_html_verdict_label(j->verdict));
		lp_html_puts(f, why);
		fputs("</div></td>", f);
		lp_html_count(f, j->total.correct);
		lp_html_count(f, j->total.incorrect);
		lp_html_pct_cell(f, j->total.incorrect, j->evals);
		fputs("<td>", f);
		lp_html_puts(f, e[i].s->func);
		fputs("</td></tr>\n", f);
		free(why);
		free(spell);
	}
	fputs("</tbody></table></div>\n", f);
}

/*
 * A hinted line: its sites' counts and verdicts in the gutter (one a
 * line where a line has several), then a row per site with its
 * spelling and check's reason under the source line.
 */
static void put_marked(FILE *f, const struct lp_check_entry *e, size_t n,
		       const char *text, size_t len, struct lp_tree *tree)
{
	static const char *const cell[] = { "<td class=\"n\">", "<td>" };
	enum lp_verdict worst = e->s->j.verdict;
	size_t i, c;

	/* the line takes the colour of what to do first about it */
	for (i = 1; i < n; i++)
		if (lp_html_verdict_rank(e[i].s->j.verdict) <
		    lp_html_verdict_rank(worst))
			worst = e[i].s->j.verdict;
	fprintf(f, "<tr id=\"L%u\" class=\"h %s\"><td>%u</td>", e->pl->line,
		lp_verdict_name(worst), e->pl->line);
	for (c = 0; c < 4; c++) {
		fputs(cell[c == 3], f);
		for (i = 0; i < n; i++) {
			const struct lp_judgement *j = &e[i].s->j;
			uint64_t t = j->evals ? (uint64_t)((unsigned __int128)
				j->total.incorrect * 1000 / j->evals) : 0;

			fputs(i ? "<br>" : "", f);
			if (c == 0)
				fprintf(f, "%llu", (unsigned long long)
					j->total.correct);
			else if (c == 1)
				fprintf(f, "%llu", (unsigned long long)
					j->total.incorrect);
			else if (c == 2 && j->evals)
				fprintf(f, "%llu.%llu%%",
					(unsigned long long)t / 10,
					(unsigned long long)t % 10);
			else if (c == 2)
				fputs("&ndash;", f);
			else
				fprintf(f, "<span class=\"v %s\">%s</span>",
					lp_verdict_name(j->verdict),
					lp_html_verdict_label(j->verdict));
		}
		fputs("</td>", f);
	}
	fputs("<td>", f);
	lp_html_put(f, text, len);
	fputs("</td></tr>\n", f);
	for (i = 0; i < n; i++) {
		char *spell = lp_spelling(e[i].s, e[i].pl->hint ?
					  e[i].pl->hint->name : NULL, NULL, 0);
		char *why = lp_site_reason(&e[i], tree);

		fputs("<tr class=\"why\"><td></td><td colspan=\"4\"></td>"
		      "<td><code>", f);
		lp_html_puts(f, spell);
		fputs("</code>: ", f);
		lp_html_puts(f, why);
		fputs("</td></tr>\n", f);
		free(why);
		free(spell);
	}
}

/* Every line of @sf, the @n sites @e (in line order) beside theirs. */
static void put_lines(FILE *f, const struct lp_srcfile *sf,
		      const struct lp_check_entry *e, size_t n,
		      struct lp_tree *tree)
{
	size_t l, b, end, k = 0, run;

	fputs("<table id=\"src\"><thead><tr><th>line</th><th>correct</th>"
	      "<th>incorrect</th><th>%&nbsp;wrong</th><th>verdict</th>"
	      "<th>source</th></tr></thead><tbody>\n", f);
	for (l = 0; l < sf->lx.nlines; l++) {
		lp_src_line(sf, l, &b, &end);
		/* the "line" after a file's last newline is none */
		if (l + 1 == sf->lx.nlines && l && b == sf->len)
			break;
		for (run = 0; k + run < n && e[k + run].pl->line == l + 1;
		     run++)
			;
		if (run) {
			put_marked(f, e + k, run, sf->buf + b, end - b, tree);
			k += run;
			continue;
		}
		fprintf(f, "<tr id=\"L%zu\"><td>%zu</td><td colspan=\"4\">"
			"</td><td>", l + 1, l + 1);
		lp_html_put(f, sf->buf + b, end - b);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n</body>\n</html>\n", f);
}

/* The view of the file of the @n marks @m, into the folder @dir. */
static int put_view(int dir, const struct lp_mark *m, size_t n,
		    struct lp_tree *tree, const struct lp_html_opts *o)
{
	const char *rel = m[0].file->rel;
	struct lp_check_entry *e = lp_xcalloc(n + 1, sizeof(*e));
	FILE *f = open_under(dir, rel);
	size_t i;
	int ret = 0;

	if (!f) {
		free(e);
		return lp_error("cannot write '%s/%s%s.html': %s", o->pages,
				LP_HTML_VIEWS, rel, strerror(errno));
	}
	for (i = 0; i < n; i++)
		e[i] = (struct lp_check_entry){ m[i].s, m[i].pl, NULL,
						m[i].line, o->workload };
	put_head(f, rel, tree, o);
	put_hints(f, e, n, tree);
	put_lines(f, m[0].file, e, n, tree);
	if (ferror(f) | fclose(f))
		ret = lp_error("cannot write '%s/%s%s.html': %s", o->pages,
			       LP_HTML_VIEWS, rel, strerror(errno));
	free(e);
	return ret;
}

int lp_html_views(const struct lp_judged_list *sites,
		  const struct lp_place *places, struct lp_tree *tree,
		  const struct lp_html_opts *o)
{
	size_t i, k, n = 0, nm;
	struct lp_mark *m;
	int dir, top, ret = 0;

	if (!o->pages || !tree)
		return 0;
	top = open(o->pages, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	dir = top < 0 ? -1 : open_dir_at(top, LP_HTML_VIEWS_DIR);
	if (top >= 0)
		close(top);
	if (dir < 0)
		return lp_error("cannot write '%s/%s': %s", o->pages,
				LP_HTML_VIEWS, strerror(errno));
	m = lp_marks_make(tree, sites, places, 1, &nm);
	/* the sites the page leaves out, the views leave out too */
	for (i = 0; i < nm; i++)
		if (!o->omit_below || m[i].s->j.evals >= o->omit_below)
			m[n++] = m[i];
	for (i = 0; i < n && !ret; i = k) {
		k = i + lp_marks_run(m + i, n - i);
		ret = put_view(dir, m + i, k - i, tree, o);
	}
	close(dir);
	free(m);
	return ret;
}
