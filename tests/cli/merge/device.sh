#!/bin/sh
# Writing a profile to something that is not a regular file (/dev/null, a
# FIFO) writes into it; the atomic rename used for files would put a
# regular file in its place.  A FIFO stands for the device here: merge -o,
# run -o and the runtime's LIKELYPROF_FILE each keep it a FIFO and feed
# the reader the profile.
check_fifo() {
	if [ -p "$1" ]; then echo "$2: still a FIFO"; else echo "$2: REPLACED"; fi
}
printf 'int main(int c, char **v) { (void)v; return (int)__builtin_expect(c > 5, 0); }\n' > p.c
"$LIKELYPROF" cc p.c -o p || exit 1
mkfifo out
cat out > got1 &
"$LIKELYPROF" merge -o out "$LP_TEST_DATA/seeds/004.txt"
wait
check_fifo out "merge -o"
grep -c '^site' got1
cat out > got2 &
"$LIKELYPROF" run -o out -- ./p 2> /dev/null
wait
check_fifo out "run -o"
grep -c '^site' got2
cat out > got3 &
LIKELYPROF_FILE=$PWD/out ./p
wait
check_fifo out "LIKELYPROF_FILE"
grep -c '^site' got3
