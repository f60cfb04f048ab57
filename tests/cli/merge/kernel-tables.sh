#!/bin/sh
# Kernel tables merge too: seed 002 and seed 011 quote the same
# page_mapping() rows from one machine, so their sum doubles each of them,
# row by row in order within a key; mapping_unevictable is only in 002.
"$LIKELYPROF" merge -o - "$LP_TEST_DATA/seeds/002.txt" \
	"$LP_TEST_DATA/seeds/011.txt" > m.lprof
"$LIKELYPROF" report --group line m.lprof
grep -c '^site' m.lprof
