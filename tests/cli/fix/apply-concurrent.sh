#!/bin/sh
# An edit the user makes to a file fix has already checked, while fix is
# still writing the others, is not overwritten: every file is checked
# again just before the renames, nothing is written, no temporary stays.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cp -R "$here/../../data/fix/two-files" "$t/tree"
LIKELYPROF_TEST_EDIT_FIRST=1 "${LIKELYPROF:-likelyprof}" fix --apply \
	--src "$t/tree" "$t/tree/table.txt" > /dev/null
echo "exit $?"
grep -rl 'mine' "$t/tree" | sed "s|$t/tree/||"
for f in $(cd "$t/tree" && find . -name '*.[ch]'); do
	cmp -s "$here/../../data/fix/two-files/$f" "$t/tree/$f" &&
		echo "$f: as it was"
done
echo "temporaries left: $(find "$t/tree" -name '.*.lp-*' | wc -l)"
