#!/bin/sh
# Inputs that are not in the writer's order still merge to the sums of a
# sorted merge: a profile whose records are out of order, and one with a
# meta record after a site, are read whole and sorted (records of one
# key keep their order: the first b.c:3 of each pairs with the other's).
# The output is in the canonical order and has every input's votes; an
# unsorted input through a FIFO gives the same bytes.
p() {
	printf 'likelyprof-profile\t1\n'
	for s in "$@"; do printf '%s\n' "$s"; done
	printf 'end\t%s\n' "$(printf '%s\n' "$@" | grep -c '^site')"
}
p "site	1	2	0	1	b.c	3	f	b.c	x" "site	7	0	0	1	b.c	3	f	b.c	x" \
	"site	5	5	1	0	a.h	9	g	a.c	y" > unsorted.lprof
p "site	10	20	0	1	a.c	3	f	a.c	x" "meta	host	box" \
	"site	1	1	0	1	b.c	3	f	b.c	x" > late-meta.lprof
p "site	100	0	0	1	b.c	3	f	b.c	x" > sorted.lprof
"$LIKELYPROF" merge -o out.lprof sorted.lprof unsorted.lprof late-meta.lprof
echo "exit $?"
cat out.lprof
# an unsorted profile through a FIFO: read once, whole, not streamed and
# read again
mkfifo fifo
cat unsorted.lprof > fifo &
"$LIKELYPROF" merge -o fifo.lprof sorted.lprof fifo late-meta.lprof
echo "exit $?"
wait
cmp fifo.lprof out.lprof && echo "same bytes"
