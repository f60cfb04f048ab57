#!/bin/sh
# --format html --rows N bounds the page's markup whatever the profile's
# size: of 20000 sites in 2000 functions of 200 files, the markup holds N
# site rows, N rows in each view, and counts the rest (one line per
# verdict, totals over all sites), for a reader without the script; the
# page's data holds every site, one line each, for the script to draw,
# and the chart's dots count every site once (sites at one place share a
# dot: here two).  20000 sites stay under 100 bytes a site.  Every fifth
# site is wrong 90% of 100000 times (remove), so the 100 shown are all
# removes: the worst first.
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
echo "sites in the dots: $(grep -o '^<circle [^>]* data-n="[0-9]*"' page.html |
	sed 's/.*data-n="//; s/"//' | awk '{ n += $1 } END { print n }')"
echo "sites in the data: $(grep -c '^\[[0-9]' page.html)"
sed -n '/<table id="rest">/,/<\/table>/p' page.html | grep '^<tr'
echo "function rows: $(sed -n '/<table id="functions"/,/<\/table>/p' page.html | grep -c '^<tr data-')"
echo "file rows: $(sed -n '/<table id="files"/,/<\/table>/p' page.html | grep -c '^<tr data-')"
grep -o 'total of [0-9]* [a-z]*</th><td class="n">[0-9]*' page.html
size=$(wc -c < page.html)
[ "$size" -lt 2000000 ] && echo "under 100 bytes a site" || echo "$size bytes"
