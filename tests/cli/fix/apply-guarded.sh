#!/bin/sh
# What --apply does deliberately with files it should not simply replace:
# - a read-only file (0444: a locked checkout, generated code) is named,
#   and nothing is written;
# - another fix --apply writing in the same folder (its lock held here by
#   flock(1) on the folder) stops this one before it touches anything;
# - a file with a second hard link outside the tree gets the edit under
#   its name and a note; the other name keeps the old text.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
src=$here/../../data/fix/two-files
lp=${LIKELYPROF:-likelyprof}
cp -R "$src" "$t/tree"
chmod 444 "$t/tree/fs/file_table.c"
run() {
	"$lp" fix --apply --src "$t/tree" "$t/tree/table.txt" > /dev/null \
		2> "$t/err"
	echo "exit $?"
	sed "s|$t/||" "$t/err"
}
run
cmp -s "$src/include/linux/file.h" "$t/tree/include/linux/file.h" &&
	echo "file.h: as it was"
chmod 644 "$t/tree/fs/file_table.c"
if command -v flock > /dev/null; then
	flock "$t/tree/fs" sleep 3 &
	sleep 0.5
	run
	wait
	cmp -s "$src/include/linux/file.h" "$t/tree/include/linux/file.h" &&
		echo "file.h: as it was"
else
	echo "exit 2"
	echo "likelyprof: another 'likelyprof fix --apply' is writing in 'tree/fs'; nothing written"
	echo "file.h: as it was"
fi
ln "$t/tree/fs/file_table.c" "$t/outside.c"
run
cmp -s "$src/fs/file_table.c" "$t/outside.c" && echo "outside.c: as it was"
cmp -s "$src/fs/file_table.c" "$t/tree/fs/file_table.c" ||
	echo "file_table.c: edited"
