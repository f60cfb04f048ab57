#!/bin/sh
# html.sh - the page of report --format html, opened in a real browser
#
# examples/logstat is built with likelyprof cc and run; its profile has
# sites of every verdict (flip, remove, fine, too few, never run).  The
# page is loaded in headless Chromium with a state in its fragment, as a
# link would carry it, and the DOM after the page's script ran is
# checked:
#   - one row per site, and chart dots that count each site once (check
#     --all counts them);
#   - #verdict=flip draws the sites check flips and no other row, and
#     hides every dot but theirs;
#   - #sort=incorrect&order=asc puts the rows in that order, and marks
#     the heading;
#   - #file=stats.c keeps only that file's rows; #view=functions shows
#     the function view alone;
#   - the page fetches nothing (no src=, no http link but the template's).
# Screenshots are compared: two of one state must be the same pixels,
# one of another filter must differ.  The first is kept as
# build/html-report.png for a person to look at.
# Without chromium the browser part is skipped (CI installs it).
. "$(dirname "$0")/lib.sh"

CC=${LP_TEST_CC:-cc}
ex=$SCRATCH/src
cp -R "$ROOT/examples/logstat" "$ex"
cd "$SCRATCH" || exit 1
for f in main gen parse stats; do
	# shellcheck disable=SC2046
	"$LIKELYPROF" cc $(san_flags) -O2 -pthread -c "$ex/$f.c" \
		-o "$f.o" || fail "likelyprof cc $f.c"
done
"$LIKELYPROF" cc $(san_flags) -pthread main.o gen.o parse.o stats.o \
	-o logstat || fail "link"
# the example frees nothing before it exits, which is no fault of a tool
# that runs once; the sanitized pass is here for the page's writer
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0 \
	"$LIKELYPROF" run -o p.lprof -- ./logstat 4 > /dev/null 2> run.err ||
	fail "run logstat: $(tail -5 run.err)"
[ "$FAILED" = 0 ] || finish

"$LIKELYPROF" report --format html --src "$ex" \
	--link 'https://example.org/src/{file}#L{line}' p.lprof > page.html ||
	fail "report --format html exited $?"
sites=$("$LIKELYPROF" check --all p.lprof 2>/dev/null | grep -c '\[likelyprof-')
flips=$("$LIKELYPROF" check p.lprof 2>/dev/null | grep -c '\[likelyprof-flip\]')
[ "$flips" -ge 1 ] && [ "$sites" -gt "$flips" ] ||
	fail "the profile has $flips flips of $sites sites: nothing to filter"

# self-contained: nothing loaded from elsewhere
grep -n -E -e '<[a-z]+ [^>]*src=' -e '<link' -e '@import|url\(' page.html &&
	fail "the page loads something"
grep -o 'href="[^"#]*' page.html | grep -v 'href="https://example.org/src/' |
	grep -q 'href="[a-z]*:' && fail "a link to elsewhere than the template"
grep -q 'href="https://example.org/src/parse.c#L65"' page.html ||
	fail "no link made from the template for parse.c:65"

command -v chromium > /dev/null 2>&1 ||
	skip "no chromium for the browser checks (apt-get install chromium)"
# prints the DOM of page.html#$1 after its script ran
dom() {
	chrome --dump-dom "file://$SCRATCH/page.html#$1"
}
# one line per site row in DOM order: hidden(0/1) verdict file incorrect;
# the page's script, which writes rows too, is not read
rows() {
	sed '/^<script/,$d' | awk 'BEGIN { RS = "<tr id=\"s" }
	     NR > 1 {
		head = substr($0, 1, index($0, ">"))
		hidden = head ~ / hidden/ ? 1 : 0
		match(head, /data-v="[a-z]*"/)
		v = substr(head, RSTART + 8, RLENGTH - 9)
		match(head, /data-file="[^"]*"/)
		file = substr(head, RSTART + 11, RLENGTH - 12)
		split($0, td, "<td class=\"n\">")
		print hidden, v, file, td[3] + 0
	     }'
}

dom '' | rows > all.rows || fail "chromium: $(cat chrome.err)"
[ "$(wc -l < all.rows)" = "$sites" ] ||
	fail "$(wc -l < all.rows) rows in the DOM, $sites sites"
dom 'verdict=flip' > flip.dom || fail "chromium: $(cat chrome.err)"
rows < flip.dom > flip.rows
awk '$2 != "flip"' flip.rows | grep -q . &&
	fail "#verdict=flip shows other rows: $(cat flip.rows)"
[ "$(wc -l < flip.rows)" = "$flips" ] ||
	fail "#verdict=flip shows $(wc -l < flip.rows) rows, check flips $flips"
# the sites a dot stands for, summed over the dots that match $1
dotsum() {
	grep -o '<circle [^>]*' flip.dom | grep -e "$1" |
		sed 's/.* data-n="\([0-9]*\)".*/\1/' |
		awk '{ n += $1 } END { print n + 0 }'
}
[ "$(dotsum .)" = "$sites" ] ||
	fail "the chart's dots count $(dotsum .) sites, not $sites"
on=$(grep -o '<circle [^>]*' flip.dom | grep -v ' off"' | grep -c 'flip')
[ "$on" = "$(grep -o '<circle [^>]*' flip.dom | grep -vc ' off"')" ] &&
	[ "$(dotsum 'class="flip[" ]')" = "$flips" ] &&
	[ "$(dotsum ' off"')" = "$((sites - flips))" ] ||
	fail "#verdict=flip: $on flip dots shown, $(dotsum ' off"') sites' hidden"
grep -q "$flips of $sites sites shown" flip.dom ||
	fail "no count of the rows shown"

dom 'sort=incorrect&order=asc' > sort.dom || fail "chromium: $(cat chrome.err)"
rows < sort.dom | awk '{ print $4 }' > sort.got
sort -n sort.got | cmp -s - sort.got ||
	fail "#sort=incorrect&order=asc: rows in order $(tr '\n' ' ' < sort.got)"
grep -q '<th data-key="incorrect" class="num" aria-sort="ascending">' sort.dom ||
	fail "the sorted heading is not marked"

dom 'file=stats.c' | rows > file.rows || fail "chromium: $(cat chrome.err)"
awk '$1 == 0 && $3 !~ /stats\.c$/' file.rows | grep -q . &&
	fail "#file=stats.c shows rows of other files"
awk '$1 == 0' file.rows | grep -q . || fail "#file=stats.c shows no row"

dom 'view=functions' > view.dom || fail "chromium: $(cat chrome.err)"
grep -q '<section class="view" id="view-sites" hidden' view.dom ||
	fail "#view=functions still shows the sites"
grep -q '<section class="view" id="view-functions">' view.dom ||
	fail "#view=functions hides the functions"
grep -q '<td><a href="#func=parse_line&amp;file=parse.c">parse_line</a>' \
	view.dom || fail "no row of parse_line() in the function view"

shot html-report.png 1400 "file://$SCRATCH/page.html#verdict=change"
[ -s "$ROOT/build/html-report.png" ] || fail "no screenshot"

# Screenshots compared: the page draws the same pixels every time for
# one state (nothing timed or random on it), and a filter changes them.
shot html-again.png 1400 "file://$SCRATCH/page.html#verdict=change"
cmp -s "$ROOT/build/html-report.png" "$ROOT/build/html-again.png" ||
	fail "two screenshots of #verdict=change differ"
shot html-fine.png 1400 "file://$SCRATCH/page.html#verdict=fine"
cmp -s "$ROOT/build/html-report.png" "$ROOT/build/html-fine.png" &&
	fail "#verdict=fine looks the same as #verdict=change"
rm -f "$ROOT/build/html-again.png" "$ROOT/build/html-fine.png"
finish
