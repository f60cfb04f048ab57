#!/bin/sh
# --format sarif: SARIF 2.1.0 for code scanning, one result per site that
# needs a change (level warning) and per suggestion (level note), with
# the same message as the text diagnostic, a path as a URI reference
# ("my dir" percent-encoded) and the line; the exit status is check's.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t100\t900000\t0\t1\tmy dir/a.c\t12\tf\tmy dir/a.c\t!!(p == "x")\n'
	printf 'site\t50000\t50000\t0\t0\tsrc/b.c\t7\tg\tsrc/b.c\t!!(q)\n'
	printf 'site\t0\t2000000\t0\tif\tsrc/b.c\t9\tg\tsrc/b.c\t(n > 0)\n'
	printf 'end\t3\n'
} > p.lprof
"$LIKELYPROF" check --format sarif p.lprof
echo "exit $?"
