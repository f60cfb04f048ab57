#!/bin/sh
# A profile without sites has nothing to report: an error, exit 2.
printf 'likelyprof-profile\t1\nend\t0\n' > none.lprof
"$LIKELYPROF" report none.lprof
echo "exit $?"
: > zero.lprof
"$LIKELYPROF" report zero.lprof
