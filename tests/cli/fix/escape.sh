#!/bin/sh
# A profile naming files outside the tree (../outside.c, /etc/passwd) is
# refused site by site, with the reason, and the rest goes on; with
# --apply the file beside the tree is not touched.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cp -R "$here/../../data/fix/two-files" "$t/tree"
printf 'int f(int x)\n{\n\tif (likely(x))\n\t\treturn 1;\n\treturn 0;\n}\n' \
	> "$t/outside.c"
cp "$t/outside.c" "$t/outside.orig"
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t0\t900000\t0\t1\t../outside.c\t3\tf\t\t\n'
	printf 'site\t0\t900000\t0\t1\t/etc/passwd\t1\troot\t\t\n'
	printf 'site\t10\t900000\t0\t0\tinclude/linux/file.h\t28\tfput_light\t\t\n'
	printf 'end\t3\n'
} > "$t/escape.lprof"
"${LIKELYPROF:-likelyprof}" fix --apply --src "$t/tree" "$t/escape.lprof" |
	sed "s|$t/||"
cmp -s "$t/outside.c" "$t/outside.orig" && echo "outside.c untouched"
