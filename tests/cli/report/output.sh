#!/bin/sh
# -o OUT on report and check writes what stdout would hold into OUT,
# replaced whole at the end: check keeps its exit status (1: findings);
# a command that fails leaves the old OUT as it was and no temporary;
# -oOUT and --output=OUT are the same option; -o /dev/stdout redirected
# into a file writes that file and leaves /dev/stdout a link.
in=$LP_TEST_DATA/seeds/004.txt
"$LIKELYPROF" report -o table.txt "$in"
echo "report: exit $?"
"$LIKELYPROF" report "$in" | cmp - table.txt && echo "same as stdout"
"$LIKELYPROF" check -o warnings.txt "$in" 2> /dev/null
echo "check: exit $?, $(wc -l < warnings.txt) line"
"$LIKELYPROF" report --format json --output=t.json "$in"
"$LIKELYPROF" report -ot2.json --format json "$in"
cmp t.json t2.json && echo "--output= and -oOUT agree"
echo old > keep.txt
"$LIKELYPROF" report -o keep.txt missing.lprof 2> /dev/null
echo "failed: exit $?, keep.txt: $(cat keep.txt)," \
	"temporaries: $(ls | grep -c '\.tmp\.')"
"$LIKELYPROF" report -o /dev/stdout "$in" > redirected.txt
cmp redirected.txt table.txt && [ -L /dev/stdout ] &&
	echo "/dev/stdout: the file, and still a link"
