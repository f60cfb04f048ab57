#!/bin/sh
# gen-profile.sh - make a synthetic likelyprof profile of N sites
#
#   bench/gen-profile.sh N [SEED] > prof.lprof
#
# For timing report, merge and check at 10k, 100k and 1M sites.  The shape
# follows a real C project: sites spread over a few hundred files in a few
# dozen folders, a tenth of them in headers whose static inlines appear
# once per translation unit that uses them (the same key but for the unit,
# as page_mapping() in seed 011), a quarter never run, and counts from a
# handful to billions, most annotations right and some badly wrong.  The
# same N and SEED always give the same bytes, so two seeds give two
# "machines" whose profiles share their keys and merge pairwise.  Sites
# come in the canonical order of doc/FORMAT.md, as `likelyprof run` and
# `merge` write them.
set -eu

n=${1:?usage: gen-profile.sh N [SEED]}
seed=${2:-1}

awk -v n="$n" -v seed="$seed" '
function rnd(m) {
	# a 31-bit LCG of our own: awk rand() differs between awks
	state = (state * 1103515245 + 12345) % 2147483648
	return int(state / 2147483648 * m)
}
BEGIN {
	OFS = "\t"
	# the keys depend on N only; the counts on SEED too
	for (i = 0; i < n; i++) {
		state = i * 2654435761 % 2147483648
		dir = "src/d" rnd(40)
		if (rnd(10) == 0) {
			file = "include/h" rnd(60) ".h"
			unit = dir "/u" rnd(300) ".c"
			line = 10 + rnd(500)
			func = "inline_" rnd(400)
		} else {
			file = dir "/f" rnd(300) ".c"
			unit = file
			line = 1 + rnd(9000)
			func = "fn_" rnd(5000)
		}
		expect = rnd(3) == 0 ? 0 : 1
		cond = "!!(x" i % 97 " > " rnd(100) ")"
		state = (i * 2654435761 + seed * 40503) % 2147483648
		kind = rnd(20)
		if (kind < 5) {
			c = 0; w = 0
		} else {
			total = rnd(10) < 3 ? rnd(1000) : rnd(2000000000)
			if (kind < 17)
				w = int(total * rnd(100) / 10000)
			else
				w = int(total * (50 + rnd(50)) / 100)
			c = total - w
		}
		k = rnd(50) == 0 ? rnd(1000) : 0
		print "site", c + k, w, k, expect, file, line, func, unit, cond
	}
}' | {
	printf '# likelyprof profile, see doc/FORMAT.md\n'
	printf 'likelyprof-profile\t1\n'
	printf 'meta\tprogram\t/usr/bin/bench\n'
	printf 'meta\tseed\t%s\n' "$seed"
	# file, line, func, expect, unit, cond: the writer's order
	LC_ALL=C sort -s -t "$(printf '\t')" -k6,6 -k7,7n -k8,8 -k5,5n \
		-k9,9 -k10,10
	printf 'end\t%s\n' "$n"
}
