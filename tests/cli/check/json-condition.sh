#!/bin/sh
# --format json gives each site's condition as the profile has it, in JSON
# escapes (a quote, a backslash and a TAB here), so scripts can tell apart
# two hints that one macro call expands on one line.  Two copies of one
# hint (one unit linked twice) are still one site, with summed counts.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t0\t20000\t0\t1\tsrc/stats.c\t604\tprint\tsrc/stats.c\t!!(c == \047"\047)\n'
	printf 'site\t0\t20000\t0\t1\tsrc/stats.c\t604\tprint\tsrc/stats.c\t!!(c == \047"\047)\n'
	printf 'site\t5\t30000\t0\t0\tsrc/stats.c\t604\tprint\tsrc/stats.c\t!!(s[0] == \047\\\\\047 || s[0] == \047\\t\047)\n'
	printf 'end\t3\n'
} > p.lprof
"$LIKELYPROF" check --format json p.lprof
echo "exit $?"
