#!/bin/sh
# stub.sh - on x86-64 a site's first count is called from an asm the
# compiler cannot see (likelyprof.h, LP_STUB_ASM_), so the instrumented
# code must keep the plain build's registers and stack frame, in C and
# in optimised C++:
#  - regs.c keeps integers, doubles and a vector live across 66 first
#    counts in 5 threads; its output must equal the plain build's, built
#    as an executable, as -fPIC code, and with -mavx2 where the CPU has
#    it, and every evaluation must be counted;
#  - leaf.c's functions make no call and push nothing when built plain;
#    instrumented, they must push and call no more than plain (gcc,
#    clang, g++ and clang++; executable, PIE and -fPIC code), and count
#    exactly;
#  - late.c, a plain program with 40 pthread keys, dlopen()s plug.c's
#    module, runs it in a thread on a stack it then unmaps, and in main:
#    the runtime's key is past glibc's first 32, so the stub cannot ask
#    for that thread's exit to be told; the dump at exit must not crash
#    on the gone stack, and the thread's 1000 evaluations and main's 10
#    must all be counted.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/stub
case $(uname -m) in
x86_64) ;;
*) note "skip: the stub is x86-64 only"; finish ;;
esac

# frame_ops OBJ FUNC -> pushes, calls and stack adjustments in FUNC
frame_ops() {
	func_disasm "$1" "$2" > "$SCRATCH/func.dis" || { echo missing; return; }
	grep -cE '^ +[0-9a-f]+:[[:space:]]+(push|call|sub +\$0x[0-9a-f]+,%rsp)' \
		"$SCRATCH/func.dis"
}

# total_evals PROFILE FUNC -> evaluations of FUNC's sites, or of all
# sites for "" (correct + incorrect: a folded one is correct too)
total_evals() {
	awk -F'\t' -v fn="$2" '$1 == "site" && (fn == "" || $8 == fn) { n += $2 + $3 }
		END { print n + 0 }' "$1"
}

avx=
grep -qw avx2 /proc/cpuinfo 2>/dev/null && avx=-mavx2

# check COMPILER DRIVER LANG-FLAGS POP-SYMBOL PUSH-SYMBOL
check() {
	cc=$1 drv=$2 lang=$3 pop=$4 push=$5
	out=$SCRATCH/$cc
	mkdir -p "$out"
	for f in "" -fPIC $avx; do
		flags="-O2 -Wall -Wextra $(san_flags) $f -pthread"
		"$cc" $lang $flags "$SRC/regs.c" -o "$out/plain" &&
		CC=$cc CXX=$cc $LIKELYPROF $drv $lang $flags "$SRC/regs.c" \
			-o "$out/inst" ||
			{ fail "$cc $f: regs.c did not build"; continue; }
		"$out/plain" > "$out/plain.out" &&
		LIKELYPROF_FILE=$out/regs.lprof "$out/inst" > "$out/inst.out" ||
			{ fail "$cc $f: regs.c did not run"; continue; }
		cmp -s "$out/plain.out" "$out/inst.out" ||
			fail "$cc $f: registers changed across a first count:
$(diff "$out/plain.out" "$out/inst.out")"
		# 64 sites per chains() call, 8 per vec(), 1 per straddle(),
		# each called by 4 threads and main (straddle by the 4)
		n=$(total_evals "$out/regs.lprof" "")
		[ "$n" = 364 ] || fail "$cc $f: $n evaluations counted, want 364"
	done

	for f in "" -fPIE -fPIC; do
		flags="-O2 -Wall -Wextra $f"
		"$cc" $lang $flags -c "$SRC/leaf.c" -o "$out/leaf-plain.o" &&
		CC=$cc CXX=$cc $LIKELYPROF $drv $lang $flags -c "$SRC/leaf.c" \
			-o "$out/leaf.o" ||
			{ fail "$cc $f: leaf.c did not build"; continue; }
		[ -n "$LP_SANITIZE" ] && continue
		for fn in $pop $push; do
			p=$(frame_ops "$out/leaf-plain.o" $fn)
			i=$(frame_ops "$out/leaf.o" $fn)
			[ "$p" != missing ] && [ "$i" != missing ] &&
				[ "$i" -le "$p" ] ||
				fail "$cc $f: $fn pushes or calls $i times, plain $p"
		done
	done
	"$cc" $lang -O2 $(san_flags) "$SRC/leaf.c" "$SRC/main.c" \
		-o "$out/leaf-plain" &&
	CC=$cc CXX=$cc $LIKELYPROF $drv $lang -O2 $(san_flags) "$SRC/leaf.c" \
		"$SRC/main.c" -o "$out/leaf" &&
		LIKELYPROF_FILE=$out/leaf.lprof "$out/leaf" > "$out/leaf.out" ||
		{ fail "$cc: leaf program failed"; return; }
	"$out/leaf-plain" | cmp -s - "$out/leaf.out" ||
		fail "$cc: leaf program printed $(cat "$out/leaf.out")"
	# 1000 calls of each; leaf_pop's sizes above 448 (102 of them) leave
	# after its first two sites, the others evaluate five
	n=$(total_evals "$out/leaf.lprof" leaf_push)
	[ "$n" = 1000 ] || fail "$cc: leaf_push: $n evaluations, want 1000"
	n=$(total_evals "$out/leaf.lprof" leaf_pop)
	[ "$n" = 4694 ] || fail "$cc: leaf_pop: $n evaluations, want 4694"
}

for cc in ${LP_E2E_COMPILERS:-gcc clang}; do
	command -v "$cc" >/dev/null || { note "skip $cc: not installed"; continue; }
	check "$cc" cc "" leaf_pop leaf_push
done

# late: the plain host has no sanitizer runtime to load a sanitized one
if [ -z "$LP_SANITIZE" ]; then
	out=$SCRATCH/late
	mkdir -p "$out"
	if CC=gcc $LIKELYPROF cc -O2 -fPIC -shared "$SRC/plug.c" \
		-o "$out/plug.so" &&
	   gcc -O2 "$SRC/late.c" -o "$out/late" -ldl -pthread; then
		(cd "$out" && $LIKELYPROF run -o late.lprof -- ./late ./plug.so) \
			> "$out/run.out" 2>&1 ||
			fail "late: the run failed: $(cat "$out/run.out")"
		set -- $(awk -F'\t' '$1 == "site" { print $2, $3 }' \
			"$out/late.lprof" 2>/dev/null)
		# x > 5 expected false: 6 + 6 correct, 994 + 4 not
		[ "$*" = "12 998" ] ||
			fail "late: the counts are '$*', want '12 998'"
	else
		fail "late: did not build"
	fi
fi
for cxx in ${LP_E2E_CXX:-g++ clang++}; do
	command -v "$cxx" >/dev/null || { note "skip $cxx: not installed"; continue; }
	check "$cxx" c++ "-x c++" _Z8leaf_popm _Z9leaf_pushmPv
done
finish
