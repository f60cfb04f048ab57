#!/bin/sh
# Meta records are read in linear time: a profile of 10^6 of them (half
# distinct keys, half build records) is reported and merged, where a scan
# per record took 37 s for 60,000.  The last value of a key wins, each
# build is kept once, and two builds of one path are still told apart
# among 10^5 others.
awk 'BEGIN {
	print "likelyprof-profile\t1"
	for (i = 0; i < 500000; i++) printf "meta\tk%d\tv%d\n", i, i
	for (i = 0; i < 500000; i++)
		printf "meta\tbuild\t%040x /lib/o%d.so\n", i, i
	print "meta\tk7\tlast"
	print "site\t1\t2\t0\t1\tf.c\t3\tfn\tf.c\tx"
	print "end\t1"
}' > many.lprof
"$LIKELYPROF" report many.lprof | tail -1
"$LIKELYPROF" merge -o twice.lprof many.lprof many.lprof
echo "exit $?"
echo "meta kept: $(grep -c '^meta' twice.lprof)"
grep '^meta	k7	' twice.lprof
grep '^site' twice.lprof
# the same paths, one of them another build
awk 'BEGIN {
	print "likelyprof-profile\t1"
	for (i = 0; i < 100000; i++)
		printf "meta\tbuild\t%040x /lib/o%d.so\n", i == 99999 ? 7 : i, i
	print "end\t0"
}' > other.lprof
"$LIKELYPROF" merge -o out.lprof many.lprof other.lprof
echo "exit $?"
