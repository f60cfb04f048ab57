# lib.sh - what several CLI tests share; a test sources it with
#   . "$(dirname "$0")/../lib.sh"

# own_site_counts PROFILE: "FILE:LINE CORRECT INCORRECT" of each site of
# PROFILE in the tree's own files (not under /), sorted, for a diff with
# the counts a program kept itself.
own_site_counts() {
	awk -F'\t' '$1 == "site" && $6 !~ /^\// {
		sub(/^\.\//, "", $6); print $6 ":" $7, $2, $3 }' "$1" | sort
}
