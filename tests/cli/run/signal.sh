#!/bin/sh
# A program killed by a signal: run exits 128+N; a program not built with
# likelyprof: a warning, and its status; errors of run itself exit 2.
printf '#include <signal.h>\nint main(void) { raise(SIGTERM); return 0; }\n' > k.c
$LIKELYPROF cc k.c -o k || exit 1
$LIKELYPROF run -- ./k
echo "exit $?"
$LIKELYPROF run -- true
echo "exit $?"
$LIKELYPROF run -- ./no-such-program
echo "exit $?"
$LIKELYPROF run
echo "exit $?"
$LIKELYPROF run --bogus ./k
echo "exit $?"
