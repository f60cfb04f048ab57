#!/bin/sh
# html-views.sh - the page's source views, in a real browser
#
# A program whose hints are in "my dir/a#b.c" (a space and a '#' in the
# path) is built with likelyprof cc and run: its profile has a flip, a
# remove, fine sites and a site never run.  `report --format html --src
# -o out/` writes out/index.html and a view per source file.  In
# headless Chromium:
#   - the page's site rows for the file link to its view, one link per
#     site, the line in the fragment;
#   - following each link (html/views.html, a frame) lands on that view
#     with the site's line as the target, in the frame's view, marked
#     with check's verdict and the counts report --format csv gives
#     (correct, incorrect, percent wrong in tenths rounded down);
#   - in the view, every hinted line is marked with its verdict and no
#     other line is, and the file's hints are listed at its top.
# A screenshot of the view is kept as build/html-view.png for a person
# to look at.  Without chromium the browser part is skipped.
. "$(dirname "$0")/lib.sh"

CC=${LP_TEST_CC:-cc}
src=$SCRATCH/src
mkdir -p "$src/my dir"
cat > "$src/my dir/a#b.c" <<'C'
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

long work(long i)
{
	long s = 0;

	if (likely(i % 100 == 0))
		s += 3;
	if (likely(i % 2 == 0))
		s += 2;
	if (likely(i >= 0))
		s += 1;
	if (unlikely(i < 0))
		s -= 1;
	return s;
}

long never(long i)
{
	if (unlikely(i == 42))
		return 1;
	return 0;
}
C
cat > "$src/main.c" <<'C'
#include <stdio.h>
long work(long i);
long never(long i);

int main(int argc, char **argv)
{
	long i, s = 0;

	for (i = 0; i < 200000; i++)
		s += work(i);
	if (argc > 5)
		s += never(argc);
	printf("%ld\n", s);
	return 0;
}
C
cd "$src" || exit 1
# shellcheck disable=SC2046
"$LIKELYPROF" cc $(san_flags) -O1 -o "$SCRATCH/prog" main.c "my dir/a#b.c" ||
	fail "likelyprof cc"
cd "$SCRATCH" || exit 1
"$LIKELYPROF" run -o p.lprof -- ./prog > /dev/null 2> run.err ||
	fail "run: $(tail -3 run.err)"
[ "$FAILED" = 0 ] || finish

"$LIKELYPROF" report --format html --src src -o out/ p.lprof ||
	fail "report --format html -o out/ exited $?"
view="out/src/my dir/a#b.c.html"
# main.c has no hint: no view
[ -s "$view" ] && [ ! -e out/src/main.c.html ] && [ -s out/index.html ] ||
	fail "not a view of each file with hints: $(find out -type f)"
# file line correct incorrect verdict, one line per site of a#b.c
"$LIKELYPROF" report --format csv p.lprof | awk -F, '$1 == "my dir/a#b.c" {
	print $2, $5, $6 }' | sort -n > counts
"$LIKELYPROF" check --all p.lprof 2>/dev/null |
	sed -n 's|^my dir/a#b\.c:\([0-9]*\):.*\[likelyprof-\([a-z]*\)\]$|\1 \2|p' |
	sort -n > verdicts
join counts verdicts > want
[ "$(wc -l < want)" = 5 ] || fail "the profile's sites of a#b.c: $(cat want)"
for v in flip remove fine never; do
	grep -q " $v\$" want || fail "no $v site in a#b.c: $(cat want)"
done
[ "$FAILED" = 0 ] || finish

command -v chromium > /dev/null 2>&1 ||
	skip "no chromium for the browser checks (apt-get install chromium)"
# prints the DOM of $1 (a file:// path under $SCRATCH, encoded) after
# its script ran
dom() {
	chrome --dump-dom "file://$SCRATCH/$1"
}

dom 'out/index.html#per=all' > index.dom || fail "chromium: $(cat chrome.err)"
grep -o 'href="src/my%20dir/a%23b\.c\.html#L[0-9]*"' index.dom |
	sed 's/href="//; s/"$//' | sort -t L -k 2 -n > links
[ "$(wc -l < links)" = 5 ] || fail "links to the view: $(cat links)"
cp "$E2E_DIR/html/views.html" out/ || exit 1
while read -r line correct incorrect verdict; do
	link=$(grep "#L$line\$" links) || {
		fail "no row links to a#b.c line $line"
		continue
	}
	t=$(awk -v c="$correct" -v i="$incorrect" 'BEGIN {
		if (c + i == 0) { print "–"; exit }
		t = int(i * 1000 / (c + i)); printf "%d.%d%%\n", t / 10, t % 10 }')
	case $verdict in
	few) label="too few" ;;
	never) label="never run" ;;
	*) label=$verdict ;;
	esac
	# the link as the probe's fragment: its own escapes escaped
	dom "out/views.html#$(printf %s "$link" | sed 's/%/%25/g; s/#/%23/g')" |
		sed -n '/<pre id="out">/,/<\/pre>/p' > landed
	want="path my dir/a#b.c.html
target L$line
class h $verdict
cells $line|$correct|$incorrect|$t|$label|
in-view 1"
	got=$(sed 's/<pre id="out">//; s/<\/pre>//' landed |
		sed 's/|[^|]*$/|/' | grep .)
	[ "$got" = "$want" ] ||
		fail "following $link: got
$got
want
$want"
done < want

dom "out/src/my%20dir/a%23b.c.html" > view.dom ||
	fail "chromium: $(cat chrome.err)"
grep -o '<tr id="L[0-9]*" class="h [a-z]*"' view.dom |
	sed 's/<tr id="L\([0-9]*\)" class="h \([a-z]*\)"/\1 \2/' > marked
awk '{ print $1, $4 }' want | cmp -s - marked ||
	fail "lines marked: $(tr '\n' ' ' < marked), hinted: $(awk '{ print $1, $4 }' want | tr '\n' ' ')"
[ "$(grep -c '<tr data-v="[a-z]*"><td><a href="#L' view.dom)" = 5 ] ||
	fail "the view does not list its 5 hints at its top"
grep -q '<a id="up" href="../../index.html#file=my%20dir/a%23b.c"' view.dom ||
	fail "no link back to the page's rows of the file"

shot html-view.png 1200 "file://$SCRATCH/out/src/my%20dir/a%23b.c.html" 900
finish
