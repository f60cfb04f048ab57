#!/bin/sh
# A profile of another format version is refused, exit 2, and OUT is not
# touched.
printf 'likelyprof-profile\t2\nend\t0\n' > new.lprof
echo old > out.lprof
"$LIKELYPROF" merge -o out.lprof "$LP_TEST_DATA/seeds/004.txt" new.lprof
echo "exit $?"
cat out.lprof
ls
