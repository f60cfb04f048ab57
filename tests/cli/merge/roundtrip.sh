#!/bin/sh
# Merging is commutative and associative: three profiles merged in two
# orders, and as a tree, give the same bytes, and report --format csv of
# the result equals that of the inputs merged in yet another order.
# Profiles from the same program keep their common meta; "merged" counts
# the original profiles, so a tree of merges says 3 as a flat merge does.
p() {
	printf '# likelyprof profile\nlikelyprof-profile\t1\n'
	printf 'meta\tprogram\t/bin/prog\nmeta\tpid\t%s\n' "$1"
	shift
	for s in "$@"; do printf 'site\t%s\n' "$s"; done
	printf 'end\t%s\n' $#
}
p 11 "1	2	0	1	a.c	3	f	a.c	x" "5	5	1	0	b.h	9	g	a.c	y" \
	"7	0	0	0	b.h	9	g	a.c	y" > a.lprof
p 12 "10	20	0	1	a.c	3	f	a.c	x" "1	1	0	0	b.h	9	g	c.c	y" > b.lprof
p 13 "5	5	5	0	b.h	9	g	a.c	y" "0	0	0	?	z.c	1	h		" > c.lprof
"$LIKELYPROF" merge -o abc.lprof a.lprof b.lprof c.lprof
"$LIKELYPROF" merge -o cba.lprof c.lprof b.lprof a.lprof
"$LIKELYPROF" merge -o ab.lprof a.lprof b.lprof
"$LIKELYPROF" merge -o ab_c.lprof c.lprof ab.lprof
cmp abc.lprof cba.lprof && cmp abc.lprof ab_c.lprof && echo "same bytes"
"$LIKELYPROF" report --format csv abc.lprof > 1.csv
"$LIKELYPROF" report --format csv b.lprof c.lprof a.lprof > 2.csv
cmp 1.csv 2.csv && echo "same csv"
cat abc.lprof
ls
