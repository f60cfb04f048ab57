#!/bin/sh
# CSV: the header, full paths, expect as a number (empty when unknown),
# and RFC 4180 quoting of commas, quotes and line breaks.
printf 'likelyprof-profile\t1\n' > p.lprof
printf 'site\t10\t90\t0\t0\tsrc/a,b.c\t3\tf\tsrc/a,b.c\tx == "y"\n' >> p.lprof
printf 'site\t7\t3\t2\t1\tinclude/x.h\t9\tg\tsrc/m.c\tline\\nbreak\n' >> p.lprof
printf 'site\t0\t0\t0\t?\tmm.h\t1\th\t\t\n' >> p.lprof
printf 'end\t3\n' >> p.lprof
"$LIKELYPROF" report --format csv p.lprof
"$LIKELYPROF" report --format=csv --top 2 "$LP_TEST_DATA/seeds/002.txt"
