#!/bin/sh
# html-pages.sh - every site of a large profile reachable in the page,
# and the page no wider than the window, in a real browser
#
# A profile of 20000 sites (bench/gen-profile.sh: many files and
# functions, long conditions, every verdict) gives a page whose markup
# holds one page of rows; its script draws the others from its data.  In
# headless Chromium, the DOM after the script ran is checked:
#   - for each verdict, #verdict=V&per=all draws exactly the sites that
#     check gives that verdict, and no other row; #verdict=change the
#     flips and removes;
#   - the chart's dots count every site once (their data-n sum to the
#     sites), and a dot's title names its site or counts its sites;
#   - #dot=N lists the sites of dot N: as many as it counts;
#   - #verdict=fine&page=2 draws the next rows, none of page 1's;
#   - in frames 1400 and 800 pixels wide (html/probe.html), the document
#     is no wider than the frame's view: the tables scroll in their
#     boxes, the chart shrinks.
# Screenshots at both widths are kept as build/html-pages-1400.png and
# build/html-pages-800.png for a person to look at.  Without chromium the
# test is skipped (CI installs it).
. "$(dirname "$0")/lib.sh"

cd "$SCRATCH" || exit 1
BENCH_BUILD=$SCRATCH/bench "$ROOT/bench/gen-profile.sh" 20000 > p.lprof ||
	fail "bench/gen-profile.sh 20000"
"$LIKELYPROF" report --format html p.lprof > page.html ||
	fail "report --format html exited $?"
"$LIKELYPROF" check --all p.lprof 2>/dev/null |
	sed -n 's/.*\[likelyprof-\([a-z]*\)\]$/\1/p' | sort | uniq -c > want
sites=$(awk '{ n += $1 } END { print n + 0 }' want)
[ "$sites" -gt 10000 ] || fail "check judged $sites sites, not ~20000"
[ "$(grep -c '^<tr id="s' page.html)" -lt "$sites" ] ||
	fail "the markup holds every row: nothing for the script to draw"
[ "$FAILED" = 0 ] || finish

command -v chromium > /dev/null 2>&1 ||
	skip "no chromium for the browser checks (apt-get install chromium)"
# prints the DOM of $1 (page.html#..., probe.html) after its script ran
dom() {
	chrome --dump-dom "file://$SCRATCH/$1"
}
# the verdict of each site row drawn, one a line
verdicts() {
	grep -o '<tr id="s[0-9]*" data-v="[a-z]*"' | sed 's/.*data-v="//; s/"//'
}

while read -r count v; do
	dom "page.html#verdict=$v&per=all" | verdicts | sort | uniq -c > got ||
		fail "chromium: $(tail -3 chrome.err)"
	[ "$(cat got)" = "$(printf '%7d %s' "$count" "$v")" ] ||
		fail "#verdict=$v: check has $count, the page drew $(cat got)"
done < want
change=$(awk '$2 == "flip" || $2 == "remove" { n += $1 } END { print n }' want)
dom 'page.html#verdict=change&per=all' | verdicts | sort | uniq -c > got
[ "$(awk '{ n += $1 } END { print n }' got)" = "$change" ] &&
	! grep -v -e ' flip$' -e ' remove$' got ||
	fail "#verdict=change drew $(cat got), check changes $change"

dom 'page.html#verdict=fine&page=2' > fine2.dom
dom 'page.html#verdict=fine' > fine1.dom
grep -o '<tr id="s[0-9]*"' fine1.dom | sort > ids1
grep -o '<tr id="s[0-9]*"' fine2.dom | sort > ids2
[ "$(wc -l < ids2)" = 250 ] && [ "$(wc -l < ids1)" = 250 ] ||
	fail "pages of fine sites: $(wc -l < ids1) and $(wc -l < ids2) rows"
comm -12 ids1 ids2 | grep -q . && fail "page 2 repeats rows of page 1"
grep -q 'rows 251&ndash;500 of\|rows 251–500 of' fine2.dom ||
	fail "page 2 does not say which rows it shows"

dots=$(grep -o '<circle [^>]*' fine1.dom | sed 's/.* data-n="\([0-9]*\)".*/\1/' |
	awk '{ n += $1 } END { print n + 0 }')
[ "$dots" = "$sites" ] || fail "the dots count $dots sites, check $sites"
grep -q '<title>[0-9]* sites, [a-z ]*:' page.html ||
	fail "no dot counts the sites it stands for"
big=$(grep -o '<circle id="d[0-9]*" class="[a-z]*" data-n="[0-9]*"' page.html |
	sed 's/<circle id="d\([0-9]*\)".*data-n="\([0-9]*\)"/\2 \1/' |
	sort -n | tail -n 1)
dom "page.html#dot=${big#* }&per=all" | verdicts > dot.rows
[ "$(wc -l < dot.rows)" = "${big% *}" ] ||
	fail "#dot=${big#* } lists $(wc -l < dot.rows) sites, its dot counts ${big% *}"

cp "$E2E_DIR/html/probe.html" . || exit 1
dom probe.html | sed -n '/^w[0-9]* view /p; s/.*<pre id="out">//p' |
	grep '^w' > widths
[ "$(wc -l < widths)" = 2 ] || fail "the probe measured: $(cat widths)"
while read -r frame _ view _ doc _ right _ rows; do
	[ "$doc" -le "$view" ] && [ "$right" -le "$view" ] ||
		fail "$frame: the page is $doc px wide (right edge $right)" \
			"in a view of $view"
	[ "$rows" = 250 ] || fail "$frame: $rows rows drawn, not a page"
done < widths

for w in 1400 800; do
	shot "html-pages-$w.png" $w "file://$SCRATCH/page.html"
done
finish
