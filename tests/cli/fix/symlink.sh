#!/bin/sh
# A file of the tree that is a symbolic link (here to a file outside it),
# or that sits in a linked folder, is never followed: the site is refused
# and the file it points to is not changed, even with --apply.
here=$(cd "$(dirname "$0")" && pwd)
data="$here/../../data"
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir -p "$t/outside" "$t/tree/include/linux" "$t/tree2"
cp "$data/fix/two-files/include/linux/file.h" "$t/outside/file.h"
cp "$t/outside/file.h" "$t/file.orig"
ln -s "$t/outside/file.h" "$t/tree/include/linux/file.h"
ln -s "$t/outside" "$t/tree2/include"
lp=${LIKELYPROF:-likelyprof}
"$lp" fix --apply --src "$t/tree" "$data/seeds/008.txt"
"$lp" fix --apply --src "$t/tree2" "$data/seeds/008.txt"
cmp -s "$t/outside/file.h" "$t/file.orig" && echo "the linked file is untouched"
