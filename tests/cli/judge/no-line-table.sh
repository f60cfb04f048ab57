#!/bin/sh
# A binary without a line table (built without -g) gives judge nothing to
# put a jump on a line by: every hint would read unjudgeable, or never
# run.  judge says so, and how to build, with exit 2 and no profile
# written; the same source built with -g is judged (the hint never ran).
d=$(dirname "$0")
mkdir src && cp "$d/needs-header.c" src/ && cp "$d/inc/hint.h" src/ || exit 2
cc=${LP_TEST_CC:-cc}
$cc -O2 src/needs-header.c -o plain || exit 2
lp=${LIKELYPROF:-likelyprof}
"$lp" judge --src src -o plain.lprof -- ./plain
echo "exit $?"
[ -e plain.lprof ] && echo "a profile was written"
$cc -O2 -g src/needs-header.c -o withg || exit 2
"$lp" judge --src src -o withg.lprof -- ./withg 2> /dev/null
echo "exit $?"
grep "^site" withg.lprof | cut -f 2,3,7,11
