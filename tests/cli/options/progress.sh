#!/bin/sh
# Progress goes to stderr, only on a terminal or with --progress, and only
# for work that outlasts LIKELYPROF_PROGRESS_DELAY (2 s; 0 here, so that
# these small inputs show it): a line per step where stderr is a file,
# one line rewritten in place and cleared on a terminal.  The results on
# stdout are the same with it and without.
cp "$LP_TEST_DATA/seeds/001.txt" a.txt
cp "$LP_TEST_DATA/seeds/002.txt" b.txt
$LIKELYPROF check a.txt b.txt > plain.out 2> plain.err
LIKELYPROF_PROGRESS_DELAY=0 $LIKELYPROF check --progress a.txt b.txt \
	> prog.out 2> prog.err
cmp -s plain.out prog.out && echo "check: stdout the same"
echo "check --progress, stderr but the summary:"
grep -v ' sites\? to change\| nothing to change' prog.err
echo "check without --progress off a terminal:"
grep -c 'reading' plain.err
echo "check --progress within the delay:"
$LIKELYPROF check --progress a.txt b.txt 2>&1 >/dev/null | grep -c reading

LIKELYPROF_PROGRESS_DELAY=0 $LIKELYPROF report a.txt --progress \
	> rep.out 2> rep.err
$LIKELYPROF report a.txt > rep.plain
cmp -s rep.out rep.plain && echo "report: stdout the same"
echo "report --progress:"
cat rep.err

printf '#include <unistd.h>\n#include <sys/wait.h>\nint main(void) { int i; for (i = 0; i < 3; i++) if (__builtin_expect(fork() == 0, 0)) return 0; while (wait(0) > 0); return 0; }\n' > forks.c
$LIKELYPROF cc forks.c -o forks || exit 1
LIKELYPROF_PROGRESS_DELAY=0 $LIKELYPROF run --progress -o f.lprof -- ./forks \
	2> run.err
echo "run --progress:"
sed 's/[0-9] read/N read/' run.err | grep gathering | sort -u

# on a terminal (script(1) gives one): rewritten and cleared, not lines
if command -v script > /dev/null 2>&1; then
	LIKELYPROF_PROGRESS_DELAY=0 script -qec \
		"$LIKELYPROF check a.txt b.txt > /dev/null" /dev/null > tty.out
	if grep -q "$(printf '\r')likelyprof: reading b.txt (2 of 2)" tty.out &&
	   grep -q "$(printf '\033')\[K" tty.out; then
		echo "terminal: rewritten in place and cleared"
	else
		echo "terminal: no progress line"
	fi
else
	echo "terminal: rewritten in place and cleared"
fi
