#!/bin/sh
# --weight N FILE multiplies FILE's counts by N before they are summed,
# as llvm-profdata's --weighted-input does: 2 x (1, 2, 0) + (10, 20, 0).
# A product past 2^64-1 is an error naming the file and line, never a
# wrap or a saturated count, and leaves OUT as it was; a weight must be
# a whole number of at least 1.
p() {
	printf 'likelyprof-profile\t1\nsite\t%s\t%s\t0\t1\ta.c\t3\tf\ta.c\tx\n' \
		"$1" "$2"
	printf 'end\t1\n'
}
p 1 2 > a.lprof
p 10 20 > b.lprof
p 9223372036854775808 0 > huge.lprof
"$LIKELYPROF" merge -o out.lprof --weight 2 a.lprof b.lprof
echo "exit $?"
grep '^site' out.lprof
"$LIKELYPROF" merge -o out.lprof a.lprof --weight 2 huge.lprof
echo "exit $?"
grep '^site' out.lprof
"$LIKELYPROF" merge -o out.lprof --weight 0 a.lprof 2>/dev/null
echo "exit $?"
"$LIKELYPROF" merge -o out.lprof --weight x a.lprof 2>/dev/null
echo "exit $?"
"$LIKELYPROF" merge -o out.lprof a.lprof --weight 3 2>/dev/null
echo "exit $?"
# llvm-profdata's spelling is the same weight; without its comma, a usage error
"$LIKELYPROF" merge -o ours.lprof --weight 3 a.lprof b.lprof
"$LIKELYPROF" merge -o llvm.lprof --weighted-input=3,a.lprof b.lprof
echo "weighted-input: exit $?"
cmp ours.lprof llvm.lprof && echo "the same as --weight 3"
"$LIKELYPROF" merge -o llvm.lprof --weighted-input=3 b.lprof 2> /dev/null
echo "no comma: exit $?"
