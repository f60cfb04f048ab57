#!/bin/sh
# run.sh - runs every end-to-end script in this folder (but lib.sh and
# itself); prints ok/FAIL per script and exits 1 if any failed.
#   tests/e2e/run.sh [NAME...]     only the named scripts
dir=$(cd "$(dirname "$0")" && pwd)
failed=0
skipped=0
count=0
if [ $# -gt 0 ]; then
	scripts=""
	for n in "$@"; do scripts="$scripts $dir/${n%.sh}.sh"; done
else
	scripts=$(ls "$dir"/*.sh | grep -v -e '/run\.sh$' -e '/lib\.sh$')
fi
for s in $scripts; do
	name=$(basename "$s" .sh)
	count=$((count + 1))
	start=$(date +%s)
	out=$(sh "$s" 2>&1)
	rc=$?
	if [ $rc = 0 ]; then
		echo "ok   e2e/$name ($(($(date +%s) - start))s)"
	elif [ $rc = 77 ]; then
		# lib.sh's skip(): a requirement this machine lacks
		echo "skip e2e/$name: $(echo "$out" | tail -n 1)"
		skipped=$((skipped + 1))
	else
		echo "FAIL e2e/$name"
		echo "$out" | sed 's/^/     /'
		failed=$((failed + 1))
	fi
done
echo "e2e: $((count - failed - skipped)) of $count passed" \
	"$([ $skipped = 0 ] || echo "($skipped skipped)")"
[ "$failed" -eq 0 ]
