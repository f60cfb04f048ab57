#!/bin/sh
# --normalize scales every input to the evaluations (correct + incorrect
# over its sites) of the longest, so a long run does not drown a short
# one: short.lprof has 10 evaluations, long.lprof 1000, so short's counts
# are multiplied by 1000/10 and long's stay.  A count c of an input of
# total T becomes floor((c * max + T/2) / T): 1 * 1000 / 3 = 333.33 is
# 333, 2 * 1000 / 3 = 666.67 is 667.
p() {
	printf 'likelyprof-profile\t1\n'
	printf 'site\t%s\t%s\t0\t1\ta.c\t3\tf\ta.c\tx\n' "$1" "$2"
	printf 'site\t%s\t%s\t0\t1\tb.c\t3\tf\tb.c\tx\n' "$3" "$4"
	printf 'end\t2\n'
}
p 9 1 0 0 > short.lprof
p 500 0 0 500 > long.lprof
p 1 2 0 0 > thirds.lprof
"$LIKELYPROF" merge -o out.lprof --normalize short.lprof long.lprof
grep '^site' out.lprof
"$LIKELYPROF" merge -o out.lprof --normalize thirds.lprof long.lprof
grep '^site' out.lprof
