#!/bin/sh
# merge.sh - what merging a fleet costs: 8 profiles of 1M sites merged
# (the target: at most 0.6 s on the 2-core machine of RESULTS.md, what
# llvm-profdata takes for 8 x 1M counters), report of 1M sites (at most
# 0.5 s), and the peak memory of merging 1,000 and
# 10,000 small profiles, which must not grow with their number.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a command fails or merges wrong sums; a target
# missed is reported, not a failure.
#
# Knobs (environment):
#   BENCH_MERGE_SITES=1000000   sites per big profile
#   BENCH_MERGE_MACHINES=8      big profiles merged
#   BENCH_MERGE_ROUNDS=3        timed runs of each command (median)
#   BENCH_MERGE_SMALL=10000     small profiles (100 records each); the
#                               memory is also taken at a tenth of them
#   BENCH_MERGE_BEFORE=         another likelyprof (an older build), run
#                               beside LIKELYPROF for a before/after table
#   LIKELYPROF=./likelyprof     the command measured
. "$(dirname "$0")/lib.sh"
: "${BENCH_MERGE_SITES:=1000000}"
: "${BENCH_MERGE_MACHINES:=8}"
: "${BENCH_MERGE_ROUNDS:=3}"
: "${BENCH_MERGE_SMALL:=10000}"
: "${BENCH_MERGE_BEFORE:=}"
: "${LIKELYPROF:=$root/likelyprof}"

work=$BENCH_BUILD/merge
failed=0
if [ ! -x "$LIKELYPROF" ]; then
	echo "Not measured: \`$LIKELYPROF\` was not built."
	exit 1
fi
rm -rf "$work"
mkdir -p "$work/big" "$work/small" || exit 1
"$BENCH_GCC" -O2 -o "$work/timeit" "$here/timeit.c" || exit 1
/usr/bin/time -f %M true 2>/dev/null || {
	echo "Not measured: no GNU \`/usr/bin/time\` for peak memory."
	exit 1
}

say "generating $BENCH_MERGE_MACHINES profiles of $BENCH_MERGE_SITES sites"
m=1
while [ "$m" -le "$BENCH_MERGE_MACHINES" ]; do
	"$here/gen-profile.sh" "$BENCH_MERGE_SITES" "$m" \
		>"$work/big/m$m.lprof" || fail "gen-profile.sh failed"
	m=$((m + 1))
done
say "generating $BENCH_MERGE_SMALL small profiles"
awk -v n="$BENCH_MERGE_SMALL" -v dir="$work/small" 'BEGIN {
	for (i = 1; i <= n; i++) {
		f = sprintf("%s/p%05d.lprof", dir, i)
		printf "likelyprof-profile\t1\n" > f
		for (j = 0; j < 100; j++)
			printf "site\t%d\t%d\t0\t1\tf%02d.c\t%d\tfn%d\tf%02d.c\tc%d\n", \
				(i * 31 + j) % 1000, i % 7, int(j / 10), \
				j % 10 + 1, j, int(j / 10), j > f
		printf "end\t100\n" > f
		close(f)
	}
}' || fail "cannot write the small profiles"
ls "$work/small" | head -n $((BENCH_MERGE_SMALL / 10)) |
	sed "s|^|$work/small/|" >"$work/tenth.list"

# measure NAME CMD...: "WALL CPU KIB", medians of the rounds
measure() {
	name=$1
	shift
	: >"$work/runs"
	r=0
	while [ "$r" -lt "$BENCH_MERGE_ROUNDS" ]; do
		t=$("$work/timeit" /dev/null "$work/err" /usr/bin/time -f %M \
			-o "$work/kib" "$@") || {
			# in $(...): the caller sees the file, not fail's flag
			echo "$name: $(head -n 2 "$work/err")" >>"$work/failed"
			echo "- - -"
			return
		}
		echo "$t $(tail -n 1 "$work/kib")" >>"$work/runs"
		r=$((r + 1))
	done
	for col in 1 2 3; do
		cut -d' ' -f"$col" "$work/runs" | sort -n |
			awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
	done | paste -sd' '
}

# sums IN... OUT: the totals of the inputs and of the merge must agree
sums() {
	awk -F'\t' '$1 == "site" { t[FILENAME == out] += $2 + $3 + $4 }
		END { printf "%.0f %.0f\n", t[0], t[1] }' out="$1" "$@"
}

row() {
	lp=$1
	label=$2
	say "$label: merge of $BENCH_MERGE_MACHINES"
	set -- $(measure "merge ($label)" "$lp" merge -o "$work/out.lprof" \
		"$work"/big/m*.lprof)
	mw=$1 mc=$2 mk=$3
	s=$(sums "$work/out.lprof" "$work"/big/m*.lprof)
	[ "${s% *}" = "${s#* }" ] || fail "$label: merge lost counts: $s"
	say "$label: report"
	set -- $(measure "report ($label)" "$lp" report "$work/big/m1.lprof")
	rw=$1 rc=$2 rk=$3
	tk=- ak=-
	# a build before --files-from and folders cannot name 10,000 files
	if [ "$label" != before ]; then
		say "$label: merge of small profiles"
		set -- $(measure "merge tenth ($label)" "$lp" merge -o \
			"$work/small.lprof" --files-from "$work/tenth.list")
		tk=$3
		set -- $(measure "merge all ($label)" "$lp" merge -o \
			"$work/small.lprof" "$work/small")
		ak=$3
	fi
	awk -v l="$label" -v mw="$mw" -v mc="$mc" -v mk="$mk" -v rw="$rw" \
		-v rc="$rc" -v rk="$rk" -v tk="$tk" -v ak="$ak" 'BEGIN {
		mib = 1024
		printf "| %s | %.2f | %.2f | %.0f | %.2f | %.2f | %.0f |", \
			l, mw, mc, mk / mib, rw, rc, rk / mib
		if (tk == "-" || ak == "-")
			printf " — | — |\n"
		else
			printf " %.1f | %.1f |\n", tk / mib, ak / mib
	}'
	echo "$mw $rw" >"$work/last"
}

commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
{
	echo "| build | merge of $BENCH_MERGE_MACHINES: median (s) | CPU (s) |" \
		"peak (MiB) | report: median (s) | CPU (s) | peak (MiB) |" \
		"merge of $((BENCH_MERGE_SMALL / 10)): peak (MiB) |" \
		"merge of $BENCH_MERGE_SMALL: peak (MiB) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	if [ -n "$BENCH_MERGE_BEFORE" ]; then
		row "$BENCH_MERGE_BEFORE" before
	fi
	row "$LIKELYPROF" "commit $commit"
} >"$work/table"
if [ -s "$work/failed" ]; then
	while read -r line; do
		fail "$line"
	done <"$work/failed"
fi
set -- $(cat "$work/last")
verdict() {
	awk -v a="$1" -v b="$2" 'BEGIN { print a <= b ? "**met**" : "**not met**" }'
}
cat <<EOF
Measured $(date -u '+%Y-%m-%d %H:%M UTC'), at commit $commit: medians of
$BENCH_MERGE_ROUNDS runs each, wall clock and CPU time (user + system) by
\`bench/timeit\`, peak resident memory by \`/usr/bin/time\`.  The big
profiles are made by \`bench/gen-profile.c\`, $BENCH_MERGE_MACHINES machines
of one program with $BENCH_MERGE_SITES sites each (see the section above);
the small ones by awk, 100 records each, all of one key set.  "merge of
N" small profiles names a folder or a \`--files-from\` list: more than
256 inputs are merged 256 at a time through temporary files, so the
memory stays that of 256 inputs.

$(cat "$work/table")

| target | measured | verdict |
|---|---|---|
| merge of $BENCH_MERGE_MACHINES × $BENCH_MERGE_SITES sites in at most 0.6 s | $(printf '%.2f' "$1") s | $(verdict "$1" 0.6) |
| report of $BENCH_MERGE_SITES sites in at most 0.5 s | $(printf '%.2f' "$2") s | $(verdict "$2" 0.5) |

The before build, if any, is given by \`BENCH_MERGE_BEFORE\`; it has no
\`--files-from\` or folder operand, so its small merges are not run.
EOF
rm -rf "$work/big" "$work/small"
exit "$failed"
