#!/bin/sh
# The page's links resolve from wherever the page is written: with --src,
# a site placed in the tree links to file:///<tree>/<file>#L<line>, and
# the command it offers for the changes names that tree, not "DIR".
# Without --src a relative path from the profile is all there is.
mkdir -p tree/src
printf 'int f(int x)\n{\n\tif (__builtin_expect(x > 1, 1))\n\t\treturn 1;\n\treturn 0;\n}\n' > tree/src/a.c
printf 'likelyprof-profile\t1\nsite\t10\t990000\t0\t1\tsrc/a.c\t3\tf\tsrc/a.c\tx > 1\nend\t1\n' > p.lprof
"$LIKELYPROF" report --format html --src tree -o page.html p.lprof
grep -o 'href="file://[^"]*"' page.html | sed "s|$PWD|PWD|"
grep -o 'To change them: <code>[^<]*' page.html | sed "s|$PWD|PWD|"
"$LIKELYPROF" report --format html p.lprof | grep -o 'href="src[^"]*"'
