#!/bin/sh
# Usage mistakes: no -o, no input, an unknown option; each is one line on
# stderr and exit status 2.  --help goes to stdout.
"$LIKELYPROF" merge "$LP_TEST_DATA/seeds/004.txt"
echo "exit $?"
"$LIKELYPROF" merge -o out.lprof
echo "exit $?"
"$LIKELYPROF" merge -x -o out.lprof "$LP_TEST_DATA/seeds/004.txt"
echo "exit $?"
"$LIKELYPROF" merge --help | head -1
ls
