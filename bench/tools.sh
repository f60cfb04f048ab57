#!/bin/sh
# tools.sh - what the command costs as profiles grow: report (the kernel's
# layout), report --group line, merge of several machines' profiles and
# check, each on generated profiles of 10k, 100k and 1M sites, run
# interleaved, with median wall-clock and CPU time, peak memory and the
# cost per site.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a command fails or prints what it should not; a
# target missed is reported, not a failure.
#
# Knobs (environment):
#   BENCH_TOOLS_SIZES="10000 100000 1000000"  sites per profile, smallest
#                                   first; the last is the big size
#   BENCH_TOOLS_MACHINES=8          profiles merged, one per machine
#   BENCH_TOOLS_ROUNDS=7            timed rounds, each runs every command
#                                   at every size once
#   BENCH_TOOLS_BIG_ROUNDS=3        how many of them run the big size too
#                                   (~5 s a round at 1M sites)
#   BENCH_TOOLS_BIG_MERGES=2        and how many its merge (~11 s a run)
#   BENCH_TOOLS_KEEP=0              1 keeps the profiles (~1 GB at 1M)
#   LIKELYPROF=./likelyprof         the command measured
. "$(dirname "$0")/lib.sh"
: "${BENCH_TOOLS_SIZES:=10000 100000 1000000}"
: "${BENCH_TOOLS_MACHINES:=8}"
: "${BENCH_TOOLS_ROUNDS:=7}"
: "${BENCH_TOOLS_BIG_ROUNDS:=3}"
: "${BENCH_TOOLS_BIG_MERGES:=2}"
: "${BENCH_TOOLS_KEEP:=0}"
: "${LIKELYPROF:=$root/likelyprof}"

work=$BENCH_BUILD/tools
times=$work/times               # COMMAND SITES WALL CPU, one run a line
rss=$work/rss                   # COMMAND SITES KIB, one run a line
cmds="report line merge check"
machines=$BENCH_TOOLS_MACHINES
# big: the biggest size; mid: the one before it
set -- $BENCH_TOOLS_SIZES
if [ $# -lt 2 ]; then
	say "BENCH_TOOLS_SIZES: give two sizes or more"
	exit 2
fi
eval "big=\${$#} mid=\${$(($# - 1))}"
failed=0

if [ ! -x "$LIKELYPROF" ]; then
	say "no $LIKELYPROF: build it with make"
	echo "Not measured: \`$LIKELYPROF\` was not built."
	exit 1
fi
rm -rf "$work"
mkdir -p "$work" || exit 1
# GNU time's -f %M, the peak resident set in KiB
use_time=0
if /usr/bin/time -f %M -o "$work/kib" true 2>/dev/null; then
	use_time=1
else
	say "no GNU /usr/bin/time: peak memory left out"
fi
: >"$times"
: >"$rss"
"$BENCH_GCC" -O2 -o "$work/timeit" "$here/timeit.c" || exit 1
# seconds since the epoch, to time whole steps
now() {
	date +%s
}

# --- the profiles

# Two generators at a time, one per core; the first call builds it.
say "generating profiles of $BENCH_TOOLS_SIZES sites, $machines machines"
"$here/gen-profile.sh" 1 >/dev/null || {
	fail "cannot build bench/gen-profile.c"
	exit 1
}
gen_start=$(now)
pids=
running=0
reap() {
	for p in $pids; do
		wait "$p" || fail "gen-profile.sh failed"
	done
	pids=
	running=0
}
for n in $BENCH_TOOLS_SIZES; do
	mkdir -p "$work/$n" || exit 1
	m=1
	while [ "$m" -le "$machines" ]; do
		"$here/gen-profile.sh" "$n" "$m" >"$work/$n/m$m.lprof" &
		pids="$pids $!"
		running=$((running + 1))
		[ "$running" -lt 2 ] || reap
		m=$((m + 1))
	done
done
reap
gen_secs=$(($(now) - gen_start))
[ "$failed" = 0 ] || exit 1

# end_count FILE: the count of a profile's end record
end_count() {
	tail -n 1 "$1" | sed -n 's/^end	//p'
}

for n in $BENCH_TOOLS_SIZES; do
	got=$(end_count "$work/$n/m1.lprof")
	[ "$got" = "$n" ] || fail "machine 1's profile has $got sites, not $n"
done

# --- timed runs

# run COMMAND N ROUND: one run; round 0 is untimed and keeps the output.
# The untimed round and every run of the big size go through
# /usr/bin/time for their peak memory: it adds ~1.5 ms, noise at 1M
# sites but not at 10k, so smaller sizes are timed without it.
run() {
	c=$1
	n=$2
	r=$3
	in=$work/$n
	out=/dev/null
	[ "$r" = 0 ] && out=$in/$c.out
	want=0
	case $c in
	report) set -- report "$in/m1.lprof" ;;
	line) set -- report --group line "$in/m1.lprof" ;;
	merge) set -- merge -o "$in/merged.lprof" "$in"/m[0-9]*.lprof ;;
	check) set -- check "$in/m1.lprof"; want=1 ;;
	esac
	if [ "$use_time" = 1 ] && { [ "$r" = 0 ] || [ "$n" = "$big" ]; }; then
		set -- /usr/bin/time -f %M -o "$work/kib" "$LIKELYPROF" "$@"
	else
		set -- "$LIKELYPROF" "$@"
	fi
	rm -f "$work/kib"
	secs=$("$work/timeit" "$out" "$work/err" "$@")
	status=$?
	if [ "$status" != "$want" ]; then
		fail "$c, $n sites: exit status $status:" \
			"$(head -n 3 "$work/err")"
		return
	fi
	# GNU time puts "Command exited with non-zero status" first
	[ -s "$work/kib" ] && echo "$c $n $(tail -n 1 "$work/kib")" >>"$rss"
	[ "$r" = 0 ] || echo "$c $n $secs" >>"$times"
}

# verify N: what the untimed round printed is what it should be.
verify() {
	n=$1
	in=$work/$n
	rows=$(($(wc -l <"$in/report.out") - 2))
	[ "$rows" = "$n" ] || fail "report, $n sites: $rows rows"
	lines=$(($(wc -l <"$in/line.out") - 2))
	[ "$lines" -gt 0 ] && [ "$lines" -le "$n" ] ||
		fail "report --group line, $n sites: $lines rows"
	# check judges the folded sites: as many as --group line's rows
	summary=$(tail -n 1 "$in/check.out")
	judged=$(echo "$summary" |
		sed -n 's/^likelyprof: [0-9]* of \([0-9]*\) sites.*/\1/p')
	[ "$judged" = "$lines" ] ||
		fail "check, $n sites: '$summary', $lines lines"
	eval "summary_$n=\$summary lines_$n=\$lines"
	# the merge keeps every count: the totals of the inputs, summed
	totals=$(awk -F'\t' '$1 == "site" {
			t[FILENAME == out] += $2 + $3 + $4
		} END { printf "%.0f %.0f\n", t[0], t[1] }' \
		out="$in/merged.lprof" "$in"/m[0-9]*.lprof "$in/merged.lprof")
	[ "${totals% *}" = "${totals#* }" ] ||
		fail "merge, $n sites: counts in, counts out: $totals"
}

# One untimed round first, without the big size: caches, page faults of
# the first start, and every check once.  The big size's profiles were
# just written and are in the page cache; it has no untimed round, for
# time.
round=0
while [ "$round" -le "$BENCH_TOOLS_ROUNDS" ]; do
	case $round in
	0) say "untimed round" ;;
	*) say "round $round of $BENCH_TOOLS_ROUNDS" ;;
	esac
	for n in $BENCH_TOOLS_SIZES; do
		for c in $cmds; do
			if [ "$n" = "$big" ]; then
				last=$BENCH_TOOLS_BIG_ROUNDS
				[ "$c" = merge ] && last=$BENCH_TOOLS_BIG_MERGES
				[ "$round" != 0 ] && [ "$round" -le "$last" ] ||
					continue
			fi
			run "$c" "$n" "$round"
		done
		[ "$round" = 0 ] && [ "$n" != "$big" ] && verify "$n"
	done
	round=$((round + 1))
done
union=$(end_count "$work/$big/merged.lprof" 2>/dev/null)
[ "$BENCH_TOOLS_BIG_MERGES" = 0 ] || [ "${union:-0}" -ge "$big" ] ||
	fail "merge, $big sites: ${union:-no} sites out"
size_mb=$(awk -v b="$(wc -c <"$work/$big/m1.lprof")" \
	'BEGIN { printf "%.0f", b / 1e6 }')
# What the profiles hold, from the middle size: the same shares at every
# size, and cheaper to count.
shape=$(awk -F'\t' '$1 != "site" { next }
	{
		sites++
		files[$6] = 1
		funcs[$6 "\t" $8] = 1
		if ($6 != $9)
			copies++
		if ($2 + $3 == 0)
			never++
		if (length($10) > 100)
			long++
		if (index($10, "\\"))
			esc++
	}
	END {
		for (f in files)
			nf++
		for (f in funcs)
			nfn++
		printf "%d files, %d functions; %.0f%% of its records are", \
			nf, nfn, copies * 100 / sites
		printf " copies of static inlines, one per unit using them;"
		printf " %.0f%% never ran; %.0f%% of the conditions are", \
			never * 100 / sites, long * 100 / sites
		printf " over 100 bytes long and %.0f%% hold an escape\n", \
			esc * 100 / sites
	}' "$work/$mid/m1.lprof")
eval "mid_summary=\${summary_$mid:-}"
if [ "$BENCH_TOOLS_KEEP" != 1 ]; then
	for n in $BENCH_TOOLS_SIZES; do
		rm -f "$work/$n"/*.lprof
	done
fi

# --- the report

# label N: 10k, 1M
label() {
	awk -v n="$1" 'BEGIN {
		if (n >= 1e6 && n % 1e6 == 0)
			print n / 1e6 "M"
		else if (n >= 1e3 && n % 1e3 == 0)
			print n / 1e3 "k"
		else
			print n
	}'
}

# sites_in COMMAND N: the sites a command reads
sites_in() {
	case $1 in
	merge) echo $(($2 * machines)) ;;
	*) echo "$2" ;;
	esac
}

describe() {
	case $1 in
	report) echo "\`report\`" ;;
	line) echo "\`report --group line\`" ;;
	merge) echo "\`merge -o\` of $machines" ;;
	check) echo "\`check\`" ;;
	esac
}

# stats COMMAND N: "runs median-wall min max median-cpu median-KiB" of
# a command at a size; medians of an even count are the mean of the two
# in the middle.
stats() {
	for col in 3 4; do
		awk -v c="$1" -v n="$2" -v k="$col" \
			'$1 == c && $2 == n { print $k }' "$times" | sort -n |
			awk '{ v[NR] = $1 }
			END {
				h = int((NR + 1) / 2)
				med = NR % 2 ? v[h] : (v[h] + v[h + 1]) / 2
				printf "%d %s %s %s\n", NR, med, v[1], v[NR]
			}'
	done | awk 'NR == 1 { w = $2 " " $3 " " $4; runs = $1 }
		NR == 2 { cpu = $2 }
		END { print runs, w, cpu }'
	awk -v c="$1" -v n="$2" '$1 == c && $2 == n { print $3 }' "$rss" |
		sort -n | awk '{ v[NR] = $1 } END {
			print NR ? v[int((NR + 1) / 2)] : "-" }'
}

# All the numbers, one line per command and size:
# COMMAND N RUNS WALL MIN MAX CPU KIB
for c in $cmds; do
	for n in $BENCH_TOOLS_SIZES; do
		echo "$c $n $(stats "$c" "$n" | tr '\n' ' ')"
	done
done >"$work/stats"

table() {
	echo "| command | sites | runs | median (s) | min–max (s) |" \
		"CPU (s) | ns per site | × time of the size before |" \
		"peak memory (MiB) |"
	echo "|---|---:|---:|---:|---:|---:|---:|---:|---:|"
	prev_c=
	while read -r c n runs wall lo hi cpu kib; do
		if [ "$c" != "$prev_c" ]; then
			growth="—"
		else
			growth=$(awk -v a="$wall" -v b="$prev_wall" \
				'BEGIN { printf "%.1f×", a / b }')
		fi
		awk -v d="$(describe "$c")" -v n="$(label "$n")" -v r="$runs" \
			-v w="$wall" -v lo="$lo" -v hi="$hi" -v cpu="$cpu" \
			-v s="$(sites_in "$c" "$n")" -v g="$growth" \
			-v k="$kib" 'BEGIN {
			mem = k == "-" ? "—" : sprintf("%.0f", k / 1024)
			printf "| %s | %s | %d | %.3f | %.3f–%.3f | %.3f |" \
				" %.0f | %s | %s |\n", d, n, r, w, lo, hi, \
				cpu, w * 1e9 / s, g, mem
		}'
		prev_c=$c
		prev_wall=$wall
	done <"$work/stats"
}

# verdict WALL-OK CPU-OK: met when both measures say so, as in
# overhead.sh
verdict() {
	case $1$2 in
	11) echo "**met**" ;;
	10) echo "**unclear**: met by wall-clock time only" ;;
	01) echo "**unclear**: met by CPU time only" ;;
	*) echo "**not met**" ;;
	esac
}

# The linearity bound: from the size before the biggest to the biggest,
# the cost per site may grow by half (a hash table or a sort that outgrows
# the caches gets slower per site; a sort adds its log n) but no more.
LINEAR=1.5

# at_most A B: 1 if A <= B
at_most() {
	awk -v a="$1" -v b="$2" 'BEGIN { print a <= b ? 1 : 0 }'
}

targets() {
	echo "| target | measured | verdict |"
	echo "|---|---|---|"
	set -- $(awk -v b="$big" '$1 == "report" && $2 == b' "$work/stats")
	printf '| %s sites reported in under a second | median %.2f s,' \
		"$bigl" "$4"
	printf ' CPU %.2f s | %s |\n' "$7" "$(verdict \
		"$(at_most "$4" 0.999999)" "$(at_most "$7" 0.999999)")"
	for c in $cmds; do
		set -- $(awk -v c="$c" -v m="$mid" -v b="$big" '
			$1 == c && $2 == m { w0 = $4 / m; c0 = $7 / m }
			$1 == c && $2 == b { w1 = $4 / b; c1 = $7 / b }
			END { print w1 / w0, c1 / c0 }' "$work/stats")
		printf '| cost linear in sites: %s | cost per site at %s' \
			"$(describe "$c")" "$bigl"
		printf ' ÷ at %s: %.2f (CPU %.2f) | %s |\n' "$midl" "$1" "$2" \
			"$(verdict "$(at_most "$1" "$LINEAR")" \
				"$(at_most "$2" "$LINEAR")")"
	done
}

bigl=$(label "$big")
midl=$(label "$mid")
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)
set -- $BENCH_TOOLS_SIZES
cat <<EOF
Measured $(date -u '+%Y-%m-%d %H:%M UTC'), at commit $commit.

The inputs are made afresh by \`bench/gen-profile.c\` (through
\`bench/gen-profile.sh\`; ${gen_secs} s for all of them): for each size,
the profiles of one program as $machines machines ran it. They look like
real ones. The profile of $midl sites has $shape. Conditions are what the
preprocessor leaves (\`!!(p == ((void *)0))\`, nested hints, character
and string literals whose backslashes the format escapes, a raw TAB now
and then); counts run from 1 to billions, and \`check\` says of it
"${mid_summary#likelyprof: }". Machine 1 runs the full build, with
exactly the sites given; the others lack some optional files and run a
version of some files whose lines moved, so the profiles overlap mostly
but not fully: the $machines profiles of $bigl sites merge into $union.
A profile of $bigl sites is $size_mb MB.

The commands, each run as \`${LIKELYPROF#"$root"/}\`:

- \`report P\`, the kernel's layout, to \`/dev/null\`;
- \`report --group line P\`, the copies of each line folded, to
  \`/dev/null\`;
- \`merge -o OUT P1 … P$machines\`, the profiles of all machines, to a
  file;
- \`check P\` to \`/dev/null\`: it exits 1, as it should, since some
  annotations are wrong.

P is machine 1's profile. Each of $BENCH_TOOLS_ROUNDS rounds runs every
command once at every size (the four at $(label "$1"), then the four at the
next size, …), after an untimed round that also checks every output:
report's rows, the folded rows, the sites check judged, the counts the
merge kept. To keep the part near a minute, the $bigl runs are in the
first $BENCH_TOOLS_BIG_ROUNDS rounds only, its merge (the longest run by
far) in the first $BENCH_TOOLS_BIG_MERGES, and they have no untimed round: the
generator has just written their profiles, so they are in the page cache;
their exit statuses and the merge's sites are checked. Times are wall
clock of the whole process, taken by \`bench/timeit\`, beside CPU time
(user + system), which a busy machine disturbs less. Peak memory is the
maximum resident set that \`/usr/bin/time\` reports, from the untimed
round for the smaller sizes and around each timed run at $bigl (where its
~1.5 ms is noise, as it is not at 10k). **ns per site** is the median
time divided by the sites read (for \`merge\`, those of all $machines
inputs): it stays flat, and the time grows as the sites do, when the cost
is linear.

### Time and memory

$(table)

### Targets

$(targets)

Linear means here that a site costs at most ${LINEAR}× as much at $bigl
sites as at $midl, by wall-clock and by CPU time: a hash table or a sort
that outgrows the caches gets somewhat slower per site, and a sort adds
its log n, where a quadratic step would cost ten times as much. At the
smallest size the start of the process is a visible part of the time.
EOF
exit "$failed"
