#!/bin/sh
# Option values are checked: each mistake is one line and exit status 2.
for args in "--format xml" "--group file" "--top -1" "--min-hits ten" \
	"--top="; do
	# shellcheck disable=SC2086
	"$LIKELYPROF" report $args "$LP_TEST_DATA/seeds/004.txt"
	echo "exit $?"
done
