/*
 * verdict.h - what check says of a site, shared by its outputs
 *
 * The text warnings, SARIF and the HTML page (tools/report/html.c) name
 * a site, its place in the tree and the reason for its verdict in the
 * same words, so a reader who saw one recognises the others.
 */
#ifndef LP_VERDICT_H
#define LP_VERDICT_H

#include <stdio.h>

#include "fix/locate.h"
#include "policy.h"

/* One judged site as an output shows it. */
struct lp_check_entry {
	const struct lp_judged *s;
	const struct lp_place *pl;      /* NULL without --src */
	char *path;                     /* where it is today; owned */
	long line;
	/* "workload 'nightly'": the profiles' labels, or NULL; not owned */
	const char *workload;
};

/*! lp_workload_text() :
 *  How a message names the workloads of the @n profiles @p, from their
 *  labels: "workload 'nightly'", "workloads 'a' and 'b'", or NULL when
 *  none has one.  @return : a malloc'd string or NULL.
 */
char *lp_workload_text(const struct lp_profile *p, size_t n);

/*! lp_rests_on() :
 *  What a verdict rests on: "6 processes of workload 'nightly'",
 *  "6 processes", "workload 'nightly'", or NULL for one process of an
 *  unnamed workload.  @workload : lp_workload_text(), or NULL.
 *  @return : a malloc'd string or NULL.
 */
char *lp_rests_on(const struct lp_judgement *j, const char *workload);

/*! lp_site_message() :
 *  What a diagnostic says of a site, between "warning: " and its tag
 *  ("likely() in f() was wrong 85% of 1000 times; remove it").
 *  @tree : the tree of --src, or NULL.
 *  @return : a malloc'd string for the caller to free.
 */
char *lp_site_message(const struct lp_check_entry *e,
		      const struct lp_tree *tree);

/*! lp_site_reason() :
 *  What lp_site_message() says after the site's name ("was wrong 85% of
 *  1000 times; remove it"), for an output that shows the name apart.
 *  @return : a malloc'd string for the caller to free.
 */
char *lp_site_reason(const struct lp_check_entry *e,
		     const struct lp_tree *tree);

/*! lp_place_stale() :
 *  True for a site the tree no longer has as the profile saw it: a
 *  commit quoting its row changed it, or its annotation now points the
 *  other way.  @pl may be NULL.
 */
int lp_place_stale(const struct lp_place *pl);

/*! lp_uri_put() :
 *  Writes path @p to @f as a URI reference: bytes other than unreserved
 *  ones and '/' percent-encoded, so "my file.c" is "my%20file.c".
 */
void lp_uri_put(FILE *f, const char *p);

struct lp_hint_macros;

/*! lp_place_sites() :
 *  Opens the tree @src, with the names of @macros (--hint-macro; NULL:
 *  none) as spellings, and places every site of @sites in it (--src).
 *  @return : 0 with *@tree and *@places (sites->nr of them) to free, or
 *            -1 after printing why the tree cannot be read.
 */
int lp_place_sites(const char *src, const struct lp_hint_macros *macros,
		   const struct lp_judged_list *sites, struct lp_tree **tree,
		   struct lp_place **places);

#endif /* LP_VERDICT_H */
