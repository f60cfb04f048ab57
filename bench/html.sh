#!/bin/sh
# html.sh - the page of `report --format html` in a browser: its size per
# site and the time headless Chromium takes to show it, at 10k and 100k
# sites, every site of them in the page (its script draws a page of rows
# at a time from the page's data).
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a command fails; the 3 s target missed is reported,
# not a failure.
#
# Knobs (environment):
#   BENCH_HTML_SIZES="10000 100000"  sites per profile
#   BENCH_HTML_ROUNDS=5              timed runs of each browser step
#   BENCH_HTML_BROWSER=chromium      the browser, run headless
#   LIKELYPROF=./likelyprof          the command measured
. "$(dirname "$0")/lib.sh"
: "${BENCH_HTML_SIZES:=10000 100000}"
: "${BENCH_HTML_ROUNDS:=5}"
: "${BENCH_HTML_BROWSER:=chromium}"
: "${LIKELYPROF:=$root/likelyprof}"
work=$BENCH_BUILD/html
browser=$BENCH_HTML_BROWSER
failed=0

if ! have "$browser"; then
	say "no $browser: the page is not measured"
	echo "Not measured: no \`$browser\` (apt-get install chromium)."
	exit 0
fi
rm -rf "$work"
mkdir -p "$work" || exit 1
"$BENCH_GCC" -O2 -o "$work/timeit" "$here/timeit.c" || exit 1

# chrome WHAT PAGE: one headless run, its wall-clock seconds on stdout;
# WHAT is "shot" (a screenshot: the page laid out and painted) or "dom"
# (the DOM after the script ran, into $work/dom)
chrome() {
	out=/dev/null
	set -- "$1" "file://$2" --headless --no-sandbox --disable-gpu \
		--user-data-dir="$work/profile" --window-size=1400,1000
	case $1 in
	shot) set -- "$@" --screenshot="$work/shot.png" ;;
	dom) set -- "$@" --dump-dom; out=$work/dom ;;
	esac
	url=$2
	shift 2
	"$work/timeit" "$out" "$work/err" "$browser" "$@" "$url" |
		cut -d' ' -f1
}

printf '<!DOCTYPE html>\n<title>empty</title>\n' > "$work/empty.html"
: > "$work/rows"
for n in $BENCH_HTML_SIZES; do
	say "page of $n sites"
	"$here/gen-profile.sh" "$n" > "$work/p$n.lprof" || exit 1
	secs=$("$work/timeit" "$work/p$n.html" "$work/err" "$LIKELYPROF" \
		report --format html "$work/p$n.lprof") ||
		{ say "FAILED: report --format html, $n sites"; exit 1; }
	secs=${secs%% *}
	judged=$(grep -c '^\[[0-9]' "$work/p$n.html")
	bytes=$(wc -c < "$work/p$n.html")
	data=$(sed -n '/id="lp-data"/,/^<\/script>/p' "$work/p$n.html" | wc -c)
	chrome shot "$work/p$n.html" > /dev/null      # warm the caches
	r=0
	while [ "$r" -lt "$BENCH_HTML_ROUNDS" ]; do
		shot=$(chrome shot "$work/p$n.html")
		empty=$(chrome shot "$work/empty.html")
		chrome dom "$work/p$n.html" > /dev/null
		drawn=$(sed -n 's/.* data-drawn-ms="\([0-9]*\)".*/\1/p' \
			"$work/dom" | head -n 1)
		[ -n "$drawn" ] || { failed=1; say "FAILED: no data-drawn-ms"; }
		echo "$n $judged $bytes $data $secs $shot $empty ${drawn:-0}" \
			>> "$work/rows"
		r=$((r + 1))
	done
done

# med N COLUMN: the median of a column over the rounds of size N
med() {
	awk -v n="$1" -v c="$2" '$1 == n { print $c }' "$work/rows" | summary |
		cut -d' ' -f1
}

cat <<EOF
Measured $(date -u '+%Y-%m-%d %H:%M UTC'), at commit \
$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown), \
with $(version "$browser" 2>/dev/null || echo "$browser").

The profiles of \`bench/gen-profile.sh N\` (as in *The command at 10k,
100k and 1M sites*); \`likelyprof report --format html\` of each, with
every site it judges (the copies of a line folded) in the page's data
and one page of rows in its markup.  Each of $BENCH_HTML_ROUNDS rounds
opens the page in headless Chromium (window 1400 × 1000) three times:
for a screenshot, so the page is parsed, drawn by its script, laid out
and painted; for a screenshot of an empty page, the browser's own start
and end; and for the DOM, in which the page's script leaves the
milliseconds from the start of navigation to the end of its first
drawing, a layout included (\`data-drawn-ms\`, \`performance.now()\`).
Medians of the rounds.

| sites in the profile | judged, in the page | page (MB) | bytes per site | of which data | writing it (s) | Chromium, page shown (s) | Chromium, empty page (s) | drawn by the script (ms) | under 3 s |
|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|
EOF
for n in $BENCH_HTML_SIZES; do
	set -- $(awk -v n="$n" '$1 == n { print $2, $3, $4, $5; exit }' \
		"$work/rows")
	shot=$(med "$n" 6)
	awk -v n="$n" -v j="$1" -v b="$2" -v d="$3" -v w="$(med "$n" 5)" \
		-v s="$shot" -v e="$(med "$n" 7)" -v m="$(med "$n" 8)" 'BEGIN {
		printf "| %d | %d | %.1f | %.0f | %.0f | %.2f | %.2f |" \
			" %.2f | %.0f | %s |\n", n, j, b / 1e6, b / j, d / j, \
			w, s, e, m, s < 3 ? "**met**" : "**not met**"
	}'
done
rm -f "$work"/p*.lprof
exit "$failed"
