#!/bin/sh
# overhead.sh - what counting the hints costs: one program (bench/workload)
# built from the same source as plain, likelyprof, the kernel's scheme,
# relaxed atomics, gcc -fprofile-arcs and clang -fprofile-instr-generate,
# run interleaved, with the counts each scheme kept and the instructions
# it adds per annotated evaluation.
#
# Called by bench/run.sh, which sets BENCH_BUILD and the LIKELYPROF*
# variables; prints a Markdown section on stdout, progress on stderr.
# Exits 1 if a build gives a wrong checksum or likelyprof loses a count.
#
# Knobs (environment):
#   BENCH_ROUNDS=7          timed rounds, each runs every variant once
#   BENCH_KIB=1024 BENCH_PASSES=20      size of a timed run (~0.35 s)
#   BENCH_CG_KIB=512 BENCH_CG_PASSES=1  size of a run under callgrind
#   BENCH_GCC=gcc BENCH_CLANG=clang     compilers; clang rows are left
#                                       out when clang is missing
#   BENCH_CFLAGS="-O2 -gdwarf-4"      (valgrind 3.19 cannot read clang 14's
#                                       DWARF 5; -g changes no code)
. "$(dirname "$0")/lib.sh"
: "${BENCH_ROUNDS:=7}"
: "${BENCH_KIB:=1024}"
: "${BENCH_PASSES:=20}"
: "${BENCH_CG_KIB:=512}"
: "${BENCH_CG_PASSES:=1}"
: "${BENCH_CFLAGS:=-O2 -gdwarf-4}"

work=$BENCH_BUILD/overhead
bin=$work/bin
run=$work/run
times=$work/times
counts=$work/counts
src="$here/workload/main.c $here/workload/tok.c $here/workload/htab.c
	$here/workload/lz.c"
flags="-std=gnu99 -pthread $BENCH_CFLAGS"
failed=0

fail() {
	echo "bench: FAILED: $*" >&2
	failed=1
}

rm -rf "$work"
mkdir -p "$bin" "$run" || exit 1
: >"$times"
: >"$counts"

# The profiles of every run land in the scratch folder and are replaced
# by the next run, so a long benchmark does not fill the disk.
LIKELYPROF_FILE=$run/likelyprof.lprof
LLVM_PROFILE_FILE=$run/clang.profraw
export LIKELYPROF_FILE LLVM_PROFILE_FILE

variants="gcc-plain gcc-likelyprof gcc-kernel gcc-atomic gcc-gcov"
if have "$BENCH_CLANG"; then
	variants="$variants clang-plain clang-likelyprof clang-kernel clang-pgo"
else
	say "no $BENCH_CLANG: clang rows left out"
fi

# --- building -------------------------------------------------------------

# The wrapper when it is built, so the variant is what users get; the
# flags it adds otherwise (tools/cmd-cc.c), so the runtime alone suffices.
if [ -x "${LIKELYPROF:-}" ]; then
	lp_how="\`likelyprof cc\`"
else
	lp_how="-DLIKELYPROF_INSTRUMENT -include likelyprof.h (no \`likelyprof\` command built)"
fi

lp_cc() {
	compiler=$1
	shift
	if [ -x "${LIKELYPROF:-}" ]; then
		CC=$compiler "$LIKELYPROF" cc "$@"
	else
		"$compiler" -DLIKELYPROF_INSTRUMENT \
			-include "$LIKELYPROF_INCLUDE_DIR/likelyprof.h" "$@" \
			-L"$LIKELYPROF_LIB_DIR" -Wl,-rpath,"$LIKELYPROF_LIB_DIR" \
			-Wl,--no-as-needed -llikelyprof -ldl
	fi
}

compiler_of() {
	case $1 in
	clang-*) echo "$BENCH_CLANG" ;;
	*) echo "$BENCH_GCC" ;;
	esac
}

build() {
	v=$1
	cc=$(compiler_of "$v")
	ks="-include $here/kernel-style.h $here/kernel-style.c"
	# $src, $flags and $ks are word lists on purpose
	case $v in
	count) $cc $flags -DWL_COUNT $src -o "$bin/$v" ;;
	*-plain) $cc $flags $src -o "$bin/$v" ;;
	*-likelyprof) lp_cc "$cc" $flags $src -o "$bin/$v" ;;
	*-kernel) $cc $flags $ks $src -o "$bin/$v" ;;
	*-atomic) $cc $flags -DKS_ATOMIC $ks $src -o "$bin/$v" ;;
	gcc-gcov) $cc $flags -fprofile-arcs $src -o "$bin/$v" ;;
	clang-pgo) $cc $flags -fprofile-instr-generate $src -o "$bin/$v" ;;
	esac
}

describe() {
	case $1 in
	*-plain) echo "plain" ;;
	*-likelyprof) echo "likelyprof" ;;
	*-kernel) echo "kernel-style global \`++\`" ;;
	*-atomic) echo "relaxed atomic add" ;;
	gcc-gcov) echo "gcc \`-fprofile-arcs\`" ;;
	clang-pgo) echo "clang \`-fprofile-instr-generate\`" ;;
	esac
}

say "building $variants"
"$BENCH_GCC" -O2 -o "$bin/timeit" "$here/timeit.c" || exit 1
for v in count $variants; do
	build "$v" || { fail "cannot build $v"; exit 1; }
done

# --- the reference: checksum and number of evaluations ---------------------

# Prints the value of "KEY value" in FILE.
field() {
	sed -n "s/^$1 //p" "$2"
}

reference() {
	"$bin/count" "$1" "$2" "$3" >"$run/ref" || exit 1
	ref_sum=$(field checksum "$run/ref")
	ref_evals=$(field evaluations "$run/ref")
}

reference 1 "$BENCH_KIB" "$BENCH_PASSES"
checksum=$ref_sum
expect_1=$ref_evals
reference 2 "$BENCH_KIB" "$BENCH_PASSES"
expect_2=$ref_evals
[ "$ref_sum" = "$checksum" ] || fail "checksum differs with 2 threads"

# --- timed runs -------------------------------------------------------------

# Sum of correct + incorrect over a likelyprof profile's site records.
profile_total() {
	awk -F'\t' '$1 == "site" { n += $2 + $3 } END { printf "%.0f\n", n }' \
		"$1"
}

# run VARIANT THREADS: one timed run, checked; appends to $times/$counts.
run() {
	v=$1
	t=$2
	rm -f "$LIKELYPROF_FILE"
	secs=$("$bin/timeit" "$run/out" "$run/err" "$bin/$v" "$t" \
		"$BENCH_KIB" "$BENCH_PASSES") ||
		{ fail "$v $t: exit status $?: $(cat "$run/err")"; return; }
	sum=$(field checksum "$run/out")
	[ "$sum" = "$checksum" ] ||
		fail "$v $t: checksum $sum, expected $checksum"
	echo "$v $t $secs" >>"$times"
	eval "expect=\$expect_$t"
	case $v in
	*-likelyprof)
		got=$(profile_total "$LIKELYPROF_FILE")
		[ "$got" = "$expect" ] ||
			fail "$v $t: likelyprof counted $got of $expect"
		;;
	*-kernel | *-atomic)
		got=$(sed -n 's/^kernel-style: .* correct \([0-9]*\) incorrect \([0-9]*\) .*/\1 \2/p' \
			"$run/err" | awk '{ printf "%.0f\n", $1 + $2 }')
		;;
	*) return ;;
	esac
	echo "$v $t $got $expect" >>"$counts"
}

# One untimed round first: caches, page faults of the first start, and
# every check once before the clock matters.
round=0
while [ "$round" -le "$BENCH_ROUNDS" ]; do
	if [ "$round" = 0 ]; then
		say "untimed round"
	else
		say "round $round of $BENCH_ROUNDS"
	fi
	for t in 1 2; do
		for v in $variants; do
			run "$v" "$t"
		done
	done
	if [ "$round" = 0 ]; then
		: >"$times"
		: >"$counts"
	fi
	round=$((round + 1))
done

# --- instructions per evaluation ---------------------------------------------

# Callgrind counts instructions inside work(), the threads' function, and
# what it calls: the hot path without start-up and the profile dump.  (perf
# stat would do, but hardware counters are often missing in VMs.)
have_cg=0
if have valgrind; then
	have_cg=1
	say "counting instructions with callgrind"
	reference 1 "$BENCH_CG_KIB" "$BENCH_CG_PASSES"
	cg_evals=$ref_evals
	for v in $variants; do
		ir=$(valgrind --tool=callgrind --toggle-collect=work \
			--callgrind-out-file="$run/callgrind.out" "$bin/$v" 1 \
			"$BENCH_CG_KIB" "$BENCH_CG_PASSES" 2>&1 >/dev/null |
			sed -n 's/.*Collected : *\([0-9]*\).*/\1/p')
		[ -n "$ir" ] || { fail "callgrind gave no count for $v"; continue; }
		echo "$v $ir" >>"$work/instructions"
	done
else
	say "no valgrind: instructions per evaluation left out"
fi

# The hot path of one site, for doc/DESIGN.md.
objdump -d --no-show-raw-insn -l "$bin/gcc-likelyprof" 2>/dev/null |
	awk '/<wl_tokenize>:/, /^$/' >"$work/hotpath-gcc-likelyprof.txt"

# --- the report ---------------------------------------------------------------

# stat VARIANT THREADS [COLUMN]: median, min and max seconds of the timed
# runs; COLUMN 3 (default) is wall-clock time, 4 CPU time.
stat() {
	awk -v v="$1" -v t="$2" -v c="${3:-3}" \
		'$1 == v && $2 == t { print $c }' "$times" |
		sort -n | awk '{ a[NR] = $1 }
		END {
			if (!NR) { print "- - -"; exit }
			m = NR % 2 ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2
			printf "%.3f %.3f %.3f\n", m, a[1], a[NR]
		}'
}

median() {
	stat "$1" "$2" "${3:-3}" | cut -d' ' -f1
}

ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'
}

plain_of() {
	case $1 in
	clang-*) echo clang-plain ;;
	*) echo gcc-plain ;;
	esac
}

# kept VARIANT THREADS: "exact in N runs" or the share of counts lost.
kept() {
	awk -v v="$1" -v t="$2" '$1 == v && $2 == t {
			n++
			loss = ($4 - $3) * 100 / $4
			if (n == 1 || loss < lo) lo = loss
			if (n == 1 || loss > hi) hi = loss
			l[n] = loss
		}
		END {
			if (!n) { print "n/a (counts edges, not hints)"; exit }
			if (hi == 0 && lo == 0) { printf "exact in %d of %d runs\n", n, n; exit }
			for (i = 1; i <= n; i++)
				for (j = i + 1; j <= n; j++)
					if (l[j] < l[i]) { x = l[i]; l[i] = l[j]; l[j] = x }
			m = n % 2 ? l[(n + 1) / 2] : (l[n / 2] + l[n / 2 + 1]) / 2
			printf "lost %.1f%% (median; %.1f%% to %.1f%% over %d runs)\n", m, lo, hi, n
		}' "$counts"
}

table() {
	t=$1
	echo "| variant | compiler | median (s) | min–max (s) | × plain |" \
		"CPU time × plain | counts |"
	echo "|---|---|---:|---:|---:|---:|---|"
	for v in $variants; do
		set -- $(stat "$v" "$t")
		echo "| $(describe "$v") | ${v%%-*} | $1 | $2–$3 |" \
			"**$(r "$v" "$t")** | $(r "$v" "$t" 4) |" \
			"$(case $v in *-plain) echo "—" ;; *) kept "$v" "$t" ;; esac) |"
	done
}

# r VARIANT THREADS [COLUMN]: the ratio of medians to the plain build.
r() {
	ratio "$(median "$1" "$2" "${3:-3}")" \
		"$(median "$(plain_of "$1")" "$2" "${3:-3}")"
}

# le A B: true when A <= B (decimals).
le() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a <= b) }'
}

lt() {
	awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'
}

exact() {
	case $(kept "$1" "$2") in
	exact*) return 0 ;;
	*) return 1 ;;
	esac
}

met() {
	if "$@"; then echo "**met**"; else echo "**not met**"; fi
}

cat <<EOF
The program (\`bench/workload\`) tokenizes ${BENCH_KIB} KiB of generated
text, counts its tokens in an open-addressing hash table and compresses
and decompresses it with a small LZ77 coder, ${BENCH_PASSES} times over,
in each of 1 or 2 threads that share only the read-only text. Its
likely()/unlikely() sit in the hot loops, some right and some wrong, as
real code has them: $expect_1 annotated evaluations per thread-run, about
$(awk -v e="$expect_1" -v k="$BENCH_KIB" -v p="$BENCH_PASSES" \
	'BEGIN { printf "%.1f", e / (k * 1024 * p) }') per byte of input.
Every variant is built from the same source with \`$BENCH_CFLAGS\`; only
what \`__builtin_expect\` means differs:

- **plain**: as written.
- **likelyprof**: $lp_how.
- **kernel-style global \`++\`**: \`bench/kernel-style.h\`, the scheme of
  the kernel's \`CONFIG_PROFILE_ANNOTATED_BRANCHES\` (a static record per
  hint, plain increments of shared counters), inline.
- **relaxed atomic add**: the same records, \`__atomic_fetch_add\` relaxed.
- **gcc \`-fprofile-arcs\`** (gcov; with \`-pthread\` gcc makes its
  updates atomic) and **clang \`-fprofile-instr-generate\`**: the
  compilers' own instrumentation of the plain source, which counts edges
  rather than hints.

Each of $BENCH_ROUNDS rounds runs every variant once, 1 thread then 2, in
the order of the tables (A B C … A B C …), after one untimed round. Times
are wall clock of the whole process (start, work, exit, profile written),
taken by \`bench/timeit\`; **× plain** is the ratio of medians to the
plain build of the same compiler, and the targets below are judged on
it. The ratio of CPU time (user + system, all threads), which a busy
machine disturbs less, is there to cross-check it. Every run's checksum
was compared with the plain program's.

### 1 thread

$(table 1)

### 2 threads

$(table 2)

A counting scheme is exact when its total equals the number of annotated
evaluations the program counts itself (the \`WL_COUNT\` build):
$expect_1 with 1 thread, $expect_2 with 2. likelyprof's total is the sum
of correct and incorrect over its profile, checked after every run.
EOF

if [ "$have_cg" = 1 ]; then
	cat <<EOF

### Instructions per annotated evaluation

\`valgrind --tool=callgrind --toggle-collect=work\`, 1 thread,
${BENCH_CG_KIB} KiB × ${BENCH_CG_PASSES} pass: the instructions of the
threads' work (start-up and profile dump excluded) minus the plain build's,
over the $cg_evals annotated evaluations.

| variant | compiler | instructions | per evaluation | added per evaluation |
|---|---|---:|---:|---:|
EOF
	for v in $variants; do
		ir=$(sed -n "s/^$v //p" "$work/instructions")
		base=$(sed -n "s/^$(plain_of "$v") //p" "$work/instructions")
		[ -n "$ir" ] && [ -n "$base" ] || continue
		awk -v d="$(describe "$v")" -v c="${v%%-*}" -v ir="$ir" \
			-v b="$base" -v e="$cg_evals" 'BEGIN {
			printf "| %s | %s | %.0f | %.2f | %+.2f |\n",
				d, c, ir, ir / e, (ir - b) / e }'
	done
fi

# --- the targets ------------------------------------------------------------

lp1=$(r gcc-likelyprof 1)
lp2=$(r gcc-likelyprof 2)
k2=$(r gcc-kernel 2)
gcov1=$(r gcc-gcov 1)
gcov2=$(r gcc-gcov 2)
cat <<EOF

### Targets

- likelyprof within 1.10× of plain on 1 thread: $(met le "$lp1" 1.10)
  (gcc ${lp1}×$(have "$BENCH_CLANG" && echo ", clang $(r clang-likelyprof 1)×")).
- On 2 threads no slower than the kernel-style variant, losing no count:
  $(met le "$lp2" "$k2") for time (gcc ${lp2}× against ${k2}×$(have "$BENCH_CLANG" &&
	echo "; clang $(r clang-likelyprof 2)× against $(r clang-kernel 2)×")),
  $(met exact gcc-likelyprof 2) for counts (likelyprof $(kept gcc-likelyprof 2);
  the kernel-style counters $(kept gcc-kernel 2)).
- Below gcc's \`-fprofile-arcs\`: $(met lt "$lp1" "$gcov1") on 1 thread
  (${lp1}× against ${gcov1}×), $(met lt "$lp2" "$gcov2") on 2 threads
  (${lp2}× against ${gcov2}×).
EOF
if have "$BENCH_CLANG"; then
	clp1=$(r clang-likelyprof 1)
	clp2=$(r clang-likelyprof 2)
	pgo1=$(r clang-pgo 1)
	pgo2=$(r clang-pgo 2)
	cat <<EOF
- Below clang's \`-fprofile-instr-generate\` (clang builds compared):
  $(met lt "$clp1" "$pgo1") on 1 thread (${clp1}× against ${pgo1}×),
  $(met lt "$clp2" "$pgo2") on 2 threads (${clp2}× against ${pgo2}×).
EOF
fi
cat <<EOF

Medians of $BENCH_ROUNDS runs; where the min–max ranges of two rows
overlap, the difference between them is within this machine's noise.
EOF
exit "$failed"
