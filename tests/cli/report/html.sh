#!/bin/sh
# --format html: one self-contained page, the rows in the kernel's order,
# each with a bar scaled to the busiest row (correct green, incorrect
# red) and its condition; markup in names and conditions is escaped.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t10\t990\t0\t1\tsrc/a<b>.c\t12\tf\tsrc/a<b>.c\t!!(p && q > "x")\n'
	printf 'site\t150\t50\t0\t0\tsrc/c.c\t3\tg\tsrc/c.c\t!!(c == \047&\047)\n'
	printf 'site\t0\t0\t0\t1\tsrc/c.c\t9\tg\tsrc/c.c\t!!(z)\n'
	printf 'end\t3\n'
} > p.lprof
"$LIKELYPROF" report --format html p.lprof
