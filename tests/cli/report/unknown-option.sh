#!/bin/sh
# An unknown option is one line on stderr and exit status 2.
"$LIKELYPROF" report --bogus "$LP_TEST_DATA/seeds/004.txt"
