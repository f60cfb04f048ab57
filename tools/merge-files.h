/*
 * merge-files.h - merge profile files into one file (tools/merge-files.c)
 */
#ifndef LP_MERGE_FILES_H
#define LP_MERGE_FILES_H

#include <stddef.h>

#include "merge.h"

/*
 * Merges the @n inputs (lib/profile/merge.c's rules, LP_MERGE_* @flags) into
 * @out ("-" is standard output), atomically, however many they are;
 * @label, not NULL, replaces the inputs' labels.
 * Prints its errors.
 * @return : 0 or -1.
 */
int lp_merge_files(struct lp_merge_input *in, size_t n, const char *out,
		   unsigned flags, const char *label);

/* Prints a merge's complaint; out of memory ends the command. */
void lp_merge_print_diag(const struct lp_diag *diag, int err);

#endif /* LP_MERGE_FILES_H */
