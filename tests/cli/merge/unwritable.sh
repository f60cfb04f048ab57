#!/bin/sh
# An output that cannot be written is an error, exit 2, with no temporary
# file left behind.
"$LIKELYPROF" merge -o no/such/dir/out.lprof "$LP_TEST_DATA/seeds/004.txt"
echo "exit $?"
mkdir out.lprof
"$LIKELYPROF" merge -o out.lprof "$LP_TEST_DATA/seeds/004.txt"
echo "exit $?"
ls -A . out.lprof
