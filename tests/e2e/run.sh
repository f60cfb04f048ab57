#!/bin/sh
# run.sh - runs every end-to-end script in this folder (but lib.sh and
# itself); prints ok/FAIL per script and exits 1 if any failed.
#   tests/e2e/run.sh [NAME...]     only the named scripts
#
# LP_TEST_JOBS scripts run at once (default: the number of processors).
# Each script has its own scratch folder (lib.sh), so they do not meet; a
# line is printed as each ends, and a failure's output after all have.
# The slowest scripts start first, so the pool does not end waiting on one.
dir=$(cd "$(dirname "$0")" && pwd)

# run.sh --one SCRIPT RESULTS: run one script for the pool below; its
# output, status and seconds go to RESULTS/NAME.{out,rc}.
if [ "${1:-}" = --one ]; then
	name=$(basename "$2" .sh)
	start=$(date +%s)
	sh "$2" > "$3/$name.out" 2>&1
	rc=$?
	secs=$(($(date +%s) - start))
	case $rc in
	0) echo "ok   e2e/$name (${secs}s)" ;;
	77) echo "skip e2e/$name: $(tail -n 1 "$3/$name.out")" ;;
	*) echo "FAIL e2e/$name (${secs}s)" ;;
	esac
	echo "$rc" > "$3/$name.rc"
	exit 0
fi

# the ones that take minutes where the others take seconds
slow="tricky fix-race judge-shapes build-systems judge-ways"
if [ $# -gt 0 ]; then
	scripts=""
	for n in "$@"; do scripts="$scripts $dir/${n%.sh}.sh"; done
else
	scripts=""
	for n in $slow; do
		[ -f "$dir/$n.sh" ] && scripts="$scripts $dir/$n.sh"
	done
	for s in $(ls "$dir"/*.sh | grep -v -e '/run\.sh$' -e '/lib\.sh$'); do
		case " $slow " in
		*" $(basename "$s" .sh) "*) ;;
		*) scripts="$scripts $s" ;;
		esac
	done
fi
for s in $scripts; do
	[ -f "$s" ] || { echo "run.sh: no script '$s'" >&2; exit 2; }
done

jobs=${LP_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
results=$(mktemp -d "${TMPDIR:-/tmp}/lp-e2e.XXXXXX") || exit 2
trap 'rm -rf "$results"' EXIT
# shellcheck disable=SC2086
printf '%s\n' $scripts | xargs -P "$jobs" -I{} sh "$0" --one {} "$results"

failed=0
skipped=0
count=0
for s in $scripts; do
	name=$(basename "$s" .sh)
	count=$((count + 1))
	rc=$(cat "$results/$name.rc" 2>/dev/null || echo lost)
	if [ "$rc" = 77 ]; then
		skipped=$((skipped + 1))
	elif [ "$rc" != 0 ]; then
		echo "FAIL e2e/$name (status $rc):"
		sed 's/^/     /' "$results/$name.out" 2>/dev/null
		failed=$((failed + 1))
	fi
done
echo "e2e: $((count - failed - skipped)) of $count passed" \
	"$([ $skipped = 0 ] || echo "($skipped skipped)")"
[ "$failed" -eq 0 ]
