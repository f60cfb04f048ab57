#!/bin/sh
# run.sh - build the libFuzzer harnesses and run each for a bounded time
#
#   tests/fuzz/run.sh                 every harness, FUZZ_SECONDS each
#   tests/fuzz/run.sh lexer           only fuzz-lexer
#   FUZZ_SECONDS=0 tests/fuzz/run.sh  replay the committed corpora only
#
# Everything is built under build/fuzz/, never into the shared outputs
# (./likelyprof, lib/).  Each harness fuzzes a scratch corpus
# (build/fuzz/work-NAME) seeded from the committed one
# (tests/fuzz/corpus/NAME), which libFuzzer only reads: new inputs never
# land in the tree.  A crash, a failed property or a sanitizer report
# makes this script exit 1 and print the input that caused it.
set -eu
cd "$(dirname "$0")/../.."

seconds=${FUZZ_SECONDS:-60}
cc=${FUZZ_CC:-clang}
out=build/fuzz
all="profile ktable lexer json"
names=${*:-$all}

die() {
	echo "fuzz: $*" >&2
	exit 2
}

case $seconds in
''|*[!0-9]*) die "FUZZ_SECONDS must be a number of seconds, not '$seconds'" ;;
esac
for n in $names; do
	case " $all " in
	*" $n "*) ;;
	*) die "no harness '$n' (there are: $all)" ;;
	esac
done

mkdir -p "$out/obj" "$out/tmp"
# libFuzzer is part of clang's runtime, packaged apart on Debian.
printf 'int LLVMFuzzerTestOneInput(const char *d, long n)\n{ return 0; }\n' \
	> "$out/probe.c"
pkgs="apt-get install clang libclang-rt-14-dev"
command -v "$cc" >/dev/null 2>&1 ||
	die "'$cc' not found: the fuzzers need clang ($pkgs)"
"$cc" -fsanitize=fuzzer "$out/probe.c" -o "$out/probe" \
	2>"$out/probe.log" ||
	die "'$cc' cannot link a libFuzzer program, is its runtime" \
	    "missing? ($pkgs): $(head -n 3 "$out/probe.log")"

# The code under test: what the command links, less the runtime (which
# parses nothing; its record writer is in) and main().  The harnesses add their own main.
san="-fsanitize=address,undefined -fno-sanitize-recover=all"
cflags="-std=gnu99 -g -O1 -fno-omit-frame-pointer -D_GNU_SOURCE -pthread \
	-Iinclude -Ilib/runtime -Ilib/profile -Itools -Itests/fuzz $san"
start=$(date +%s)
objs=""
for src in lib/profile/*.c lib/runtime/format.c lib/runtime/error.c \
	lib/runtime/mark.c tools/*.c tools/fix/*.c tools/judge/*.c \
	tools/cc/*.c tools/report/*.c tools/as/*.c \
	tests/fuzz/common.c; do
	case $src in
	tools/main.c) continue ;;
	esac
	obj=$out/obj/$(echo "$src" | tr / _ | sed 's/\.c$/.o/')
	cov=-fsanitize=fuzzer-no-link
	# The lexer compares each byte with thirty punctuators: traced,
	# those comparisons took half of fuzz-lexer's time.  Its branches
	# still guide the fuzzer, and the dictionary names the tokens.
	[ "$src" = tools/fix/lexer.c ] &&
		cov="$cov -fno-sanitize-coverage=trace-cmp"
	# shellcheck disable=SC2086
	"$cc" $cflags $cov -c "$src" -o "$obj"
	objs="$objs $obj"
done
rm -f "$out/libcore.a"
# shellcheck disable=SC2086
ar rcs "$out/libcore.a" $objs
for n in $names; do
	# shellcheck disable=SC2086
	"$cc" $cflags -fsanitize=fuzzer "tests/fuzz/fuzz-$n.c" \
		"$out/libcore.a" -o "$out/fuzz-$n"
done
echo "fuzz: built $names in $(($(date +%s) - start))s"

# fuzz_one NAME: run one harness; its verdict goes to build/fuzz/NAME.ok
# or build/fuzz/NAME.failed and its lines to stdout.
fuzz_one() {
	n=$1
	work=$out/work-$n
	log=$out/fuzz-$n.log
	mkdir -p "$work"
	rm -f "$out/$n.ok" "$out/$n.failed"
	if [ "$seconds" -eq 0 ]; then
		set -- -runs=0
	else
		set -- -max_total_time="$seconds"
	fi
	dict=""
	[ -f "tests/fuzz/$n.dict" ] && dict="-dict=tests/fuzz/$n.dict"
	# shellcheck disable=SC2086
	if TMPDIR=$(pwd)/$out/tmp "./$out/fuzz-$n" "$@" $dict -timeout=10 \
		-rss_limit_mb=2048 -print_final_stats=1 \
		-artifact_prefix="$out/crash-$n-" \
		"$work" "tests/fuzz/corpus/$n" >"$log" 2>&1; then
		runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log")
		echo "fuzz-$n: ${runs:-?} runs in ${seconds}s, no failure"
		: > "$out/$n.ok"
	else
		report=$(
			echo "fuzz-$n: FAILED; the end of $log:"
			tail -n 40 "$log"
			input=$(sed -n 's/.*Test unit written to \(.*\)$/\1/p' "$log")
			[ -z "$input" ] || {
				echo "fuzz-$n: input: $input"
				echo "fuzz-$n: reproduce: ./$out/fuzz-$n $input"
			})
		echo "$report"
		: > "$out/$n.failed"
	fi
}

# Harnesses run LP_TEST_JOBS at a time (default: the processors), each
# for the full time: the same fuzzing in less wall time.
jobs=${LP_TEST_JOBS:-$(nproc 2>/dev/null || echo 1)}
case $jobs in ''|*[!0-9]*|0) jobs=1 ;; esac
running=0
for n in $names; do
	fuzz_one "$n" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait
failed=""
for n in $names; do
	[ -f "$out/$n.ok" ] || failed="$failed $n"
done
[ -z "$failed" ] || { echo "fuzz: failed:$failed"; exit 1; }
echo "fuzz: $names passed"
