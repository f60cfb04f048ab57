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
