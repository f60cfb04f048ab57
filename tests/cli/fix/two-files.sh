#!/bin/sh
# Seeds 008 and 009 against a tree where fget_light() moved from line 315
# to 307 and fput_light() from 26 to 28: two patches (fs, include, from
# the top folders: the copy has no git history), compared with
# two-files.expected.patch.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cp -R "$here/../../data/fix/two-files" "$t/tree"
cd "$t/tree" || exit 2
SOURCE_DATE_EPOCH=1291687116 GIT_AUTHOR_NAME="A U Thor" \
GIT_AUTHOR_EMAIL=author@example.com \
	"${LIKELYPROF:-likelyprof}" fix --src . table.txt > "$t/out.patch" ||
	exit 1
diff -u "$here/two-files.expected.patch" "$t/out.patch" &&
	echo "matches two-files.expected.patch"
