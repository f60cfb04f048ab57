#!/bin/sh
# judge checks the layout it reads counts by: a forward jump is taken when
# the hint was wrong only if the compiler put the expected side in the
# fall-through.  Line 7's jump of l.s falls through into a cold part (gcc's
# "f.cold") and jumps to the hot side, so by the layout its counts would
# read the wrong way round: the site is ambiguous, and judge says why.
# (Its counts are read by the lines its sides reach, through the jmp to
# line 8, the statement: the right way round, ambiguous all the same.)  Line 5 is laid
# out as usual and stays estimated.  One sample: into _start, line 5's
# jump falling through, line 7's taken, out through the ret.
d=$(dirname "$0")
cp "$d/t.c" "$d/l.s" . || exit 2
${LP_TEST_CC:-cc} -g -nostdlib -static -no-pie -Wl,-Ttext=0x401000 \
	-Wl,--build-id=none l.s -o l || exit 2
# the addresses of _start, its je, the je's target and the ret after it
set -- $(objdump -d --no-show-raw-insn l | awk '
	/<_start>:$/ { on = 1; print "0x" $1; next }
	on && /^$/ { on = 0 }
	on && $2 == "je" { print "0x" substr($1, 1, length($1) - 1), "0x" $3; je = 1 }
	on && je && $2 == "ret" { print "0x" substr($1, 1, length($1) - 1); exit }')
[ $# = 4 ] || { echo "cannot read l's layout: $*"; exit 2; }
printf ' 42 1000 %x %s/0x7f0000001005/P/-/-/0 %s/%s/P/-/-/0 0x7f0000001000/%s/P/-/-/0\n' \
	$(($4)) "$4" "$2" "$3" "$1" > l.txt
lp=${LIKELYPROF:-likelyprof}
"$lp" judge --perf-script l.txt -o l.lprof ./l || exit 1
grep '^site' l.lprof
"$lp" check --all --min-hits 1 l.lprof
