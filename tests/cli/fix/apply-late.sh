#!/bin/sh
# An edit that lands on a file after fix checked it, through a descriptor
# an editor opened before the rename (LIKELYPROF_TEST_EDIT_LATE writes
# it once every file is renamed), is not lost: fix sees the original
# moved, puts every file back as it was, the late edit included, says
# which file moved and exits 2.  No temporary or second name stays.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cp -R "$here/../../data/fix/two-files" "$t/tree"
LIKELYPROF_TEST_EDIT_LATE=1 "${LIKELYPROF:-likelyprof}" fix --apply \
	--src "$t/tree" "$t/tree/table.txt" > /dev/null
echo "exit $?"
grep -rl 'mine' "$t/tree" | sed "s|$t/tree/||"
for f in $(cd "$t/tree" && find . -name '*.[ch]' | sort); do
	if cmp -s "$here/../../data/fix/two-files/$f" "$t/tree/$f"; then
		echo "$f: as it was"
	else
		# the late edit is the only difference
		sed '$d' "$t/tree/$f" | cmp -s - "$here/../../data/fix/two-files/$f" &&
			echo "$f: as it was, and the late edit"
	fi
done
echo "temporaries left: $(find "$t/tree" -name '.*.lp-*' | wc -l)"
