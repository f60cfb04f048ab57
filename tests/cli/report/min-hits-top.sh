#!/bin/sh
# --min-hits drops rows with fewer evaluations (the cover letter's
# signal_pending and trylock_page); --top keeps the first rows of the
# sorted table; both apply to folded rows.
"$LIKELYPROF" report --min-hits 10000 "$LP_TEST_DATA/seeds/001.txt"
"$LIKELYPROF" report --top 2 "$LP_TEST_DATA/seeds/008.txt"
"$LIKELYPROF" report --group line --min-hits 1000000 --top 0 \
	"$LP_TEST_DATA/seeds/011.txt"
