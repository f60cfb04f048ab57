#!/bin/sh
# report --format csv round-trips through merge: the CSV is read wherever
# a profile is, so report CSV -> merge -> report CSV gives the same bytes,
# with commas, quotes, tabs and line breaks in the fields, copies of one
# line in two units, and unknown, "if" and non-0/1 expected values.  Bad
# CSV is refused with FILE:LINE.
tab=$(printf '\t')
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t5\t1\t0\t0\tsrc/a,b.c\t10\tf\tu1.c\t!!(strcmp(s, "x,y") == 0)\n'
	printf 'site\t7\t3\t0\t0\tsrc/a,b.c\t10\tf\tu2.c\t!!(strcmp(s, "x,y") == 0)\n'
	printf 'site\t0\t9\t0\t3\tq.h\t2\tg\tq.c\ta\\tb\\nc "quoted"\n'
	printf 'site\t4\t4\t2\t?\tq.h\t3\tg\tq.c\tk\n'
	printf 'site\t1\t2\t0\tif\tq.h\t4\tg\tq.c\t\n'
	printf 'end\t5\n'
} > in.lprof
"$LIKELYPROF" report --format csv in.lprof > one.csv || echo "report failed"
"$LIKELYPROF" merge -o back.lprof one.csv || echo "merge failed"
"$LIKELYPROF" report --format csv back.lprof > two.csv
cmp one.csv two.csv && echo "csv round trip: same bytes"
cat one.csv
printf 'file,line,function,expect,correct,incorrect,constant,condition\nx.c,1,f,1,2,3\n' > short.csv
"$LIKELYPROF" report short.csv
echo "exit $?"
printf 'file,line,function,expect,correct,incorrect,constant,condition\r\nx.c,1,f,1,2,3,0,"open\r\n' > open.csv
"$LIKELYPROF" report open.csv
echo "exit $?"
