/*
 * cmd-merge.c - `likelyprof merge`: sum profiles from runs and machines
 *
 * Merging adds the counts of each site (lib/profile.c pairs the records),
 * so a fleet's profiles can be merged in any order or tree and give the
 * same bytes.  The output replaces OUT atomically: a reader never sees
 * half a profile, and a failed merge leaves the old OUT as it was.
 */
#include <stdio.h>
#include <string.h>

#include "builtin.h"
#include "profile.h"
#include "read-profiles.h"
#include "usage.h"
#include "write-file.h"

static const char merge_usage[] =
	"usage: likelyprof merge -o OUT FILE...\n"
	"\n"
	"Sums the counts of every site of the profiles (or kernel tables)\n"
	"and writes one profile to OUT, atomically; '-o -' writes standard\n"
	"output and a FILE of '-' reads standard input.\n"
	"\n"
	"   -o, --output OUT  where to write the merged profile\n";

int cmd_merge(int argc, const char **argv)
{
	struct lp_profile all = LP_PROFILE_INIT;
	const char *out = NULL;
	int i, err;

	for (i = 1; i < argc && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "-h") || !strcmp(argv[i], "--help")) {
			fputs(merge_usage, stdout);
			return LP_EXIT_OK;
		}
	}
	for (i = 1; i < argc; i++) {
		const char *arg = argv[i];

		if (!strcmp(arg, "--")) {
			i++;
			break;
		}
		if (arg[0] != '-' || !strcmp(arg, "-"))
			break;
		if (!strcmp(arg, "-o") || !strcmp(arg, "--output")) {
			if (i + 1 >= argc)
				lp_die("option '%s' needs a file", arg);
			out = argv[++i];
		} else if (!strncmp(arg, "--output=", 9)) {
			out = arg + 9;
		} else if (!strncmp(arg, "-o", 2)) {
			out = arg + 2;
		} else {
			lp_die("unknown option '%s' "
			       "(see 'likelyprof merge --help')", arg);
		}
	}
	if (!out || !*out)
		lp_die("no output file: give -o OUT "
		       "(see 'likelyprof merge --help')");
	if (i >= argc)
		lp_die("no profile to merge (see 'likelyprof merge --help')");
	if (lp_read_profiles(&all, argv + i, argc - i) < 0) {
		lp_profile_release(&all);
		return LP_EXIT_ERROR;
	}
	err = lp_write_profile_file(&all, out);
	lp_profile_release(&all);
	return err < 0 ? LP_EXIT_ERROR : LP_EXIT_OK;
}
