/*
 * read-profiles.h - read the FILE... arguments of a command into one profile
 */
#ifndef LP_READ_PROFILES_H
#define LP_READ_PROFILES_H

#include "profile.h"

/*
 * Reads each of the @n paths ("-" is standard input, at most once) and
 * merges them into @out, which must be empty.  Meta of the result: the
 * keys on which every input agrees, and "merged", the number of original
 * profiles (an input that was itself merged counts as many as it says),
 * so that merging in any order or tree gives the same file.
 * Prints the first error ("FILE:LINE: reason").
 * @return : 0 or -1.
 */
int lp_read_profiles(struct lp_profile *out, const char *const *paths,
		     int n);

#endif /* LP_READ_PROFILES_H */
