#!/bin/sh
# '-o -' writes standard output, and '-' reads standard input.
"$LIKELYPROF" merge -o - - < "$LP_TEST_DATA/seeds/004.txt"
