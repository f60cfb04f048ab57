#!/usr/bin/env bash
# run.sh - the CLI golden tests, in the shape of zstd's tests/cli-tests
#
#   tests/cli/run.sh [--preserve] [--verbose] [TEST...]
#
# A test is tests/cli/<cmd>/<name>.sh.  It runs with sh in a fresh, empty
# scratch folder, stdin from /dev/null, and $LIKELYPROF naming the command
# (make check-cli sets it, with the rest of TEST_ENV).  Beside it:
#
#   <name>.sh.stdout.exact   stdout must be exactly this
#   <name>.sh.stdout.glob    or match these patterns, line by line
#   <name>.sh.stderr.exact   stderr must be exactly this
#   <name>.sh.stderr.glob    or match these patterns, line by line
#   <name>.sh.exit           the exit status (default 0)
#
# A glob file is one shell pattern for the whole stream ('*' matches any
# text, newlines too; '?', '[...]' and '\' as in `case`); trailing
# newlines do not count, and an empty glob file means no output.  A stream
# with no file is not checked.
#
# TEST is "cmd" (a folder) or "cmd/name".  --preserve keeps every scratch
# folder (under $LP_TEST_TMP/cli, or build/obj/tmp/cli); --verbose shows
# the output of tests that pass too.  tests/cli/README.md says more.
set -u

cli_dir=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$cli_dir/../.." && pwd)
preserve=0
verbose=0
selected=()

for arg in "$@"; do
	case $arg in
	--preserve) preserve=1 ;;
	--verbose|-v) verbose=1 ;;
	--help|-h)
		sed -n '2,22s/^# \{0,1\}//p' "$0"
		exit 0 ;;
	-*)
		echo "run.sh: unknown option '$arg'" >&2
		exit 2 ;;
	*) selected+=("${arg%.sh}") ;;
	esac
done

export LIKELYPROF=${LIKELYPROF:-$root/likelyprof}
if [ ! -x "$LIKELYPROF" ]; then
	echo "run.sh: '$LIKELYPROF' is not built (run make first)" >&2
	exit 2
fi
tmp_root=${LP_TEST_TMP:-$root/build/obj/tmp}/cli
mkdir -p "$tmp_root"
tmp_root=$(cd "$tmp_root" && pwd)
export LP_TEST_DATA=$root/tests/data

# glob_match PATTERN_FILE OUTPUT_FILE: the whole output matches the whole
# pattern, as `case` matches (so '*' spans lines); trailing newlines of
# both are ignored.
glob_match() {
	local pattern output
	pattern=$(cat "$1")
	output=$(cat "$2")
	# shellcheck disable=SC2254
	case $output in
	$pattern) return 0 ;;
	esac
	return 1
}

# check STREAM TEST_SCRIPT OUTPUT: 0 if the stream is as expected.
check_stream() {
	local stream=$1 script=$2 got=$3
	if [ -f "$script.$stream.exact" ]; then
		if ! cmp -s "$script.$stream.exact" "$got"; then
			echo "$stream differs from $(basename "$script").$stream.exact:"
			diff -u "$script.$stream.exact" "$got" | tail -n +3 | head -40
			return 1
		fi
	elif [ -f "$script.$stream.glob" ]; then
		if ! glob_match "$script.$stream.glob" "$got"; then
			echo "$stream does not match $(basename "$script").$stream.glob:"
			sed 's/^/  | /' "$got" | head -40
			return 1
		fi
	fi
	return 0
}

tests=()
if [ ${#selected[@]} -eq 0 ]; then
	for t in "$cli_dir"/*/*.sh; do
		[ -f "$t" ] && tests+=("$t")
	done
else
	for s in "${selected[@]}"; do
		if [ -d "$cli_dir/$s" ]; then
			for t in "$cli_dir/$s"/*.sh; do
				[ -f "$t" ] && tests+=("$t")
			done
		elif [ -f "$cli_dir/$s.sh" ]; then
			tests+=("$cli_dir/$s.sh")
		else
			echo "run.sh: no test '$s'" >&2
			exit 2
		fi
	done
fi

# run_one TEST_SCRIPT RESULTS: run one test, print its lines at once,
# and leave pass, fail or skip in RESULTS/<n>.
run_one() {
	local t=$1 res=$2 rel scratch out want_exit got_exit report text
	rel=${t#"$cli_dir"/}
	rel=${rel%.sh}
	scratch=$tmp_root/$rel
	out=$tmp_root/$rel.out
	rm -rf "$scratch" "$out"
	mkdir -p "$scratch" "$out"
	want_exit=0
	[ -f "$t.exit" ] && want_exit=$(tr -d ' \n' < "$t.exit")
	(cd "$scratch" && exec timeout 300 sh "$t" < /dev/null \
		> "$out/stdout" 2> "$out/stderr")
	got_exit=$?
	# 77: the test needs what this machine lacks, said on its stdout;
	# where LP_TEST_REQUIRE_ALL=1 (.ci/run) that is a failure
	if [ "$got_exit" = 77 ] && [ "${LP_TEST_REQUIRE_ALL:-}" != 1 ]; then
		echo skip > "$res"
		echo "skip $rel: $(head -n 1 "$out/stdout")"
		[ "$preserve" = 1 ] || rm -rf "$scratch" "$out"
		return
	fi
	report=$(
		ok=0
		if [ "$got_exit" != "$want_exit" ]; then
			echo "exit status $got_exit, expected $want_exit"
			ok=1
		fi
		check_stream stdout "$t" "$out/stdout" || ok=1
		check_stream stderr "$t" "$out/stderr" || ok=1
		exit $ok
	)
	if [ $? -eq 0 ]; then
		echo pass > "$res"
		text="ok   $rel"
		if [ "$verbose" = 1 ]; then
			text+=$'\n'$(sed 's/^/     out| /' "$out/stdout")
			text+=$'\n'$(sed 's/^/     err| /' "$out/stderr")
		fi
		echo "$text"
		[ "$preserve" = 1 ] || rm -rf "$scratch" "$out"
	else
		echo fail > "$res"
		text="FAIL $rel"$'\n'$(echo "$report" | sed 's/^/     /')
		if [ "$report" = "${report#*stderr}" ] && [ -s "$out/stderr" ]; then
			text+=$'\n'"     stderr was:"
			text+=$'\n'$(sed 's/^/     | /' "$out/stderr" | head -20)
		fi
		text+=$'\n'"     scratch folder: $scratch"
		echo "$text"
	fi
}

# LP_TEST_JOBS tests at once (default: the number of processors); each
# has its own scratch folder.  A test's lines are printed together as it
# ends, so the order may differ from run to run; the count does not.
jobs=${LP_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
results=$(mktemp -d "${TMPDIR:-/tmp}/lp-cli.XXXXXX") || exit 2
trap 'rm -rf "$results"' EXIT
export -f run_one check_stream glob_match
export cli_dir tmp_root preserve verbose
i=0
for t in "${tests[@]}"; do
	i=$((i + 1))
	printf '%s\0%s\0' "$t" "$results/$i"
done | xargs -0 -n 2 -P "$jobs" bash -c 'run_one "$1" "$2"' run_one

passed=$(cat "$results"/* 2>/dev/null | grep -c '^pass$')
failed=$(cat "$results"/* 2>/dev/null | grep -c '^fail$')
skipped=$(cat "$results"/* 2>/dev/null | grep -c '^skip$')
# a test that left no result was lost (killed, or the pool broke)
lost=$((${#tests[@]} - passed - failed - skipped))
[ "$lost" -gt 0 ] && echo "$lost tests left no result" && failed=$((failed + lost))

echo "cli: $passed passed, $failed failed$([ $skipped = 0 ] ||
	echo ", $skipped skipped")"
[ "$failed" -eq 0 ]
