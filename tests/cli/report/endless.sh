#!/bin/sh
# An endless input (/dev/zero) ends in one clear error, not in the
# memory running out: the reader stops at the first NUL it reads.
"$LIKELYPROF" report /dev/zero
echo "exit $?"
