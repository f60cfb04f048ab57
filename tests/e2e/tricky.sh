#!/bin/sh
# tricky.sh - the uses of __builtin_expect that break naive instrumentation,
# built plain and with `likelyprof cc` by gcc and clang, at -O0/-O2/-O3,
# as gnu89..gnu17 and as C++, -fPIC too, all with -Wall -Wextra -Wshadow -pedantic
# -Werror: the instrumented build must succeed wherever the plain one does,
# print the same, and yield the sites and counts the code implies.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/tricky
WARN="-Wall -Wextra -Wshadow -pedantic -Werror"
SAN=$(san_flags)

# build KIND CC FLAGS... ; KIND is plain or lp; objects go to $dir.
# Sources are named relative to their folder, as make does.
build() {
	(cd "$SRC" && build_here "$@")
}

build_here() {
	kind=$1 cc=$2
	shift 2
	for f in main part_a part_b part_c file_scope; do
		if [ "$kind" = plain ]; then
			$cc "$@" $LANG_FLAGS -c "$f.c" -o "$dir/$kind-$f.o" || return 1
		else
			CC=$cc $LIKELYPROF cc "$@" $LANG_FLAGS -c "$f.c" \
				-o "$dir/$kind-$f.o" 2>>"$dir/$kind.err" || return 1
		fi
	done
	# the C flags reach the assembler file too, as build systems do
	if [ "$kind" = plain ]; then
		$ASM_CC "$@" -c asm.S -o "$dir/$kind-asm.o" || return 1
		$cc "$@" "$dir"/$kind-*.o -o "$dir/$kind" || return 1
	else
		CC=$ASM_CC $LIKELYPROF cc "$@" -c asm.S -o "$dir/$kind-asm.o" || return 1
		CC=$cc $LIKELYPROF cc "$@" "$dir"/$kind-*.o -o "$dir/$kind" || return 1
	fi
}

configs=0
check_config() {
	cc=$1 asm_cc=$2 lang=$3
	shift 3
	configs=$((configs + 1))
	dir=$SCRATCH/$configs
	mkdir -p "$dir"
	LANG_FLAGS=$lang ASM_CC=$asm_cc
	build plain "$cc" "$@" $SAN || { note "skip $cc $*: plain build fails"; return; }
	if ! build lp "$cc" "$@" $SAN; then
		fail "$cc $lang $*: instrumented build failed"
		sed 's/^/    /' "$dir/lp.err" | head -20
		return
	fi
	if grep -v "file_scope.c: the hint at file_scope.c:[0-9]* cannot be counted" "$dir/lp.err" |
	   grep -q .; then
		fail "$cc $lang $*: instrumented build printed:"
		sed 's/^/    /' "$dir/lp.err" | head -10
	fi
	# C++ instruments file scope too; in C the hints there stay plain
	if [ -z "$lang" ]; then
		grep -q "file_scope.c: the hint at file_scope.c:[0-9]* cannot be counted" "$dir/lp.err" ||
			fail "$cc $lang $*: no note about the file-scope hint"
	fi
	"$dir/plain" > "$dir/plain.out" || fail "$cc $*: plain program failed"
	LIKELYPROF_FILE=$dir/lp.lprof "$dir/lp" > "$dir/lp.out" ||
		fail "$cc $*: instrumented program failed"
	cmp -s "$dir/plain.out" "$dir/lp.out" ||
		fail "$cc $lang $*: output differs: $(cat "$dir/plain.out") / $(cat "$dir/lp.out")"
	[ -f "$dir/lp.lprof" ] || { fail "$cc $*: no profile"; return; }
	check_profile "$cc $lang $*" "$dir/lp.lprof" "$lang"
	check_warnings "$cc" "$lang" "$@"
}

# The project's own warnings pass through the wrapper unchanged (gcc
# silences a main file's warnings when a -include'd header declares itself
# a system header: this catches that).
check_warnings() {
	cc=$1 lang=$2
	shift 2
	flags=$(echo "$*" | sed 's/-Werror//')
	(cd "$SRC" && $cc $flags $lang -c warnings.c -o /dev/null) \
		2> "$dir/w-plain.err"
	(cd "$SRC" && CC=$cc $LIKELYPROF cc $flags $lang -c warnings.c \
		-o /dev/null) 2> "$dir/w-lp.err"
	grep -q warning: "$dir/w-plain.err" ||
		fail "$cc $lang $*: warnings.c drew no warning at all"
	cmp -s "$dir/w-plain.err" "$dir/w-lp.err" ||
		fail "$cc $lang $*: warnings differ: $(diff "$dir/w-plain.err" "$dir/w-lp.err" | head -5)"
}

# expect_site DESC PROFILE FILE FUNC UNIT COND-PREFIX WANT
expect_site() {
	got=$(site_counts "$2" "$3" "$4" "$5" "$6")
	[ "$got" = "$7" ] || fail "$1: $4 '$6' in $3 ($5): got '$got', want '$7'"
}

check_profile() {
	p=$2
	# while (likely(i++ < n)), n = 1001: 1001 times true, once false
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(i++ < n)' "1001 1"
	# for (k = 0; likely(k < 50); k++)
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(k < 50)' "50 1"
	# nested: the inner hint runs only where k > 2 (47 times), 7 hits
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(k % 7 == 0)' "40 7"
	# two hints on one line; the second runs only for odd k (25 times)
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(k & 1)' "25 25"
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(k > 40)' "20 5"
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(k == 13)' "49 1"
	expect_site "$1" "$p" part_a.c part_a part_a.c '(k & 3)' "12 38"
	expect_site "$1" "$p" part_a.c part_a part_a.c '!!(p != 0)' "4 1"
	# a null pointer the optimiser can see: once wrong, or once constant
	# (which the kernel counts as correct)
	got=$(awk -F'\t' '$1 == "site" && $10 == "!!(nodes[3].next)" { print $2, $3, $4 }' "$p")
	case "$got" in
	"0 1 0"|"1 0 1") ;;
	*) fail "$1: nodes[3].next: got '$got', want '0 1 0' or '1 0 1'" ;;
	esac
	# switch (__builtin_expect(i % 4, 3)) over 500 values
	expect_site "$1" "$p" part_b.c part_b part_b.c 'i % 4' "125 375"
	# a run-time expected value: recorded as '?', counted all the same
	got=$(awk -F'\t' '$1 == "site" && $10 == "i % 3" { print $5, $2, $3 }' "$p")
	# (C++ at -O2 may see that it is always 2, and record that)
	case "$got" in
	"? 166 334"|"2 166 334") ;;
	*) fail "$1: run-time expected value: got '$got'" ;;
	esac
	# the header's static inline: one row per file that uses it
	expect_site "$1" "$p" tricky.h clamp part_b.c '!!(v < lo)' "490 10"
	expect_site "$1" "$p" tricky.h clamp part_c.c '!!(v < lo)' "300 0"
	# CHECK() expands its hint at two lines of part_b and one of part_c
	expect_site "$1" "$p" part_b.c part_b part_b.c '!!(i % 97 == 0)' "494 6"
	expect_site "$1" "$p" part_b.c part_b part_b.c '!!(i > n)' "500 0"
	# constant contexts stay unprofiled
	got=$(awk -F'\t' '$1 == "site" && $10 ~ /^[0-9]+$/' "$p" | wc -l)
	[ "$got" -eq 0 ] || fail "$1: constant hints were profiled"
	if [ -z "$3" ]; then
		# compiled, never called: listed with zero counts (whole-program
		# LTO drops the function, and its site with it)
		case $1 in
		*-flto*) ;;
		*) expect_site "$1" "$p" part_c.c never_called part_c.c \
			'!!(x == 12345)' "0 0" ;;
		esac
		# the hints at file scope stay plain, and only they: the
		# function of the same file counts
		expect_site "$1" "$p" file_scope.c part_file_scope file_scope.c '!!(s > 0)' "1 0"
	else
		# C++: records are made on first use, so never-run sites are
		# missing; file scope parses, so that file's function counts
		expect_site "$1" "$p" file_scope.c part_file_scope file_scope.c '!!(s > 0)' "1 0"
	fi
}

for cc in ${LP_E2E_COMPILERS:-gcc clang}; do
	command -v "$cc" >/dev/null || { note "skip $cc"; continue; }
	for opt in -O0 -O2 -O3; do
		for std in gnu89 gnu99 gnu11 gnu17; do
			check_config "$cc" "$cc" "" $opt -std=$std $WARN
		done
	done
done
# -fPIC code takes anchored initial-exec counters, which LTO and g++'s
# -fdata-sections turn off: each form must count the same.
for cc in ${LP_E2E_COMPILERS:-gcc clang}; do
	command -v "$cc" >/dev/null || continue
	for opt in -O0 -O2 -O3; do
		check_config "$cc" "$cc" "" $opt -fPIC -std=gnu89 $WARN
	done
	check_config "$cc" "$cc" "" -O2 -fPIC -fdata-sections -std=gnu17 $WARN
	[ "$cc" = gcc ] &&
		check_config "$cc" "$cc" "" -O2 -fPIC -flto -std=gnu17 $WARN
	# an executable's counters are named in the stub's asm (x86-64),
	# which LTO turns off too
	[ "$cc" = gcc ] &&
		check_config "$cc" "$cc" "" -O2 -flto -std=gnu17 $WARN
done
for cxx in ${LP_E2E_CXX:-g++ clang++}; do
	command -v "$cxx" >/dev/null || continue
	asm=gcc
	[ "$cxx" = clang++ ] && asm=clang
	for extra in "-O0 -fPIC" "-O2 -fPIC" "-O2 -fPIC -fdata-sections"; do
		check_config "$cxx" "$asm" "-x c++" $extra -std=gnu++17 $WARN
	done
	[ "$cxx" = g++ ] &&
		check_config "$cxx" "$asm" "-x c++" -O2 -fPIC -flto -std=gnu++17 $WARN
done
for cxx in ${LP_E2E_CXX:-g++ clang++}; do
	command -v "$cxx" >/dev/null || { note "skip $cxx"; continue; }
	asm=gcc
	[ "$cxx" = clang++ ] && asm=clang
	for opt in -O0 -O2; do
		for std in gnu++11 gnu++17; do
			check_config "$cxx" "$asm" "-x c++" $opt -std=$std $WARN
		done
	done
done
note "$configs configurations"
finish
