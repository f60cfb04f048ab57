#!/bin/sh
# A profile of 100000 sites is past the size at which report makes its
# keys in two threads, each putting its half's keys in their percent's
# bucket, and sorts them in two: its rows come in the kernel's order all
# the same.  The reference is sort(1) on the printed columns: percent
# down, incorrect down, correct up, then function, file and line (every
# site has its own function, file and line, and ran; --min-hits 3 leaves
# some out in both halves).
awk 'BEGIN {
	print "likelyprof-profile\t1"
	for (i = 0; i < 100000; i++) {
		x = (i * 7919) % 100003
		c = x % 97; w = int(x / 97) % 89
		if (c + w == 0) c = 1
		printf "site\t%d\t%d\t0\t0\tf%d.c\t%d\tfn%d\tf%d.c\tx\n",
			c, w, x % 13, i + 1, x % 1009, x % 13
	}
	print "end\t100000"
}' > big.lprof
"$LIKELYPROF" report --min-hits 3 big.lprof > table || exit 1
sed 1,2d table > rows
LC_ALL=C sort -s -k3,3nr -k2,2nr -k1,1n -k4,4 -k5,5 -k6,6n rows > sorted
wc -l < rows
cmp rows sorted && echo "in order"
