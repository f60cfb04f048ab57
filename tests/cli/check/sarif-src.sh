#!/bin/sh
# --format sarif --src DIR: paths relative to DIR, with the base SRCROOT
# that originalUriBaseIds gives as DIR's file: URI (the scratch folder's
# path is printed as ROOT), so code scanning resolves them in a checkout;
# each result carries its annotation's direction.  JSON gives the
# direction too, and the source's spelling.
mkdir -p tree/lib
printf 'int f(int x)\n{\n\tif (unlikely(x > 1))\n\t\treturn 1;\n\treturn 0;\n}\n' > tree/lib/a.c
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t100\t900000\t0\t0\t/build/lib/a.c\t3\tf\t/build/lib/a.c\t!!(x > 1)\n'
	printf 'end\t1\n'
} > p.lprof
"$LIKELYPROF" check --src tree --format sarif p.lprof |
	sed -n '/originalUriBaseIds/,$p' | sed "s|file://$PWD/|file://ROOT/|"
"$LIKELYPROF" check --src tree --format json p.lprof |
	grep -o '"annotation": [^,]*, "direction": [^,]*'
