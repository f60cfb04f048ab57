#!/bin/sh
# Several inputs are merged first, row by row in order within a key: the
# same table twice doubles every count; "-" reads standard input.
"$LIKELYPROF" report "$LP_TEST_DATA/seeds/003.txt" - \
	< "$LP_TEST_DATA/seeds/003.txt"
