#!/bin/sh
# judge.sh - `likelyprof judge` on an unmodified -O2 -g binary agrees with
# an instrumented build of the same source, and changes nothing it is
# unsure of
#
# judge/prog.c has four hints alone on their lines (one right, one wrong
# 75% of the time, one backwards, one in a project's own macro) and two
# joined by || on one line.  For gcc and clang (-gdwarf-4: valgrind 3.19
# cannot read clang 14's DWARF 5) it checks that:
#   - the four lone hints are exact, their counts are the instrumented
#     build's to the unit, and check's verdict on each is the
#     verdict on the instrumented build's counts;
#   - the two joined hints are ambiguous and get no remove or flip, though
#     the instrumented build removes one of them;
#   - the judged profile goes through report, merge and fix: fix's patch
#     touches the two lone wrong hints only and applies;
#   - a program whose DWARF 5 valgrind cannot read is one clear error.
. "$(dirname "$0")/lib.sh"

# In the sanitized pass judge itself (the command) is sanitized; the
# programs it judges are plain, as valgrind cannot run sanitized code,
# and the instrumented reference is built sanitized, as it must be to
# load the sanitized runtime.
judge_setup

$LIKELYPROF cc -O2 $(san_flags) prog.c -o inst || fail "instrumented build"
$LIKELYPROF run -o inst.lprof -- ./inst > /dev/null 2>&1 ||
	fail "instrumented run"
verdicts inst.lprof > inst.v

for cc in gcc clang; do
	command -v $cc > /dev/null 2>&1 || { note "no $cc"; continue; }
	g=-g
	[ $cc = clang ] && g=-gdwarf-4
	$cc -O2 $g prog.c -o plain-$cc || { fail "$cc build"; continue; }
	$LIKELYPROF judge -o $cc.lprof -- ./plain-$cc > out-$cc 2> err-$cc ||
		fail "$cc: judge failed: $(cat err-$cc)"
	[ "$(cat out-$cc)" = 137060 ] ||
		fail "$cc: the program's output changed: $(cat out-$cc)"
	grep -q '^meta	origin	judge-valgrind$' $cc.lprof ||
		fail "$cc: no origin in the profile"
	for line in 19 21 23 25; do
		sure=$(awk -F'\t' -v l=$line '$1 == "site" && $7 == l {
			print $11 }' $cc.lprof)
		[ "$sure" = exact ] ||
			fail "$cc: line $line is '$sure', not exact"
	done
	[ "$(awk -F'\t' '$1 == "site" && $7 == 27 { print $11 }' \
	    $cc.lprof | sort -u)" = ambiguous ] ||
		fail "$cc: the || line is not ambiguous"
	for line in 19 21 23 25; do
		want=$(awk -F'\t' -v l=$line '$1 == "site" && $7 == l {
			print $2, $3 }' inst.lprof)
		got=$(awk -F'\t' -v l=$line '$1 == "site" && $7 == l {
			print $2, $3 }' $cc.lprof)
		[ -n "$want" ] && [ "$want" = "$got" ] ||
			fail "$cc: line $line counts '$got', instrumented '$want'"
	done
	verdicts $cc.lprof > $cc.v
	for line in 19 21 23 25; do
		want=$(grep "^$line " inst.v)
		got=$(grep "^$line " $cc.v)
		[ "$want" = "$got" ] ||
			fail "$cc: line $line judged '$got', instrumented '$want'"
	done
	# the instrumented build removes one of line 27's hints: judge may not
	if grep -q '^27 \(remove\|flip\)' $cc.v; then
		fail "$cc: a change from an ambiguous site: $(grep ^27 $cc.v)"
	fi
	grep -q '^27 remove' inst.v ||
		fail "the instrumented build no longer removes a hint of line 27"
	$LIKELYPROF check $cc.lprof > /dev/null
	[ $? = 1 ] || fail "$cc: check does not exit 1 on the wrong hints"
	$LIKELYPROF report $cc.lprof > /dev/null || fail "$cc: report failed"
	$LIKELYPROF merge -o both.lprof $cc.lprof inst.lprof ||
		fail "$cc: merge failed"
	[ "$(awk -F'\t' '$1 == "site" && $7 == 27 { print $11 }' \
	    both.lprof | sort -u)" = ambiguous ] ||
		fail "$cc: merge lost the ambiguity of line 27"
	$LIKELYPROF fix --src . $cc.lprof > $cc.mbox 2> fix-err ||
		fail "$cc: fix failed: $(cat fix-err)"
	lines=$(grep '^@@' $cc.mbox | sed 's/^@@ -\([0-9]*\).*/\1/' | sort -u |
		tr '\n' ' ')
	grep -q '^-.*unlikely(i % 4 != 0)' $cc.mbox ||
		fail "$cc: fix does not remove line 21's hint"
	grep -q '^-.*likely(argv\[0\]\[0\]' $cc.mbox ||
		fail "$cc: fix does not flip line 23's hint"
	if grep -q '^-.*i % 7' $cc.mbox; then
		fail "$cc: fix changes the ambiguous line 27"
	fi
	git apply --check $cc.mbox 2> /dev/null ||
		fail "$cc: the patch does not apply (hunks at $lines)"
done

# clang 14's default DWARF 5 in a program of two units makes valgrind
# 3.19 give up ("Possibly corrupted debuginfo"), leaving an empty output:
# judge must say why and what to do, not write an empty profile.  A
# valgrind that reads it judges the program instead.
if command -v clang > /dev/null 2>&1; then
	printf 'int f(int x);\nint main(int c, char **v) { (void)v; return f(c) - 1; }\n' > two-main.c
	printf 'int f(int x) { return __builtin_expect(x > 5, 0) ? 2 : x; }\n' > two-f.c
	clang -O2 -gdwarf-5 two-main.c two-f.c -o two || fail "clang two-unit build"
	if $LIKELYPROF judge -o two.lprof -- ./two > out 2> err; then
		note "this valgrind reads clang's DWARF 5: not checked"
	else
		grep -q "DWARF 5.*build it with -gdwarf-4" err ||
			fail "DWARF 5: stderr '$(tail -n 2 err)'"
		[ ! -e two.lprof ] || fail "DWARF 5: a profile was written"
	fi
fi
finish
