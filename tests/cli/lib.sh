# lib.sh - what several CLI tests share; a test sources it with
#   . "$(dirname "$0")/../lib.sh"

# own_site_counts PROFILE: "FILE:LINE CORRECT INCORRECT" of each site of
# PROFILE in the tree's own files (not under /), sorted, for a diff with
# the counts a program kept itself.
own_site_counts() {
	awk -F'\t' '$1 == "site" && $6 !~ /^\// {
		sub(/^\.\//, "", $6); print $6 ":" $7, $2, $3 }' "$1" | sort
}

# counted_as_tallied CXX OPT ARGS...: builds ./p with `likelyprof c++`
# (CXX the compiler, OPT the level, ARGS the rest), runs it, and says
# whether the profile's own sites hold the counts the program printed
# after its first line ("FILE:LINE CORRECT INCORRECT").
counted_as_tallied() {
	cat_c=$1 cat_o=$2
	shift 2
	rm -f p.lprof
	CXX=$cat_c $LIKELYPROF c++ "$@" $cat_o -o p 2> err
	echo "$cat_c $cat_o: exit $?"
	cat err
	LIKELYPROF_FILE=p.lprof ./p > p.out
	echo "run $?"
	sed 1d p.out | sort > expected
	own_site_counts p.lprof | diff expected - && echo "counts as counted"
}

# check_fix_builds PATTERN CXX ARGS...: check and fix of p.lprof on the
# tree here, the lines of the series that match PATTERN, and whether git
# am applies the series and the tree then compiles with CXX ARGS.
check_fix_builds() {
	cfb_pattern=$1
	shift
	$LIKELYPROF check --src . p.lprof
	echo "check: exit $?"
	$LIKELYPROF fix --src . p.lprof > fixes.mbox 2> fix.err
	echo "fix: exit $?"
	cat fix.err
	grep "$cfb_pattern" fixes.mbox
	git am -q fixes.mbox && echo "series applies" &&
		"$@" -c -o /dev/null && echo "the tree builds"
}
