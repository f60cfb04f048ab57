#!/bin/sh
# judge-perf.sh - `likelyprof judge --perf-script` on branch samples made
# from the exact trace of a run agrees with the exact route
#
# This machine has no PMU, so judge/lbr-synth.c turns the instruction
# trace of valgrind's lackey into perf script's branch records: a sample
# every 200 taken branches (give or take a quarter, a fixed seed), 32
# records deep, as Intel's LBR.  For gcc (its mapping moved, as a
# position-independent binary's is, with an mmap event) and clang, on
# judge/prog.c, it checks that:
#   - the four lone hints are estimated, and the || line ambiguous;
#   - the exact wrong fraction of each lone hint (judge's valgrind route)
#     lies within its 95% interval (check --format json);
#   - check's verdicts equal those on the exact counts.
. "$(dirname "$0")/lib.sh"

judge_setup
# the helper is plain even in the sanitized pass: it only makes data
cc -O2 -o synth "$E2E_DIR/judge/lbr-synth.c" || fail "lbr-synth build"

# "LINE LOW HIGH" of each sampled site, from check's JSON
intervals() {
	$LIKELYPROF check --all --format json "$1" | tr '{}' '\n\n' |
		sed -n 's/.*"profile_line": \([0-9]*\).*"wrong_low": \([0-9.]*\), "wrong_high": \([0-9.]*\).*/\1 \2 \3/p'
}

for cc in gcc clang; do
	command -v $cc > /dev/null 2>&1 || { note "no $cc"; continue; }
	g=-g
	[ $cc = clang ] && g=-gdwarf-4
	# lackey sees a fixed-address binary where the kernel would place it
	$cc -O2 $g -no-pie prog.c -o plain-$cc || { fail "$cc build"; continue; }
	$LIKELYPROF judge -o exact-$cc.lprof -- ./plain-$cc > /dev/null \
		2> err || fail "$cc: judge failed: $(cat err)"
	map=
	if [ $cc = gcc ]; then
		# the text segment: START LEN PGOFF, then a shift and a path
		map=$(readelf -lW plain-$cc | awk '$1 == "LOAD" && /R E/ {
			printf "%s %s %s", $3, $6, $2 }')
		map="$map 0x555554000000 /elsewhere/plain-$cc"
	fi
	# without chasing, lackey's trace of a conditional exit is exact; a
	# fixed environment, as the loader's branches before main() move
	# where the samples fall
	env -i PATH=/usr/bin:/bin valgrind --tool=lackey --trace-mem=yes --vex-guest-chase=no \
		--log-fd=3 ./plain-$cc 3>&1 > /dev/null |
		./synth 200 7 32 $map > $cc.script ||
		fail "$cc: no samples made"
	$LIKELYPROF judge --perf-script $cc.script -o est-$cc.lprof \
		./plain-$cc 2> err || fail "$cc: judge --perf failed: $(cat err)"
	grep -q '^meta	origin	judge-perf$' est-$cc.lprof ||
		fail "$cc: no origin judge-perf"
	for line in 19 21 23 25; do
		sure=$(awk -F'\t' -v l=$line '$1 == "site" && $7 == l {
			print $11 }' est-$cc.lprof)
		[ "$sure" = estimated ] ||
			fail "$cc: line $line is '$sure', not estimated"
	done
	[ "$(awk -F'\t' '$1 == "site" && $7 == 27 { print $11 }' \
	    est-$cc.lprof | sort -u)" = ambiguous ] ||
		fail "$cc: the || line is not ambiguous"
	intervals est-$cc.lprof > $cc.iv
	for line in 19 21 23 25; do
		wrong=$(awk -F'\t' -v l=$line '$1 == "site" && $7 == l {
			printf "%.6f", 100 * $3 / ($2 + $3) }' exact-$cc.lprof)
		iv=$(grep "^$line " $cc.iv)
		[ -n "$iv" ] || { fail "$cc: line $line has no interval"; continue; }
		echo "$iv $wrong" | awk '{ exit !($2 <= $4 && $4 <= $3) }' ||
			fail "$cc: line $line: exact $wrong% outside '$iv'"
	done
	verdicts exact-$cc.lprof > exact-$cc.v
	verdicts est-$cc.lprof > est-$cc.v
	for line in 19 21 23 25; do
		want=$(grep "^$line " exact-$cc.v)
		got=$(grep "^$line " est-$cc.v)
		[ "$want" = "$got" ] ||
			fail "$cc: line $line judged '$got' from samples, '$want' exactly"
	done
	if grep -q '^27 \(remove\|flip\)' est-$cc.v; then
		fail "$cc: a change from an ambiguous site: $(grep ^27 est-$cc.v)"
	fi
done
finish
