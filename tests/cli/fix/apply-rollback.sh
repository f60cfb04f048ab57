#!/bin/sh
# --apply changes two files; when replacing the second fails, the first
# is put back: every file is as it was and no temporary file is left.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cp -R "$here/../../data/fix/two-files" "$t/tree"
cp -R "$t/tree" "$t/orig"
LIKELYPROF_TEST_FAIL_RENAME=2 "${LIKELYPROF:-likelyprof}" fix --apply \
	--src "$t/tree" "$t/tree/table.txt"
echo "exit $?"
diff -r "$t/orig" "$t/tree" && echo "every file as it was"
