#!/bin/sh
# --format lcov: an lcov tracefile for genhtml.  Per file (SF:), per site
# two branches, true then false (BRDA:line,block,branch,taken): likely()
# counts correct as true, unlikely() and an if as false; a never-run site
# is '-'; two sites on one line are blocks 0 and 1; DA: is the line's
# busiest site; a site whose expected value is unknown (a kernel table's)
# is left out.  Files and lines in order; a control character in a path
# (a newline) is '?', as the format is a line per record.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t90\t10\t0\t1\tb.c\t20\tf\tb.c\t!!(x)\n'
	printf 'site\t30\t70\t0\t0\tb.c\t20\tf\tb.c\t!!(y)\n'
	printf 'site\t0\t0\t0\t1\tb.c\t5\tf\tb.c\t!!(z)\n'
	printf 'site\t6\t4\t0\tif\ta.c\t3\tg\ta.c\t(n)\n'
	printf 'site\t1\t1\t0\t?\ta.c\t9\tg\ta.c\t!!(w)\n'
	printf 'site\t2\t0\t0\t1\tc\\nd.c\t1\th\tc.c\t!!(v)\n'
	printf 'end\t6\n'
} > p.lprof
"$LIKELYPROF" report --format lcov p.lprof
