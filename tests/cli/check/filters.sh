#!/bin/sh
# --file and --function (shell patterns, a file by its path or base
# name, each may repeat) and --verdict (names, commas between; "change"
# is remove and flip) keep only the sites that match, in check, report
# and fix, wherever they stand on the line.  Asking for a verdict by
# name lists it without --all.  report has no verdicts and says so; an
# unknown verdict is a usage error.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t10\t990000\t0\t1\tsrc/a.c\t3\tparse_line\tsrc/a.c\tx\n'
	printf 'site\t600000\t400000\t0\t0\tsrc/a.c\t9\tparse_word\tsrc/a.c\ty\n'
	printf 'site\t990000\t10\t0\t1\tsrc/b.c\t5\tstats_add\tsrc/b.c\tz\n'
	printf 'site\t400000\t600000\t0\t1\tlib/b.h\t7\tstats_get\tsrc/b.c\tw\n'
	printf 'end\t4\n'
} > p.lprof
"$LIKELYPROF" check p.lprof --file 'a.c' 2> /dev/null
echo "--file a.c: exit $?"
"$LIKELYPROF" check --function 'stats_*' p.lprof 2> /dev/null
"$LIKELYPROF" check --file 'src/*' --function '*_word' p.lprof 2> /dev/null
"$LIKELYPROF" check --verdict fine p.lprof 2> /dev/null
echo "--verdict fine: exit $?"
"$LIKELYPROF" check --verdict flip,remove --file b.h --file b.c p.lprof \
	2> /dev/null
"$LIKELYPROF" report --function 'parse_*' p.lprof
"$LIKELYPROF" report --file nothing.c p.lprof
echo "no match: exit $?"
"$LIKELYPROF" report --verdict flip p.lprof 2>&1 | head -n 1
"$LIKELYPROF" check --verdict maybe p.lprof 2>&1 | head -n 1
