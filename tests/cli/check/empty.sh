#!/bin/sh
# A profile with no site gives check and fix nothing to judge: an error
# naming it and status 2, as report does, not a clean "0 of 0".
printf 'likelyprof-profile\t1\nend\t0\n' > empty.lprof
"$LIKELYPROF" check empty.lprof
echo "exit $?"
"$LIKELYPROF" fix --src . empty.lprof
echo "exit $?"
