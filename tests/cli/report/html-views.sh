#!/bin/sh
# report --format html -o DIR/ writes the page as DIR/index.html and, with
# --src, a source view per file with hints, DIR/src/<path>.html: every
# line numbered, each hinted line with its counts (10 right, 990000
# wrong: 99.9% in tenths rounded down, as check), verdict (flip) and
# check's reason under it, a second site of the same line (fine, from
# unit b.c) in the gutter beside the first, and the file's hints at the
# top.  The path has a space and a '#': the row's link to the view and
# the view's links back are percent-encoded, the file on disk is named
# as the source is.  A folder under the views that is a link to
# elsewhere is not followed; a folder for a format that writes one file
# is a usage error.
mkdir -p "tree/my dir"
printf 'int f(int x)\n{\n\tif (__builtin_expect(x > 1, 1) && __builtin_expect(x, 1))\n\t\treturn 1;\n\treturn 0;\n}\n' > "tree/my dir/a#b.c"
printf 'likelyprof-profile\t1\nsite\t10\t990000\t0\t1\tmy dir/a#b.c\t3\tf\tmy dir/a#b.c\tx > 1\nsite\t5000\t0\t0\t1\tmy dir/a#b.c\t3\tf\tmy dir/a#b.c\tx\nend\t2\n' > p.lprof
"$LIKELYPROF" report --format html --src tree -o out/ p.lprof
echo "exit $?"
ls -R out | sed 1d
grep -o 'href="src/[^"]*"' out/index.html | sort -u
sed -n '/^<body>/,$p' "out/src/my dir/a#b.c.html" | sed "s|$PWD|PWD|"
rm -r "out/src/my dir"
mkdir elsewhere
ln -s ../../elsewhere "out/src/my dir"
{
	"$LIKELYPROF" report --format html --src tree -o out p.lprof
	echo "exit $?"
} 2>&1 | sed "s|$PWD|PWD|"
ls elsewhere
"$LIKELYPROF" report -o out/ p.lprof 2>&1 | head -n 1
