#!/bin/sh
# A branch_all table (and a profile of unannotated branches) prints the
# kernel's miss/hit header.
printf '   miss      hit    %%        Function                  File              Line\n' > all.txt
printf ' ------- ---------  -        --------                  ----              ----\n' >> all.txt
printf '      10       90  90 hot                            x.c                  3\n' >> all.txt
printf '       5        0   0 cold                           y.c                  4\n' >> all.txt
"$LIKELYPROF" report all.txt
"$LIKELYPROF" merge -o all.lprof all.txt
"$LIKELYPROF" report all.lprof
