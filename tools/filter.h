/*
 * filter.h - --file, --function and --verdict: which sites a command
 * shows or changes (tools/filter.c)
 */
#ifndef LP_FILTER_H
#define LP_FILTER_H

#include "policy.h"
#include "profile.h"

/*
 * Shell patterns of files and functions, and verdicts, each list empty
 * for "any".  A file matches by its path or by its base name.
 */
struct lp_filter {
	const char **files;
	size_t nfiles;
	const char **funcs;
	size_t nfuncs;
	unsigned verdicts;      /* 1u << enum lp_verdict; 0: any */
};

#define LP_FILTER_INIT { NULL, 0, NULL, 0, 0 }

/*! lp_filter_option() :
 *  Takes --file GLOB, --function GLOB or --verdict LIST (names, commas
 *  between; "change" for remove and flip) at argv[*@i]; each may repeat.
 *  @verdicts : whether the command judges sites (check, fix), so that
 *              --verdict means something; a usage error otherwise.
 *  @return : 1 when argv[*@i] was one of them, else 0.
 */
int lp_filter_option(struct lp_filter *f, int argc, const char **argv,
		     int *i, const char *usage, int verdicts);

/* Is any filter set? */
int lp_filter_active(const struct lp_filter *f);

/*! lp_filter_profile() / lp_filter_judged() :
 *  Keep only the sites that match (of a profile, by file and function;
 *  of judged sites, by verdict too); the others are released.
 */
void lp_filter_profile(struct lp_profile *p, const struct lp_filter *f);
void lp_filter_judged(struct lp_judged_list *s, const struct lp_filter *f);

void lp_filter_release(struct lp_filter *f);

#endif /* LP_FILTER_H */
