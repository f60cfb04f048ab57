#!/bin/sh
# A profile that does not exist, or cannot be read, is an error naming it.
"$LIKELYPROF" report no-such.lprof
echo "exit $?"
"$LIKELYPROF" report "$LP_TEST_DATA/seeds/004.txt" .
echo "exit $?"
"$LIKELYPROF" report
