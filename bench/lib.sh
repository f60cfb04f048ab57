# lib.sh - sourced by bench/run.sh and by each part it runs: the defaults
# that let a part run alone (bench/overhead.sh > x.md) as well as under
# `make bench`, and the helpers every part needs.
LC_ALL=C
export LC_ALL

here=$(cd "$(dirname "$0")" && pwd)
root=$(dirname "$here")
: "${BENCH_BUILD:=$here/build}"
: "${LIKELYPROF_INCLUDE_DIR:=$root/include}"
: "${LIKELYPROF_LIB_DIR:=$root/lib}"
: "${BENCH_GCC:=gcc}"
: "${BENCH_CLANG:=clang}"
export BENCH_BUILD LIKELYPROF_INCLUDE_DIR LIKELYPROF_LIB_DIR BENCH_GCC \
	BENCH_CLANG
if [ -n "${LIKELYPROF:-}" ]; then
	export LIKELYPROF
fi

# Progress goes to stderr: stdout is the part's section of RESULTS.md.
say() {
	echo "bench: $*" >&2
}

have() {
	command -v "$1" >/dev/null 2>&1
}

# A failure to report: the part goes on and exits 1 at its end.
fail() {
	say "FAILED: $*"
	failed=1
}

# --- real projects

# real_src PACKAGE LOG: the upstream tarball of a Debian source package,
# fetched as tests/real fetches it and kept in BENCH_REAL_DIR; its path
# on stdout, or a failure with the reason at the end of LOG.
real_src() {
	(
		HERE=$root/tests/real
		. "$root/tests/real/lib.sh"
		REAL_DIR=${BENCH_REAL_DIR:-$root/build/real}
		APT_DIR=$REAL_DIR/apt
		SRC_DIR=$REAL_DIR/src
		mkdir -p "$REAL_DIR"
		fetch "$1" "$2"
	)
}

# --- building

# The wrapper when it is built, so the variant is what users get; else the
# flags it adds (tools/cmd-cc.c), so that the runtime alone suffices.
if [ -x "${LIKELYPROF:-}" ]; then
	lp_how="built with \`likelyprof cc\`"
else
	lp_how="built with \`-DLIKELYPROF_INSTRUMENT -include likelyprof.h\`,
  the flags of \`likelyprof cc\` (the command was not built)"
fi

lp_cc() {
	compiler=$1
	shift
	if [ -x "${LIKELYPROF:-}" ]; then
		CC=$compiler "$LIKELYPROF" cc "$@"
		return
	fi
	case " $* " in
	*" -fPIC "*) set -- -DLIKELYPROF_TLS_INITIAL_EXEC "$@" ;;
	esac
	"$compiler" -DLIKELYPROF_INSTRUMENT \
		-include "$LIKELYPROF_INCLUDE_DIR/likelyprof.h" "$@" \
		-L"$LIKELYPROF_LIB_DIR" -Wl,-rpath,"$LIKELYPROF_LIB_DIR" \
		-Wl,--no-as-needed -llikelyprof -ldl
}

# variant_name VARIANT: its name in a table
variant_name() {
	case $1 in
	*-plain) echo "plain" ;;
	*-likelyprof) echo "likelyprof" ;;
	*-kernel) echo "kernel-style global \`++\`" ;;
	*-atomic) echo "relaxed atomic add" ;;
	gcc-gcov) echo "gcc \`-fprofile-arcs\`" ;;
	clang-pgo) echo "clang \`-fprofile-instr-generate\`" ;;
	esac
}

compiler_of() {
	case $1 in
	clang-*) echo "$BENCH_CLANG" ;;
	*) echo "$BENCH_GCC" ;;
	esac
}

plain_of() {
	case $1 in
	clang-*) echo clang-plain ;;
	*) echo gcc-plain ;;
	esac
}

# --- timing

# The helpers of the parts that time variants (named COMPILER-KIND, as
# gcc-plain) against the plain build of the same compiler.  A part sets
# $times, a file of lines "VARIANT THREADS WALL CPU".

# field KEY FILE: the value of the line "KEY value".
field() {
	sed -n "s/^$1 //p" "$2"
}

# Reads numbers, one a line; prints "median min max".
summary() {
	sort -n | awk '{ a[NR] = $1 }
		END {
			if (!NR)
				exit 1
			if (NR % 2)
				m = a[(NR + 1) / 2]
			else
				m = (a[NR / 2] + a[NR / 2 + 1]) / 2
			print m, a[1], a[NR]
		}'
}

# spread VARIANT THREADS [COLUMN]: "median min max" of the timed runs;
# COLUMN 3 (the default) is wall-clock time, 4 CPU time.
spread() {
	awk -v v="$1" -v t="$2" -v c="${3:-3}" \
		'$1 == v && $2 == t { print $c }' "$times" | summary
}

# r VARIANT THREADS [COLUMN]: ratio of the medians to the plain build's.
r() {
	set -- "$(spread "$1" "$2" "${3:-3}")" \
		"$(spread "$(plain_of "$1")" "$2" "${3:-3}")"
	awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { printf "%.2f", a / b }'
}

# is A OP B, for decimals
is() {
	awk -v a="$1" -v b="$3" -v op="$2" 'BEGIN {
		exit !(op == "<=" ? a <= b : a < b) }'
}
