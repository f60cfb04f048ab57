#!/bin/sh
# The score is the sum over branch edges of the smaller of the two
# profiles' shares (llvm-profdata overlap's): a.lprof and b.lprof have
# 200 evaluations each; x.c's edges are 45% and 5% of a, 5% and 45% of
# b, y.c's hinted edge is 50% of both, so the score is 0.05 + 0.05 + 0.5
# = 0.6.  x.c is the site that differs (10% wrong in a, 90% in b); y.c,
# alike in both, is not listed, and a site under --min-hits is not
# either.  A profile against itself is 1, against one with no site in
# common 0; one profile alone is a usage error.
p() {
	printf 'likelyprof-profile\t1\n'
	printf 'site\t%s\t%s\t0\t1\tx.c\t3\tf\tx.c\tx\n' "$1" "$2"
	printf 'site\t%s\t0\t0\t1\ty.c\t5\tg\ty.c\ty\n' "$3"
	printf 'end\t2\n'
}
p 90 10 100 > a.lprof
p 10 90 100 > b.lprof
printf 'likelyprof-profile\t1\nsite\t5\t5\t0\t1\tz.c\t1\th\tz.c\tz\nend\t1\n' \
	> z.lprof
"$LIKELYPROF" overlap --min-hits 1 a.lprof b.lprof
"$LIKELYPROF" overlap a.lprof b.lprof | tail -n 1
"$LIKELYPROF" overlap a.lprof a.lprof | head -n 1
"$LIKELYPROF" overlap a.lprof z.lprof | head -n 1
"$LIKELYPROF" overlap -n 0 --min-hits 1 a.lprof b.lprof | tail -n 1
"$LIKELYPROF" overlap a.lprof 2>/dev/null
echo "exit $?"
