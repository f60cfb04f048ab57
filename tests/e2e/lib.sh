# lib.sh - shared by the end-to-end scripts; sourced, not run.
#
# Environment (set by the Makefile's check targets): LIKELYPROF (the
# command), LIKELYPROF_INCLUDE_DIR, LIKELYPROF_LIB_DIR, LP_TEST_CC,
# LP_TEST_CFLAGS, LP_TEST_TMP, LP_SANITIZE.

set -u
E2E_DIR=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$E2E_DIR/../.." && pwd)
: "${LIKELYPROF:=$ROOT/likelyprof}"
: "${LP_TEST_TMP:=$ROOT/build/obj/tmp}"
: "${LP_SANITIZE:=}" "${LP_E2E_COMPILERS:=}" "${LP_E2E_CXX:=}"
export LIKELYPROF

# A sanitized runtime is built by gcc; clang's sanitizer runtimes cannot
# share a process with gcc's, so sanitized runs build with gcc only.
if [ -n "$LP_SANITIZE" ]; then
	: "${LP_E2E_COMPILERS:=gcc}" "${LP_E2E_CXX:=g++}"
fi
export LP_E2E_COMPILERS LP_E2E_CXX
# The outer make's command line (sanitizer CFLAGS) must not leak into the
# projects the tests build with make.
unset MAKEFLAGS MFLAGS MAKELEVEL

mkdir -p "$LP_TEST_TMP"
SCRATCH=$(mktemp -d "$LP_TEST_TMP/$(basename "$0" .sh).XXXXXX")
if [ -z "${LP_PRESERVE:-}" ]; then
	trap 'rm -rf "$SCRATCH"' EXIT
fi

FAILED=0
fail() {
	echo "  FAIL: $*"
	FAILED=1
}

note() {
	echo "  $*"
}

# Sanitizer flags for programs the tests build, so a sanitized runtime
# links with sanitized code.
san_flags() {
	if [ -n "$LP_SANITIZE" ]; then
		echo "-fsanitize=$LP_SANITIZE -fno-sanitize-recover=all -g"
	fi
}

# func_disasm OBJ FUNC: objdump -d of FUNC alone, within its symbol's
# size: the stubs of first counts sit after the section's last function,
# outside every symbol, and a listing up to the next blank line would
# take them in.
func_disasm() {
	set -- "$1" "$2" $(objdump -t "$1" | awk -v fn="$2" '
		$NF == fn && $(NF - 2) ~ /^\./ { print $1, $(NF - 2), $(NF - 1); exit }')
	[ $# = 5 ] || return 1
	echo "$(printf '%016x' $((0x$3))) <$2>:"
	objdump -d --no-show-raw-insn -j "$4" --start-address=$((0x$3)) \
		--stop-address=$((0x$3 + 0x$5)) "$1" | sed -n '/^ *[0-9a-f]*:/p'
	echo
}

# site_counts PROFILE FILE FUNC [UNIT] [COND-PREFIX] -> "correct incorrect"
# summed over matching site records of a raw profile, or "missing".
site_counts() {
	awk -F'\t' -v file="$2" -v fn="$3" -v unit="${4:-}" \
	    -v cond="${5:-}" '
		# clang spells an included header "./x.h"
		{ f = $6; sub(/^\.\//, "", f) }
		# a path that ends in /FILE matches too (CMake passes
		# absolute paths)
		$1 == "site" && $8 == fn &&
		(f == file || substr(f, length(f) - length(file)) == "/" file) &&
		(unit == "" || $9 == unit) &&
		(cond == "" || index($10, cond) == 1) {
			c += $2; i += $3; n++
		}
		END { if (n) print c, i; else print "missing" }' "$1"
}

finish() {
	exit "$FAILED"
}

# skip WHY: the test needs what this machine lacks (a tool, a locale).
# It ends with status 77, which the runners report as skipped with WHY;
# where LP_TEST_REQUIRE_ALL=1 (.ci/run, which installs everything) a
# missing requirement is a failure instead.
skip() {
	if [ "${LP_TEST_REQUIRE_ALL:-}" = 1 ]; then
		fail "required, and missing: $*"
		finish
	fi
	echo "$*"
	exit 77
}

# judge_setup: for the judge scripts, ends the test as skipped where
# valgrind or objdump is missing, else copies judge/prog.c and its header
# to $SRC (in the scratch folder) and goes there.
judge_setup() {
	for tool in valgrind objdump; do
		command -v $tool >/dev/null 2>&1 ||
			skip "no $tool (apt-get install valgrind binutils)"
	done
	SRC="$SCRATCH/src"
	mkdir -p "$SRC"
	cp "$E2E_DIR/judge/prog.c" "$E2E_DIR/judge/hints.h" "$SRC/"
	cd "$SRC" || exit 1
}

# verdicts PROFILE: "LINE VERDICT" of check on each line of judge/prog.c
# (fine, remove, flip, unsure...).
verdicts() {
	$LIKELYPROF check --all "$1" |
		sed -n 's/^prog\.c:\([0-9]*\): .*\[likelyprof-\(.*\)\]$/\1 \2/p'
}

# chrome ARG... URL: headless chromium as the page's tests run it: 120 s
# at most, a profile of its own in $SCRATCH, file:// pages allowed to
# read each other (a probe page reads the page in its frame); its
# complaints in $SCRATCH/chrome.err
chrome() {
	timeout 120 chromium --headless --no-sandbox --disable-gpu \
		--user-data-dir="$SCRATCH/chrome" \
		--allow-file-access-from-files "$@" 2> "$SCRATCH/chrome.err"
}

# shot FILE WIDTH URL [HEIGHT]: a screenshot of URL in a window WIDTH x
# HEIGHT (default 1000)
# as FILE under build/, for a person to look at
shot() {
	mkdir -p "$ROOT/build" &&
		chrome --hide-scrollbars --screenshot="$ROOT/build/$1" \
			--window-size="$2,${4:-1000}" "$3" > /dev/null ||
		fail "chromium could not take a screenshot"
}
