/*
 * inputs.h - what check and fix share: the policy options and the
 * profiles, each judged on its own
 *
 * Unlike report, check and fix do not merge their FILE... arguments into
 * one profile before judging: each is one machine or workload, and a
 * site that is right in one of them and wrong in another must be
 * removed, never flipped (lib/profile/policy.h).
 */
#ifndef LP_FIX_INPUTS_H
#define LP_FIX_INPUTS_H

#include "policy.h"

#define LP_POLICY_USAGE \
	"   --flip-at PCT     flip when wrong at least PCT% of the time " \
	"(default 99)\n" \
	"   --remove-at PCT   remove when wrong at least PCT% " \
	"(default 30)\n" \
	"   --min-hits N      say nothing below N evaluations " \
	"(default 10000)\n" \
	"   --no-flip         remove where a flip would be due\n" \
	"   --restate-at PTS  restate a __builtin_expect_with_probability " \
	"whose\n" \
	"                     value came PTS points off what it states " \
	"(default 10)\n" \
	"   --setting-processes N\n" \
	"                     a hint that went one way all through each " \
	"of N\n" \
	"                     processes follows a setting (default 3; 0 " \
	"never)\n"

struct lp_inputs {
	struct lp_profile *profs;
	const struct lp_profile **ptrs;
	size_t n;
	struct lp_judged_list sites;
};

/*! lp_policy_option() :
 *  Parses argv[*i] if it is a policy option (with its value in the same
 *  or the next argument), advancing *@i past what it used.
 *  @return : 1 when it was one, 0 when not; dies on a bad value.
 */
int lp_policy_option(struct lp_policy *pol, int argc, const char **argv,
		     int *i, const char *usage);

/*! lp_inputs_read() :
 *  Reads @n profiles ("-" is standard input, once) and judges them.
 *  Prints the first error.  @return : 0 or -1.
 */
int lp_inputs_read(struct lp_inputs *in, const struct lp_policy *pol,
		   const char *const *paths, size_t n);
void lp_inputs_release(struct lp_inputs *in);

/*! lp_call_parens() :
 *  What follows spelling @name where a message names the hint: "()"
 *  after a call's name, nothing after an attribute ("[[likely]]").
 */
const char *lp_call_parens(const char *name);

/*! lp_word_spelling() :
 *  Makes @name (NULL: nothing) a spelling that messages write with
 *  nothing after it, as an attribute: a macro that spells one without
 *  taking the condition (`if (c) UNLIKELY {`).
 */
void lp_word_spelling(const char *name);

/*! lp_spelling() :
 *  How to name the annotation of @s in a message: the name the source
 *  uses when @name is known, else the one its expected value implies
 *  (likely for 1, unlikely for 0), else "annotation"; with "()" after a
 *  call's name (lp_call_parens()).  @opposite asks for the spelling
 *  after a flip (@partner, when the source's opposite is known).  The
 *  caller frees the string.
 */
char *lp_spelling(const struct lp_judged *s, const char *name,
		  const char *partner, int opposite);

#endif /* LP_FIX_INPUTS_H */
