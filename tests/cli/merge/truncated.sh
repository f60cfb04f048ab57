#!/bin/sh
# A profile cut short (no end record, or a last line without newline) is
# refused, exit 2, and OUT is not touched.
printf 'likelyprof-profile\t1\nsite\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\n' > cut1.lprof
printf 'likelyprof-profile\t1\nsite\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\nend\t1' > cut2.lprof
echo old > out.lprof
"$LIKELYPROF" merge -o out.lprof cut1.lprof
echo "exit $?"
"$LIKELYPROF" merge -o out.lprof cut2.lprof
echo "exit $?"
cat out.lprof
ls
