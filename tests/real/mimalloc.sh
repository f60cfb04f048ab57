# mimalloc.sh - mimalloc for tests/real/run.sh; sourced, not run.
#
# CMake, built with the compiler and linker launchers.  Hints:
# mi_likely()/mi_unlikely() of include/mimalloc-internal.h.  An allocator
# is where the runtime must not call malloc: the instrumented
# libmimalloc.so replaces malloc in every process it is preloaded into, and
# its hints then run inside the runtime's own calls.  The workload: the
# project's tests (api, api-fill, stress with threads) and ordinary
# programs (sort, awk, tar) with the library preloaded, whose outputs are
# compared.

pkg=mimalloc
annot_dirs="include src test"

build() {
	if [ -n "$LP_REAL_CC" ]; then
		set -- -DCMAKE_C_COMPILER_LAUNCHER="$LIKELYPROF" \
		       -DCMAKE_C_LINKER_LAUNCHER="$LIKELYPROF"
	else
		set --
	fi
	cmake -S . -B out -DCMAKE_BUILD_TYPE=Release "$@" &&
	cmake --build out -j "$JOBS"
}

# preloaded CMD...: runs CMD with this tree's malloc.
preloaded() {
	LD_PRELOAD=$PWD/out/libmimalloc.so "$@"
}

workload() {
	out=$1
	log=$2
	for t in api api-fill; do
		./out/mimalloc-test-$t > "$log/test-$t" 2>&1 || return 1
	done
	# test-stress [THREADS [SCALE [ITERATIONS]]]
	./out/mimalloc-test-stress 4 50 10 > "$log/test-stress" 2>&1 ||
		return 1
	# 1,600 short threads: glibc's stack cache overflows and unmaps
	# stacks, so a counter registered after a thread's exit was told
	# (mimalloc's free() in glibc's cleanup) faults at the dump
	./out/mimalloc-test-stress 32 2 50 > "$log/test-churn" 2>&1 ||
		return 1
	preloaded tar -tvf "$CORPUS" > "$out/listing" || return 1
	tr -cs 'A-Za-z0-9_' '\n' < "$CORPUS" > "$log/words" || return 1
	preloaded sort "$log/words" > "$out/sorted" &&
	preloaded awk '{ n[$0]++ } END { for (w in n) print n[w], w }' \
		"$log/words" | preloaded sort -k1,1nr -k2 > "$out/counts" ||
		return 1
	preloaded gzip -6 -c "$CORPUS" > "$out/corpus.gz" || return 1
}
