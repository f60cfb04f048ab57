#!/bin/sh
# --format html --rows N bounds the page whatever the profile's size: of
# 20000 sites in 2000 functions of 200 files, the page holds N site rows
# and N dots, N rows in each view, and counts the rest (one line per
# verdict, totals over all sites); 20000 sites at --rows 100 stay under
# 200 kB.  Every fifth site is wrong 90% of 100000 times (remove), so
# the 100 shown are all removes: the worst first.
awk 'BEGIN {
	print "likelyprof-profile\t1"
	for (i = 0; i < 20000; i++) {
		bad = i % 5 == 0
		printf "site\t%d\t%d\t0\t1\tsrc/f%d.c\t%d\tfn%d\tsrc/f%d.c\t!!(x)\n",
			bad ? 10000 : 99000 + i % 7, bad ? 90000 : 1000,
			i % 200, i + 1, i % 2000, i % 200
	}
	print "end\t20000"
}' > big.lprof
"$LIKELYPROF" report --format html --rows 100 big.lprof > page.html
echo "exit $?"
echo "site rows: $(grep -c '^<tr id="s' page.html)"
echo "removes shown: $(grep -c '^<tr id="s[0-9]*" data-v="remove"' page.html)"
echo "dots: $(grep -c '^<circle ' page.html)"
sed -n '/<table id="rest">/,/<\/table>/p' page.html | grep '^<tr'
echo "function rows: $(sed -n '/<table id="functions"/,/<\/table>/p' page.html | grep -c '^<tr data-')"
echo "file rows: $(sed -n '/<table id="files"/,/<\/table>/p' page.html | grep -c '^<tr data-')"
grep -o 'total of [0-9]* [a-z]*</th><td class="n">[0-9]*' page.html
size=$(wc -c < page.html)
[ "$size" -lt 200000 ] && echo "under 200 kB" || echo "$size bytes"
