#!/bin/sh
# A malformed input is refused with its FILE:LINE: reason: a mis-pasted
# kernel row whose percent disagrees with its counts, a truncated profile,
# a newer format, a binary file, a profile with CRLF line ends.
sed 's/ 97 grab/ 79 grab/' "$LP_TEST_DATA/seeds/005.txt" > pasted.txt
"$LIKELYPROF" report pasted.txt
echo "exit $?"
printf 'likelyprof-profile\t1\nsite\t1\t2\t0\t1\ta.c\t3\tf\ta.c\tx\n' > cut.lprof
"$LIKELYPROF" report cut.lprof
echo "exit $?"
printf 'likelyprof-profile\t2\nend\t0\n' > v2.lprof
"$LIKELYPROF" report v2.lprof
echo "exit $?"
printf '\177ELF\002\001\001\000\000\000' > prog
"$LIKELYPROF" report prog
echo "exit $?"
printf 'likelyprof-profile\t1\r\nend\t0\r\n' > dos.lprof
"$LIKELYPROF" report dos.lprof
echo "exit $?"
