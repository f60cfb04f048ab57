/*
 * fix.h - one run of `likelyprof fix`: the sites to change, grouped by
 * annotation (tools/cmd-fix.c decides and edits; tools/fix/message.c
 * writes the patch series)
 */
#ifndef LP_FIX_FIX_H
#define LP_FIX_FIX_H

#include <stddef.h>

#include "fix/inputs.h"
#include "fix/locate.h"
#include "fix/rewrite.h"
#include "policy.h"

/* One annotation to change, and the sites of the profile that say so. */
struct lp_fix_target {
	struct lp_srcfile *file;
	size_t tok;
	const struct lp_place *pl;      /* of the first site */
	size_t *sites;
	size_t nsites;
	enum lp_verdict verdict;
	const char *partner;
	unsigned int prob;      /* a restate's number (lp_prob_restated()) */
	struct lp_edits edits;
	char *subsystem;
	size_t patch;           /* the patch it goes in */
};

struct lp_fix_run {
	struct lp_inputs in;
	struct lp_policy pol;
	struct lp_tree *tree;
	struct lp_place *places;
	struct lp_fix_target *t;
	size_t nt;
	size_t refused;
	int split_subsystem;    /* --split subsystem */
	const char **labels;    /* --label, one per profile in order */
	size_t nlabels;
	int settings;           /* --settings: change hints that follow one */
};

/*! lp_fix_where_name() :
 *  How a patch names where @t's annotation is: its macro, "f()", or the
 *  file's base name, into @buf.  @return : @buf.
 */
const char *lp_fix_where_name(const struct lp_fix_run *st,
			      const struct lp_fix_target *t, char *buf,
			      size_t size);

/*! lp_fix_print_series() :
 *  Prints the series of @st's targets to stdout, an mbox that git am
 *  applies: one patch per function (or subsystem), each message quoting
 *  the profiles' rows, as the 2010 series did.  @src is --src as given.
 *  @return : 0, or -1 after saying why.
 */
int lp_fix_print_series(struct lp_fix_run *st, const char *src);

#endif /* LP_FIX_FIX_H */
