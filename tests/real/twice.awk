# twice.awk - annotations that `check --src` judged more than once
#
#   awk -f twice.awk PLACED
#
# PLACED has one line per site of `check --src --format json`: its file
# (relative to the tree), line, function and condition (as the JSON spells
# it).  The
# copies of one hint (a static inline in several units, a unit linked
# twice) must be judged as one site; distinct hints that one macro call
# expands on one line (jemalloc's CTL_LEAF_PREPARE holds two asserts), or
# one line expands into several functions (jemalloc's TSD_DATA_FAST
# defines a getter per field), are distinct sites.  Prints each (file,
# line, function, condition) judged more than once, with how many times.

BEGIN { FS = "\t" }

{ judged[$1 ":" $2 "\t" $3 "\t" $4]++ }

END {
	for (k in judged)
		if (judged[k] > 1)
			printf "%s judged as %d sites\n", k, judged[k]
}
