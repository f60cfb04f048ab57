#!/bin/sh
# fix-race.sh - fix --apply loses no edit made while it runs
#
# A tree of 300 files, each with a hint the profile says is wrong, and an
# editor appending to one of them at a moment that moves through the run
# of `fix --apply` over all 300, LP_FIX_RACE_RUNS times (default 12; 100
# by hand).
# Whatever fix answers, every line the editor wrote must be in the file at
# the end, and fix either applied its 300 edits (exit 0) or left every
# file as it was (exit 2, naming the file that moved).  No temporary or
# second name of fix's may stay in the tree.  Then two runs of fix
# --apply at once on one tree: one writes, the other stops without
# touching the first's temporaries, and the tree ends edited once.
. "$(dirname "$0")/lib.sh"

runs=${LP_FIX_RACE_RUNS:-12}
base=$SCRATCH/base
mkdir -p "$base/src"
printf '#define unlikely(x) __builtin_expect(!!(x), 0)\n' > "$base/src/hint.h"
{
	printf ' correct incorrect  %%        Function             File              Line\n'
	printf ' ------- ---------  -        --------             ----              ----\n'
	i=100
	while [ $i -lt 400 ]; do
		printf '#include "hint.h"\nint f%d(int x)\n{\n\tif (unlikely(x > 3))\n\t\treturn 1;\n\treturn 0;\n}\n' \
			$i > "$base/src/f$i.c"
		printf '       0  1000000 100 f%-30d f%d.c %12d\n' $i $i 4
		i=$((i + 1))
	done
} > "$SCRATCH/table.txt"

edited=0 restored=0
r=0
while [ $r -lt "$runs" ]; do
	r=$((r + 1))
	t=$SCRATCH/t$r
	cp -R "$base" "$t"
	(
		# one save at a moment that moves through fix's run
		sleep "$(awk -v r=$r 'BEGIN { printf "%.2f", (r * 0.17) % 2 }')"
		n=0
		while [ $n -lt 3 ] && [ ! -e "$t.stop" ]; do
			echo "/* editor $n */" >> "$t/src/f250.c"
			n=$((n + 1))
		done
		echo $n > "$t.count"
	) &
	editor=$!
	"$LIKELYPROF" fix --apply --src "$t" "$SCRATCH/table.txt" \
		> "$t.out" 2> "$t.err"
	rc=$?
	touch "$t.stop"
	wait $editor
	lines=$(grep -c '/\* editor' "$t/src/f250.c")
	wrote=$(cat "$t.count")
	[ "$lines" = "$wrote" ] || fail "run $r: $lines of the editor's $wrote lines kept (fix exit $rc)"
	left=$(find "$t" -name '.*.lp-*' | wc -l)
	[ "$left" = 0 ] || fail "run $r: $left temporaries left"
	hints=$(cat "$t"/src/f*.c | grep -c 'unlikely(')
	case $rc in
	0)	edited=$((edited + 1))
		[ "$hints" = 0 ] || fail "run $r: exit 0 with $hints hints left" ;;
	2)	restored=$((restored + 1))
		[ "$hints" = 300 ] || fail "run $r: exit 2 with $hints of 300 hints"
		grep -q "changed while fix ran" "$t.err" ||
			fail "run $r: exit 2 without naming the change: $(cat "$t.err")" ;;
	*)	fail "run $r: exit $rc: $(cat "$t.err")" ;;
	esac
	rm -rf "$t"
done
note "$runs racing runs: $edited applied, $restored put back, no line lost"

# two fix --apply at once
t=$SCRATCH/both
cp -R "$base" "$t"
"$LIKELYPROF" fix --apply --src "$t" "$SCRATCH/table.txt" > /dev/null 2> "$t.e1" &
one=$!
"$LIKELYPROF" fix --apply --src "$t" "$SCRATCH/table.txt" > /dev/null 2> "$t.e2"
rc2=$?
wait $one
rc1=$?
hints=$(cat "$t"/src/f*.c | grep -c 'unlikely(')
[ "$hints" = 0 ] || fail "two runs: $hints hints left (exits $rc1, $rc2)"
grep -h "cannot replace" "$t.e1" "$t.e2" && fail "two runs: a run lost its temporaries"
[ "$rc1" = 0 ] || [ "$rc2" = 0 ] || fail "two runs: neither wrote (exits $rc1, $rc2)"
left=$(find "$t" -name '.*.lp-*' | wc -l)
[ "$left" = 0 ] || fail "two runs: $left temporaries left"
exit $FAILED
