#!/bin/sh
# A profile damaged far from its start (here line 30002, past the first
# buffers a merge reads) gives the error every reader gives, naming the
# line, exit 2, and OUT is left as it was with no temporary file.
{
	printf 'likelyprof-profile\t1\n'
	awk 'BEGIN { for (i = 1; i <= 30000; i++)
		printf "site\t%d\t1\t0\t1\tf%06d.c\t3\tfunc\tu.c\tcondition text\n", i, i }'
	printf 'site\t1\tx\t0\t1\tz.c\t3\tf\tz.c\tc\nend\t30001\n'
} > bad.lprof
echo old > out.lprof
"$LIKELYPROF" merge -o out.lprof bad.lprof
echo "exit $?"
"$LIKELYPROF" report bad.lprof
echo "exit $?"
cat out.lprof
ls
