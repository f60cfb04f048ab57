#!/bin/sh
# An input that does not exist is an error naming it.
"$LIKELYPROF" merge -o out.lprof "$LP_TEST_DATA/seeds/004.txt" gone.lprof
