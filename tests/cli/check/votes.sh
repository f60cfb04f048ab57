#!/bin/sh
# A merged profile keeps each site's votes, so check of the merge says
# what check of its inputs says: seed 007's two machines (wrong on one,
# right on the other) merged give remove, never flip, "wrong in 1 of 2
# profiles", though the sum alone is 99% wrong and would be flipped.
# Three machines where it is backwards on each merge to a flip, "wrong
# in 3 of 3"; merged again with the right one (a tree of merges) it is
# remove, wrong in 3 of 4.  Inputs with too few evaluations do not vote.
row() {
	printf 'likelyprof-profile\t1\n'
	printf 'site\t%s\t%s\t0\t0\tprocess_64.c\t408\t__switch_to\t' "$1" "$2"
	printf 'process_64.c\t!!(next->fs)\nend\t1\n'
}
row 1 304125815 > big.lprof
row 90000 10 > 64bit.lprof
row 5 10 > few.lprof
"$LIKELYPROF" merge -o two.lprof big.lprof 64bit.lprof few.lprof
grep '^site' two.lprof
"$LIKELYPROF" check two.lprof | head -n 1
"$LIKELYPROF" check big.lprof 64bit.lprof | head -n 1
"$LIKELYPROF" merge -o three.lprof big.lprof big.lprof big.lprof
"$LIKELYPROF" check three.lprof | head -n 1
"$LIKELYPROF" merge -o four.lprof three.lprof 64bit.lprof
grep '^site' four.lprof
"$LIKELYPROF" check four.lprof | head -n 1
