#!/bin/sh
# overhead.sh - what counting the hints costs: one program (bench/workload)
# built from the same source as plain, likelyprof, the kernel's scheme,
# relaxed atomics, gcc -fprofile-arcs and clang -fprofile-instr-generate,
# run interleaved, with the counts each scheme kept and the instructions
# it adds per annotated evaluation.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a build gives a wrong checksum or likelyprof loses
# a count; a target missed is reported, not a failure.
#
# Knobs (environment):
#   BENCH_ROUNDS=9                      timed rounds, each runs every
#                                       variant once
#   BENCH_KIB=1024 BENCH_PASSES=20      size of a timed run (~0.3 s plain)
#   BENCH_CG_KIB=512 BENCH_CG_PASSES=1  size of the run under callgrind
#   BENCH_GCC=gcc BENCH_CLANG=clang     compilers; without clang its rows
#                                       are left out
#   BENCH_CFLAGS="-O2 -gdwarf-4"        valgrind 3.19 cannot read clang
#                                       14's DWARF 5; -g changes no code
. "$(dirname "$0")/lib.sh"
: "${BENCH_ROUNDS:=9}"
: "${BENCH_KIB:=1024}"
: "${BENCH_PASSES:=20}"
: "${BENCH_CG_KIB:=512}"
: "${BENCH_CG_PASSES:=1}"
: "${BENCH_CFLAGS:=-O2 -gdwarf-4}"

work=$BENCH_BUILD/overhead
bin=$work/bin
run=$work/run
times=$work/times               # VARIANT THREADS WALL CPU, one run a line
counts=$work/counts             # VARIANT THREADS COUNTED EXPECTED
src="$here/workload/main.c $here/workload/tok.c $here/workload/htab.c
	$here/workload/lz.c"
flags="-std=gnu99 -pthread $BENCH_CFLAGS"
failed=0

rm -rf "$work"
mkdir -p "$bin" "$run" || exit 1
: >"$times"
: >"$counts"

# Each run's profile replaces the last one's, so a long benchmark does
# not fill the disk.
LIKELYPROF_FILE=$run/likelyprof.lprof
LLVM_PROFILE_FILE=$run/clang.profraw
export LIKELYPROF_FILE LLVM_PROFILE_FILE

variants="gcc-plain gcc-likelyprof gcc-kernel gcc-atomic gcc-gcov"
if have "$BENCH_CLANG"; then
	variants="$variants clang-plain clang-likelyprof clang-kernel clang-pgo"
else
	say "no $BENCH_CLANG: clang rows left out"
fi

# --- building

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


say "building $variants"
"$BENCH_GCC" -O2 -o "$bin/timeit" "$here/timeit.c" || exit 1
for v in count $variants; do
	build "$v" || { fail "cannot build $v"; exit 1; }
done

# --- the reference: checksum and number of evaluations

# reference THREADS KIB PASSES: sets ref_sum and ref_evals.
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

# --- timed runs

# The evaluations a likelyprof profile counted: correct + incorrect.
profile_total() {
	awk -F'\t' '$1 == "site" { n += $2 + $3 } END { printf "%.0f\n", n }' \
		"$1"
}

# The same from the line bench/kernel-style.c prints.
kernel_total() {
	awk '$1 == "kernel-style:" {
		for (i = 2; i < NF; i++)
			if ($i == "correct" || $i == "incorrect")
				n += $(i + 1)
		printf "%.0f\n", n
	}' "$1"
}

# run VARIANT THREADS: one timed run, checked; appends to $times, $counts.
run() {
	v=$1
	t=$2
	rm -f "$LIKELYPROF_FILE"
	secs=$("$bin/timeit" "$run/out" "$run/err" "$bin/$v" "$t" \
		"$BENCH_KIB" "$BENCH_PASSES") || {
		fail "$v, $t threads: exit status $?: $(cat "$run/err")"
		return
	}
	sum=$(field checksum "$run/out")
	[ "$sum" = "$checksum" ] ||
		fail "$v, $t threads: checksum $sum, expected $checksum"
	echo "$v $t $secs" >>"$times"
	eval "expect=\$expect_$t"
	case $v in
	*-likelyprof)
		got=$(profile_total "$LIKELYPROF_FILE")
		[ "$got" = "$expect" ] ||
			fail "$v, $t threads: likelyprof counted $got of $expect"
		;;
	*-kernel | *-atomic)
		got=$(kernel_total "$run/err")
		;;
	*)
		return
		;;
	esac
	echo "$v $t $got $expect" >>"$counts"
}

# An untimed round first: caches, page faults of the first start, and
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

# --- instructions per evaluation

# Callgrind counts the instructions of work(), the threads' function, and
# of what it calls: the hot path without start-up and the profile dump.
# (perf stat would be quicker, but VMs often have no hardware counters.)
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
		if [ -z "$ir" ]; then
			fail "callgrind gave no count for $v"
			continue
		fi
		echo "$v $ir" >>"$work/instructions"
	done
else
	say "no valgrind: instructions per evaluation left out"
fi

# The hot path of the tokenizer's sites, for doc/DESIGN.md.
objdump -d --no-show-raw-insn -l "$bin/gcc-likelyprof" 2>/dev/null |
	awk '/<wl_tokenize>:/, /^$/' >"$work/hotpath-gcc-likelyprof.txt"

# --- the report

# kept VARIANT THREADS: how many counts a scheme kept over the runs.
kept() {
	losses=$(awk -v v="$1" -v t="$2" '$1 == v && $2 == t {
		printf "%.4f\n", ($4 - $3) * 100 / $4 }' "$counts")
	runs=$(echo "$losses" | grep -c .)
	if [ "$runs" = 0 ]; then
		echo "n/a (counts edges, not hints)"
		return
	fi
	set -- $(echo "$losses" | summary)
	if awk -v lo="$2" -v hi="$3" 'BEGIN { exit !(lo == 0 && hi == 0) }'
	then
		echo "exact in $runs of $runs runs"
	else
		awk -v m="$1" -v lo="$2" -v hi="$3" -v n="$runs" 'BEGIN {
			printf "lost %.1f%% (median; %.1f%% to %.1f%%" \
				" over %d runs)\n", m, lo, hi, n }'
	fi
}

table() {
	t=$1
	echo "| variant | compiler | median (s) | min–max (s) | × plain |" \
		"CPU time × plain | counts |"
	echo "|---|---|---:|---:|---:|---:|---|"
	for v in $variants; do
		set -- $(spread "$v" "$t")
		case $v in
		*-plain) c="—" ;;
		*) c=$(kept "$v" "$t") ;;
		esac
		printf '| %s | %s | %.3f | %.3f–%.3f | **%s** | %s | %s |\n' \
			"$(variant_name "$v")" "${v%%-*}" "$1" "$2" "$3" \
			"$(r "$v" "$t")" "$(r "$v" "$t" 4)" "$c"
	done
}

cat <<EOF
The program (\`bench/workload\`) tokenizes ${BENCH_KIB} KiB of generated
text, counts its tokens in an open-addressing hash table, and compresses
and decompresses it with a small LZ77 coder, ${BENCH_PASSES} times over,
in each of 1 or 2 threads that share only the read-only text. Its
likely()/unlikely() sit in the hot loops, some right and some wrong, as
real code has them: $expect_1 annotated evaluations in a 1-thread run,
$(awk -v e="$expect_1" -v k="$BENCH_KIB" -v p="$BENCH_PASSES" \
	'BEGIN { printf "%.1f", e / (k * 1024 * p) }') per byte of text.
Every variant is built from the same source with \`$BENCH_CFLAGS\`; only
what \`__builtin_expect\` means differs:

- **plain**: as written.
- **likelyprof**: $lp_how.
- **kernel-style global \`++\`**: \`bench/kernel-style.h\`, the scheme of
  the kernel's \`CONFIG_PROFILE_ANNOTATED_BRANCHES\` (a static record per
  hint, plain increments of shared counters), with the increment inline
  where the kernel calls a function. A compiler may keep such a counter
  in a register through a loop: cheap, and a whole loop's counts lost
  when another thread writes the same counter meanwhile.
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
machine disturbs less, is there to cross-check it: a target is met when
both say so. Every run's checksum
was compared with the plain program's.

### 1 thread

$(table 1)

### 2 threads

$(table 2)

A scheme's count is exact when its total equals the number of annotated
evaluations the program counts itself (its \`WL_COUNT\` build): $expect_1
with 1 thread, $expect_2 with 2. likelyprof's total is the sum of correct
and incorrect over its profile, checked after every run.
EOF

if [ "$have_cg" = 1 ]; then
	cat <<EOF

### Instructions per annotated evaluation

\`valgrind --tool=callgrind --toggle-collect=work\`, 1 thread,
${BENCH_CG_KIB} KiB × ${BENCH_CG_PASSES} pass: the instructions of the
threads' work, start-up and profile dump excluded, over its $cg_evals
annotated evaluations; "added" is the difference to the plain build of
the same compiler.

| variant | compiler | instructions | per evaluation | added per evaluation |
|---|---|---:|---:|---:|
EOF
	for v in $variants; do
		ir=$(field "$v" "$work/instructions")
		base=$(field "$(plain_of "$v")" "$work/instructions")
		[ -n "$ir" ] && [ -n "$base" ] || continue
		awk -v d="$(variant_name "$v")" -v c="${v%%-*}" -v ir="$ir" \
			-v b="$base" -v e="$cg_evals" 'BEGIN {
			printf "| %s | %s | %.0f | %.2f | %+.2f |\n",
				d, c, ir, ir / e, (ir - b) / e }'
	done
fi

# --- the targets

missed=""

# target TEXT THREADS VARIANT OP OTHER: a row of the targets table.  Is
# the variant's ratio to plain OP OTHER's (a variant, or a number)?
# Judged on wall-clock time, the measure the targets name, and on CPU
# time: where the two disagree, noise decided and the row says so.
target() {
	w=$(r "$3" "$2")
	c=$(r "$3" "$2" 4)
	case $5 in
	[0-9]*) ow=$5 oc=$5 ;;
	*) ow=$(r "$5" "$2") oc=$(r "$5" "$2" 4) ;;
	esac
	vw=0 vc=0
	is "$w" "$4" "$ow" && vw=1
	is "$c" "$4" "$oc" && vc=1
	case $vw$vc in
	11) verdict="**met**" ;;
	00) verdict="**not met**" ;;
	10) verdict="**unclear**: met by wall-clock time only" ;;
	01) verdict="**unclear**: met by CPU time only" ;;
	esac
	[ "$vw$vc" = 11 ] || missed="$missed
- $1 (${3%%-*}): $verdict, ${w}× against ${ow}×
  (CPU time ${c}× against ${oc}×)"
	printf '| %s | %s | %s× | %s× | %s× | %s× | %s |\n' \
		"$1" "${3%%-*}" "$w" "$ow" "$c" "$oc" "$verdict"
}

# exact VARIANT OTHER: a row for "2 threads, no count lost".
exact() {
	case $(kept "$1" 2) in
	exact*) verdict="**met**" ;;
	*)
		verdict="**not met**"
		missed="$missed
- no count lost, 2 threads (${1%%-*}): $verdict, $(kept "$1" 2)"
		;;
	esac
	printf '| no count lost, 2 threads | %s | %s | %s: %s | | | %s |\n' \
		"${1%%-*}" "$(kept "$1" 2)" "$(variant_name "$2")" \
		"$(kept "$2" 2)" "$verdict"
}

targets() {
	echo "| target | compiler | likelyprof | against |" \
		"CPU time: likelyprof | against | verdict |"
	echo "|---|---|---:|---:|---:|---:|---|"
	for cc in gcc clang; do
		case " $variants " in
		*" $cc-likelyprof "*) ;;
		*) continue ;;
		esac
		case $cc in
		gcc) edges=gcc-gcov name="gcc \`-fprofile-arcs\`" ;;
		clang) edges=clang-pgo
			name="clang \`-fprofile-instr-generate\`" ;;
		esac
		target "within 1.10× of plain, 1 thread" 1 \
			"$cc-likelyprof" "<=" 1.10
		target "no slower than kernel-style, 2 threads" 2 \
			"$cc-likelyprof" "<=" "$cc-kernel"
		exact "$cc-likelyprof" "$cc-kernel"
		target "below $name, 1 thread" 1 "$cc-likelyprof" "<" "$edges"
		target "below $name, 2 threads" 2 "$cc-likelyprof" "<" "$edges"
	done
}

# The rows set $missed, so they are made before the text that uses it.
targets >"$work/targets"
cat <<EOF

### Targets

Ratios to plain: likelyprof's, then the one it is held against.

$(cat "$work/targets")
EOF
if [ -z "$missed" ]; then
	echo
	echo "Every target was met in this run."
else
	cat <<EOF

Not met in this run, or met by one measure only:
$missed
EOF
fi
if [ "$have_cg" = 1 ]; then
	awk -v f="$work/instructions" -v e="$cg_evals" 'BEGIN {
		while ((getline line < f) > 0) {
			split(line, a, " ")
			ir[a[1]] = a[2]
		}
		lp = (ir["gcc-likelyprof"] - ir["gcc-plain"]) / e
		ks = (ir["gcc-kernel"] - ir["gcc-plain"]) / e
		gc = (ir["gcc-gcov"] - ir["gcc-plain"]) / e
		printf "\nThe instruction counts say where the time goes: with"
		printf " gcc, likelyprof\nadds %.2f instructions per annotated",
			lp
		printf " evaluation, the kernel-style\nincrement %.2f and gcov",
			ks
		printf " %.2f, to a program that executes %.2f\ninstructions",
			gc, ir["gcc-plain"] / e
		printf " per evaluation of its own.\n"
	}'
fi
cat <<EOF

Medians of $BENCH_ROUNDS runs. Where the min–max ranges of two rows
overlap, the difference between them is within this machine's noise.
EOF
exit "$failed"
