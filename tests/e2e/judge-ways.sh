#!/bin/sh
# judge-ways.sh - judge gives each exact site the votes and ways of its
# processes, as run's merge of an instrumented build does, so that check
# tells a hint that follows a setting of the process from one that
# follows the data from the binary alone
#
# judge/mode.c reads MODE from the environment: the hint on it goes one
# way all through each process, the other follows the data.  Run as
# three processes with MODE set and one without (valgrind follows the
# shell's children, one callgrind file a process), judged plainly with
# gcc and clang, it checks that:
#   - both sites are exact and their votes and ways (the last fields of
#     their records) are those of the instrumented build's profile;
#   - check says the mode's hint followed a setting, with the process
#     counts, and flips nothing there;
#   - one process alone says it is too few to tell.
. "$(dirname "$0")/lib.sh"

judge_setup
cp "$E2E_DIR/judge/mode.c" .
runs='for i in 1 2 3; do MODE=1 ./P; done; ./P'

# ways PROFILE: "line votes-right votes-wrong right wrong both" per site
ways() {
	awk -F'\t' '$1 == "site" { print $7, $12, $13, $16, $17, $18 }' "$1" |
		sort
}

$LIKELYPROF cc -O2 $(san_flags) mode.c -o inst || fail "instrumented build"
$LIKELYPROF run -o inst.lprof -- sh -c "$(echo "$runs" | sed 's|P|inst|g')" \
	> /dev/null 2>&1 || fail "instrumented run"
ways inst.lprof > inst.ways

for cc in gcc clang; do
	command -v $cc > /dev/null 2>&1 || { note "no $cc"; continue; }
	g=-g
	[ $cc = clang ] && g=-gdwarf-4
	$cc -O2 $g mode.c -o plain-$cc || { fail "$cc build"; continue; }
	$LIKELYPROF judge -o $cc.lprof -- \
		sh -c "$(echo "$runs" | sed "s|P|plain-$cc|g")" > /dev/null \
		2> err-$cc || fail "$cc: judge failed: $(cat err-$cc)"
	n=$(awk -F'\t' '$1 == "site" && $11 == "exact"' $cc.lprof | wc -l)
	[ "$n" = 2 ] || fail "$cc: $n of 2 sites exact"
	ways $cc.lprof > $cc.ways
	cmp -s inst.ways $cc.ways ||
		fail "$cc: votes and ways '$(tr '\n' ';' < $cc.ways)', instrumented '$(tr '\n' ';' < inst.ways)'"
	$LIKELYPROF check $cc.lprof > $cc.check 2>&1
	grep -q 'mode\.c:22: note: unlikely(verbose) in step() followed a setting: true all through each of 3 processes and false all through its 1 process' $cc.check ||
		fail "$cc: check on the mode's hint: $(cat $cc.check)"
	! grep -q 'likelyprof-flip' $cc.check ||
		fail "$cc: a flip from a setting: $(cat $cc.check)"
	$LIKELYPROF judge -o one-$cc.lprof -- env MODE=1 ./plain-$cc \
		> /dev/null 2>&1 || fail "$cc: judge of one process"
	$LIKELYPROF check one-$cc.lprof 2>&1 | grep -q 'too few to tell a setting' ||
		fail "$cc: one process is called more than too few"
done
finish
