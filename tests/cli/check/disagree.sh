#!/bin/sh
# Seed 007's lesson: two machines, one where the unlikely() is wrong 92%
# of the time (a 32-bit userspace) and one where it is right: it is
# removed, never flipped, even though the sum is 99% wrong.
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
h=' correct incorrect  %        Function                  File              Line
 ------- ---------  -        --------                  ----              ----'
printf '%s\n%s\n' "$h" "25522442 304125815  92 __switch_to                    process_64.c         408" > "$t/32bit.txt"
printf '%s\n%s\n' "$h" "   90000       10   0 __switch_to                    process_64.c         408" > "$t/64bit.txt"
printf '%s\n%s\n' "$h" "       1 304125815  99 __switch_to                    process_64.c         408" > "$t/big.txt"
lp=${LIKELYPROF:-likelyprof}
"$lp" check "$t/32bit.txt" "$t/64bit.txt" | head -n 1
"$lp" check "$t/big.txt" "$t/64bit.txt" | head -n 1
