#!/bin/sh
# A source that does not preprocess (its header is not on the options'
# -I) has hints judge cannot see: judge names the source, the
# compiler's own error and what to give, and does not call the tree one
# without hints.  With -I the hint is found (and never ran).
d=$(dirname "$0")
mkdir src && cp "$d/needs-header.c" src/ && cp -R "$d/inc" . || exit 2
${LP_TEST_CC:-cc} -O2 -g -Iinc src/needs-header.c -o prog || exit 2
lp=${LIKELYPROF:-likelyprof}
"$lp" judge --src src -o prog.lprof -- ./prog 2>&1 |
	sed "s|$PWD/||g; s|:[0-9]*:[0-9]*: fatal error: .*; its|: fatal error: (the compiler's words); its|"
echo "exit $?"
"$lp" judge --src src -I inc -o prog.lprof -- ./prog 2>&1
grep "^site" prog.lprof | cut -f 2,3,7,11
