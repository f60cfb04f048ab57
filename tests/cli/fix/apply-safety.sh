#!/bin/sh
# --apply leaves no temporary behind (a killed run's are removed by the
# next), keeps the owner, group and mode of each file it edits (run as
# root on a user's tree), and refuses --src / before reading anything.
here=$(cd "$(dirname "$0")" && pwd)
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
cp -R "$here/../../data/fix/two-files" "$t/tree"
f=$(cd "$t/tree" && find . -name '*.h' | head -1)
# what a killed run leaves: a temporary beside a file it edits
for g in $(cd "$t/tree" && find . -name '*.[ch]'); do
	d=$(dirname "$g") b=$(basename "$g")
	echo stale > "$t/tree/$d/.$b.lp-Ab12Cd"
done
chmod 640 "$t/tree/$f"
if [ "$(id -u)" = 0 ]; then
	chown 65534:65534 "$t/tree/$f"
fi
before=$(stat -c '%u:%g %a' "$t/tree/$f")
"${LIKELYPROF:-likelyprof}" fix --apply --src "$t/tree" "$t/tree/table.txt" \
	> /dev/null 2>&1
echo "exit $?"
[ "$(stat -c '%u:%g %a' "$t/tree/$f")" = "$before" ] &&
	echo "owner, group and mode kept" || stat -c '%u:%g %a' "$t/tree/$f"
echo "temporaries left: $(find "$t/tree" -name '.*.lp-*' | wc -l)"
"${LIKELYPROF:-likelyprof}" fix --apply --src / "$t/tree/table.txt" 2>&1 |
	head -1
