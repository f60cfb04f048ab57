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

# Whether callgrind can count; if not, the section says so.
have_callgrind() {
	have valgrind && return 0
	echo "Not measured: no valgrind (callgrind counts the instructions)."
	return 1
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

# --- variants of real projects

# The helpers of the parts that build fetched projects in variants: gcc
# and clang plain, with likelyprof, with gcov's -fprofile-arcs and clang's
# -fprofile-instr-generate.  A part sets $work (its scratch folder), $bin
# (the builds, each logging to $bin/NAME-VARIANT.log), $variants and
# failed=0; fail sets failed=1, the part's exit status.

# start_variants PART: a fresh $BENCH_BUILD/PART with $bin, $run and
# $times in it, the profiles of every run going to $run, $variants those
# of the compilers found, and $bin/timeit
start_variants() {
	work=$BENCH_BUILD/$1
	bin=$work/bin
	run=$work/run
	times=$work/times
	failed=0
	rm -rf "$work"
	mkdir -p "$bin" "$run" || exit 1
	: >"$times"
	LIKELYPROF_FILE=$run/likelyprof.lprof
	LLVM_PROFILE_FILE=$run/clang.profraw
	export LIKELYPROF_FILE LLVM_PROFILE_FILE
	variants=$(compiler_variants)
	"$BENCH_GCC" -O2 -o "$bin/timeit" "$here/timeit.c" || exit 1
}

# compiler_variants: plain, likelyprof and the compiler's own profiling,
# with gcc, and with clang where it is found
compiler_variants() {
	echo "gcc-plain gcc-likelyprof gcc-gcov"
	if have "$BENCH_CLANG"; then
		echo "clang-plain clang-likelyprof clang-pgo"
	fi
}

# extra_flags VARIANT: what a variant adds to compiling and linking
extra_flags() {
	case $1 in
	*-gcov) echo "-fprofile-arcs" ;;
	*-pgo) echo "-fprofile-instr-generate" ;;
	esac
}

# vcc VARIANT ARGS...: compiles or links as the variant does
vcc() {
	v=$1
	shift
	case $v in
	*-likelyprof) lp_cc "$(compiler_of "$v")" "$@" ;;
	*) "$(compiler_of "$v")" $(extra_flags "$v") "$@" ;;
	esac
}

cxx_of() {
	case $1 in
	clang-*) echo "${BENCH_CLANGXX:-clang++}" ;;
	*) echo "${BENCH_GXX:-g++}" ;;
	esac
}

# cc_line VARIANT [C++]: the variant's compiler as one CC= or CXX= value,
# the profiling flags in it so that links have them too; likelyprof's is
# the launcher form, which names the compiler (make exports CC with
# configure's value, so `likelyprof cc` would not see ours).
cc_line() {
	c=$(compiler_of "$1")
	[ -z "${2:-}" ] || c=$(cxx_of "$1")
	case $1 in
	*-likelyprof) echo "$LIKELYPROF $c" ;;
	*) echo "$c $(extra_flags "$1")" ;;
	esac
}

# build_project NAME [WHY-NOT [PACKAGE]]: fetches the Debian source
# PACKAGE (NAME by default) and builds it in every variant with
# build_NAME VARIANT TARBALL, unless WHY-NOT says why it cannot be; sets
# NAME_variants to the variants built and NAME_note to why there are none.
build_project() {
	built=
	note=${2:-}
	if [ -n "$note" ]; then
		:
	elif tarball=$(real_src "${3:-$1}" "$work/fetch.log") &&
	     [ -n "$tarball" ]; then
		say "building $1 ($(basename "$tarball")): $variants"
		for v in $variants; do
			if "build_$1" "$v" "$tarball"; then
				built="$built $v"
			else
				fail "cannot build $1, $v: see $bin/$1-$v.log"
			fi
		done
	else
		note="not measured: cannot fetch ${3:-$1} ($(tail -n 1 \
			"$work/fetch.log" 2>/dev/null))"
	fi
	[ -n "$built" ] || note=${note:-"not measured"}
	eval "$1_variants=\$built $1_note=\$note"
}

# ratio WORKLOAD:VARIANT THREADS COLUMN: to the plain build's median
ratio() {
	w=${1%%:*}
	v=${1#*:}
	set -- "$(spread "$1" "$2" "$3")" \
		"$(spread "$w:$(plain_of "$v")" "$2" "$3")"
	awk -v a="${1%% *}" -v b="${2%% *}" 'BEGIN { printf "%.2f", a / b }'
}

# ir_ratio WORKLOAD:VARIANT: instructions to the plain build's, from
# $work/instructions, lines "WORKLOAD:VARIANT COUNT"
ir_ratio() {
	a=$(field "$1" "$work/instructions")
	b=$(field "${1%%:*}:$(plain_of "${1#*:}")" "$work/instructions")
	[ -n "$a" ] && [ -n "$b" ] || { echo "—"; return; }
	awk -v a="$a" -v b="$b" 'BEGIN { printf "%.2f", a / b }'
}


# profile_counts FILE: "EVALUATIONS SITES-COUNTED SITES" of a likelyprof
# profile: the hinted evaluations it holds, the sites that ran.
profile_counts() {
	awk -F'\t' '$1 == "site" { n += $2 + $3; s++; if ($2 + $3) c++ }
		END { printf "%.0f %d %d\n", n, c, s }' "$1" 2>/dev/null
}
