# twice.awk - annotations that `check --src` judged more than once
#
#   awk -f twice.awk ANNOTATIONS PLACED
#
# ANNOTATIONS is what annotations.awk printed; PLACED has one line per site
# of `check --src --format json`, its file (relative to the tree) and line.
# Prints each line of the source that holds exactly one annotation and yet
# was judged as several sites, with how many.

BEGIN { FS = "\t" }

FNR == NR && $1 == "call" {
	calls[$2 ":" $3]++
	next
}

FNR == NR { next }

{ judged[$1 ":" $2]++ }

END {
	for (k in judged)
		if (judged[k] > 1 && calls[k] == 1)
			printf "%s judged as %d sites\n", k, judged[k]
}
