#!/bin/sh
# shared.sh - what counting costs in shared-library code (-fPIC): the
# benchmark's workload with its tokenizer, hash table and coder in a
# shared library, a malloc-heavy library, jemalloc, preloaded under
# bench/malloc-loop.c, and a C++ compressor, snappy's libsnappy.so, under
# bench/snappy-loop.c.  Each is built plain, with likelyprof, with gcc's
# gcov and clang's PGO instrumentation; instructions from callgrind, CPU
# and wall-clock ratios from interleaved runs at 1 and 2 threads.
#
# jemalloc and snappy are the upstream tarballs of Debian's source
# packages, fetched through tests/real/lib.sh (a private apt state;
# /etc/apt is only read) and kept in BENCH_REAL_DIR; without the network,
# or without cmake for snappy, their rows say so.
#
# Knobs (environment), beside bench/overhead.sh's BENCH_KIB, BENCH_PASSES,
# BENCH_CG_KIB, BENCH_CG_PASSES, BENCH_CFLAGS, BENCH_GCC, BENCH_CLANG:
#   BENCH_SHARED_ROUNDS=5               timed rounds
#   BENCH_MALLOC_ITER=2000000           malloc/free pairs a thread, timed
#   BENCH_MALLOC_CG_ITER=200000         the same under callgrind
#   BENCH_SNAPPY_ROUNDS=200             256 KiB compressed and back, a thread
#   BENCH_SNAPPY_CG_ROUNDS=10           the same under callgrind
#   BENCH_GXX=g++ BENCH_CLANGXX=clang++ the C++ compilers
#   BENCH_REAL_DIR=build/real           where downloads are kept
. "$(dirname "$0")/lib.sh"
: "${BENCH_SHARED_ROUNDS:=5}"
: "${BENCH_KIB:=1024}"
: "${BENCH_PASSES:=20}"
: "${BENCH_CG_KIB:=512}"
: "${BENCH_CG_PASSES:=1}"
: "${BENCH_CFLAGS:=-O2 -gdwarf-4}"
: "${BENCH_MALLOC_ITER:=2000000}"
: "${BENCH_MALLOC_CG_ITER:=200000}"
: "${BENCH_SNAPPY_ROUNDS:=200}"
: "${BENCH_SNAPPY_CG_ROUNDS:=10}"
: "${BENCH_GXX:=g++}"
: "${BENCH_CLANGXX:=clang++}"
: "${BENCH_REAL_DIR:=$root/build/real}"

start_variants shared

# --- the workload, its hot code in a shared library

wl=$here/workload
flags="-std=gnu99 -pthread $BENCH_CFLAGS"
"$BENCH_GCC" $flags -DWL_COUNT "$wl/main.c" "$wl/tok.c" "$wl/htab.c" \
	"$wl/lz.c" -o "$bin/count" || exit 1
"$BENCH_GCC" -O2 -pthread "$here/malloc-loop.c" -o "$bin/malloc-loop" ||
	exit 1
say "building the PIC workload: $variants"
for v in $variants; do
	d=$bin/pic-$v
	mkdir -p "$d"
	vcc "$v" $flags -fPIC -shared "$wl/tok.c" "$wl/htab.c" "$wl/lz.c" \
		-o "$d/libwl.so" &&
	vcc "$v" $flags "$wl/main.c" -o "$d/prog" -L"$d" -lwl \
		-Wl,-rpath,"$d" || fail "cannot build the PIC workload, $v"
done

"$bin/count" 1 "$BENCH_KIB" "$BENCH_PASSES" >"$run/ref" || exit 1
pic_sum=$(field checksum "$run/ref")
pic_evals=$(field evaluations "$run/ref")

# --- jemalloc

# build_jemalloc VARIANT TARBALL: configure and build libjemalloc.so
build_jemalloc() {
	d=$bin/jemalloc-$1
	mkdir -p "$d" && tar -xf "$2" -C "$d" --strip-components=1 || return 1
	c=$(cc_line "$1")
	# valgrind 3.19 cannot read clang 14's DWARF 5
	g=
	case $1 in clang-*) g=-gdwarf-4 ;; esac
	(
		cd "$d" &&
		CC=$(compiler_of "$1") ./configure CC="$c" EXTRA_CFLAGS="$g" &&
		make -j2 build_lib_shared
	) >"$d.log" 2>&1
}

why=
[ -x "${LIKELYPROF:-}" ] ||
	why="not measured: jemalloc's configure needs the command"
build_project jemalloc "$why"

# --- snappy, C++

# build_snappy VARIANT TARBALL: libsnappy.so by its own CMake build, and
# the loop linked against it.  snappy 1.1.9's always_inline functions
# are interposable in a shared build, which gcc 12 refuses to inline:
# every variant gets -fno-semantic-interposition, under which they are
# not.
build_snappy() {
	d=$bin/snappy-$1
	mkdir -p "$d/src" &&
	tar -xf "$2" -C "$d/src" --strip-components=1 || return 1
	f="-fno-semantic-interposition $(extra_flags "$1")"
	cxx=$(cxx_of "$1")
	case $1 in clang-*) f="$f -gdwarf-4" ;; esac
	case $1 in
	*-likelyprof) set -- -DCMAKE_CXX_COMPILER_LAUNCHER="$LIKELYPROF" \
			     -DCMAKE_CXX_LINKER_LAUNCHER="$LIKELYPROF" ;;
	*) set -- "-DCMAKE_SHARED_LINKER_FLAGS=$(extra_flags "$1")" ;;
	esac
	(
		cmake -S "$d/src" -B "$d/out" -DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_CXX_COMPILER="$cxx" \
			-DBUILD_SHARED_LIBS=ON -DSNAPPY_BUILD_TESTS=OFF \
			-DSNAPPY_BUILD_BENCHMARKS=OFF \
			"-DCMAKE_CXX_FLAGS=$f" "$@" &&
		cmake --build "$d/out" -j 2 &&
		"$BENCH_GCC" -O2 -pthread -I"$d/src" -I"$d/out" \
			"$here/snappy-loop.c" -o "$d/loop" -L"$d/out" \
			-lsnappy -Wl,-rpath,"$d/out"
	) >"$d.log" 2>&1
}

why=
if ! [ -x "${LIKELYPROF:-}" ]; then
	why="not measured: the C++ build needs the command"
elif ! have cmake; then
	why="not measured: snappy builds with cmake, not installed"
fi
build_project snappy "$why"

# --- running

# cmd WORKLOAD VARIANT THREADS [SIZE [PASSES]]: the command line of a run
cmd() {
	case $1 in
	pic) echo "$bin/pic-$2/prog $3 ${4:-$BENCH_KIB} ${5:-$BENCH_PASSES}" ;;
	malloc) echo "env LD_PRELOAD=$bin/jemalloc-$2/lib/libjemalloc.so.2" \
		"$bin/malloc-loop $3 ${4:-$BENCH_MALLOC_ITER}" ;;
	snappy) echo "$bin/snappy-$2/loop $3 ${4:-$BENCH_SNAPPY_ROUNDS}" ;;
	esac
}

# timed WORKLOAD VARIANT THREADS: one timed, checked run
timed() {
	rm -f "$LIKELYPROF_FILE"
	secs=$("$bin/timeit" "$run/out" "$run/err" $(cmd "$@")) || {
		fail "$1 $2, $3 threads: exit status $?: $(head -c 300 "$run/err")"
		return
	}
	sum=$(field checksum "$run/out")
	eval "want=\${sum_$1_$3:-}"
	if [ -z "$want" ]; then
		eval "sum_$1_$3=\$sum"
	elif [ "$sum" != "$want" ]; then
		fail "$1 $2, $3 threads: checksum $sum, expected $want"
	fi
	[ "$1" = pic ] && [ "$3" = 1 ] && [ "$sum" != "$pic_sum" ] &&
		fail "pic $2: checksum $sum, expected $pic_sum"
	case $1-$2-$3 in
	pic-*-likelyprof-1)
		got=$(awk -F'\t' '$1 == "site" { n += $2 + $3 }
			END { printf "%.0f\n", n }' "$LIKELYPROF_FILE")
		[ "$got" = "$pic_evals" ] ||
			fail "pic $2: likelyprof counted $got of $pic_evals"
		;;
	esac
	echo "$1:$2 $3 $secs" >>"$times"
}

round=0
while [ "$round" -le "$BENCH_SHARED_ROUNDS" ]; do
	say "round $round of $BENCH_SHARED_ROUNDS (0: untimed)"
	for t in 1 2; do
		for v in $variants; do
			timed pic "$v" "$t"
		done
		for v in $jemalloc_variants; do
			timed malloc "$v" "$t"
		done
		for v in $snappy_variants; do
			timed snappy "$v" "$t"
		done
	done
	[ "$round" = 0 ] && : >"$times"
	round=$((round + 1))
done

# --- instructions

# callgrind WORKLOAD VARIANT: instructions of work() and what it calls
instructions() {
	case $1 in
	pic) c=$(cmd pic "$2" 1 "$BENCH_CG_KIB" "$BENCH_CG_PASSES") ;;
	malloc) c=$(cmd malloc "$2" 1 "$BENCH_MALLOC_CG_ITER") ;;
	snappy) c=$(cmd snappy "$2" 1 "$BENCH_SNAPPY_CG_ROUNDS") ;;
	esac
	set -- $c
	if [ "$1" = env ]; then
		pre=$2
		shift 2
		env "$pre" valgrind --tool=callgrind --toggle-collect=work \
			--callgrind-out-file="$run/cg.out" "$@" 2>&1 >/dev/null
	else
		valgrind --tool=callgrind --toggle-collect=work \
			--callgrind-out-file="$run/cg.out" "$@" 2>&1 >/dev/null
	fi | sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

have_cg=0
if have valgrind; then
	have_cg=1
	say "counting instructions with callgrind"
	for v in $variants; do
		echo "pic:$v $(instructions pic "$v")" >>"$work/instructions"
	done
	for v in $jemalloc_variants; do
		echo "malloc:$v $(instructions malloc "$v")" \
			>>"$work/instructions"
	done
	for v in $snappy_variants; do
		echo "snappy:$v $(instructions snappy "$v")" \
			>>"$work/instructions"
	done
fi

# --- the report

# rows WORKLOAD VARIANTS...
rows() {
	w=$1
	shift
	echo "| variant | compiler | instructions × plain | CPU × plain," \
		"1 thread | CPU × plain, 2 threads | wall × plain, 1 thread |" \
		"wall × plain, 2 threads |"
	echo "|---|---|---:|---:|---:|---:|---:|"
	for v in "$@"; do
		printf '| %s | %s | %s | %s | %s | %s | %s |\n' \
			"$(variant_name "$v")" "${v%%-*}" "$(ir_ratio "$w:$v")" \
			"$(ratio "$w:$v" 1 4)" "$(ratio "$w:$v" 2 4)" \
			"$(ratio "$w:$v" 1 3)" "$(ratio "$w:$v" 2 3)"
	done
}

cat <<EOT
Three workloads whose hints run in shared-library code, built \`-fPIC\`:

- **PIC workload**: bench/workload with its tokenizer, hash table and
  coder (\`tok.c\`, \`htab.c\`, \`lz.c\`) in \`libwl.so\` and \`main.c\`
  in the program, $BENCH_KIB KiB × $BENCH_PASSES passes a thread; its
  $pic_evals annotated evaluations (1 thread) counted exactly by
  likelyprof in every 1-thread run, checksums compared in every run.
- **malloc-heavy library**: jemalloc's \`libjemalloc.so\`, built by its
  own configure and make with each variant's compiler (likelyprof's
  with \`./configure CC="likelyprof gcc"\` or \`clang\`), preloaded under
  \`bench/malloc-loop.c\` ($BENCH_MALLOC_ITER malloc/free pairs a thread,
  blocks of 8 to 519 bytes).
- **C++ compressor library**: snappy's \`libsnappy.so\` (C++, its
  \`SNAPPY_PREDICT_TRUE/FALSE\` hints in templates and inline functions),
  built by its own CMake with each variant's C++ compiler (likelyprof's
  as \`CMAKE_CXX_COMPILER_LAUNCHER\` and \`CMAKE_CXX_LINKER_LAUNCHER\`),
  under \`bench/snappy-loop.c\` (256 KiB of text-like input a thread,
  compressed, decompressed and compared $BENCH_SNAPPY_ROUNDS times).

Instructions: \`valgrind --tool=callgrind --toggle-collect=work\`, 1
thread (${BENCH_CG_KIB} KiB × ${BENCH_CG_PASSES} pass; $BENCH_MALLOC_CG_ITER
pairs; $BENCH_SNAPPY_CG_ROUNDS rounds), start-up and profile dump excluded. Times: $BENCH_SHARED_ROUNDS
rounds, every variant once per round in the order of the table (1 thread,
then 2), after an untimed round; ratios of medians to the plain build of
the same compiler.

### PIC workload

$(rows pic $variants)
EOT
echo
echo "### malloc-heavy library"
echo
if [ -n "$jemalloc_note" ] && [ -z "$jemalloc_variants" ]; then
	echo "$jemalloc_note."
else
	rows malloc $jemalloc_variants
fi
echo
echo "### C++ compressor library"
echo
if [ -z "$snappy_variants" ]; then
	echo "$snappy_note."
else
	rows snappy $snappy_variants
fi

# --- targets: within 1.3x on the library, at or below gcov's instructions
missed=""
check() {
	is "$2" "<=" "$3" || missed="$missed
- $1: ${2}× against ${3}×"
}
for cc in gcc clang; do
	case " $variants " in *" $cc-likelyprof "*) ;; *) continue ;; esac
	edges=gcc-gcov
	[ "$cc" = clang ] && edges=clang-pgo
	check "pic, $cc, 1 thread: CPU within 1.10× of plain" \
		"$(ratio "pic:$cc-likelyprof" 1 4)" 1.10
	for w in pic malloc snappy; do
		[ "$w" = malloc ] && [ -z "$jemalloc_variants" ] && continue
		[ "$w" = snappy ] && [ -z "$snappy_variants" ] && continue
		lp=$(ir_ratio "$w:$cc-likelyprof")
		[ "$lp" = "—" ] ||
			check "$w, $cc: instructions at or below $edges" \
				"$lp" "$(ir_ratio "$w:$edges")"
	done
	[ -n "$jemalloc_variants" ] || continue
	for t in "1 thread" "2 threads"; do
		check "malloc, $cc, $t: CPU within 1.3× of plain" \
			"$(ratio "malloc:$cc-likelyprof" "${t%% *}" 4)" 1.30
	done
done
echo
echo "### Targets"
echo
if [ -z "$missed" ]; then
	echo "Met in this run: at or below the compiler's own"
	echo "instrumentation in instructions, within 1.10× of plain CPU time"
	echo "on the PIC workload and within 1.3× on the malloc-heavy library."
else
	echo "Not met in this run:$missed"
fi
exit "$failed"
