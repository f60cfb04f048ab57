# jemalloc.sh - jemalloc for tests/real/run.sh; sourced, not run.
#
# Autoconf: `./configure CC="likelyprof cc"` probes the compiler with the
# wrapper, so a probe that fails under it silently changes the build; the
# two builds' configure results are part of the compared outputs.
# Hints: likely()/unlikely() of include/jemalloc/internal/util.h, and its
# assert(), which ends in unlikely().  jemalloc renames every global symbol
# its objects define (private_namespace.h, made from `nm`), so whatever the
# instrumentation defines there is renamed too.  The workload: ordinary
# programs (tar, sort with two threads, awk, gzip) with the instrumented
# libjemalloc.so preloaded, each with a time limit: an allocator that
# re-enters itself hangs rather than fails.

pkg=jemalloc
annot_dirs="include src"

build() {
	./configure ${LP_REAL_CC:+"CC=$LP_REAL_CC"} &&
	make -j"$JOBS" build_lib_shared
}

# preloaded CMD...: runs CMD with this tree's malloc, for 120 s at most.
preloaded() {
	timeout 120 env LD_PRELOAD="$PWD/lib/libjemalloc.so.2" "$@"
}

workload() {
	out=$1
	log=$2
	cp include/jemalloc/internal/jemalloc_internal_defs.h \
	   include/jemalloc/jemalloc_defs.h "$out/" || return 1
	preloaded tar -tvf "$CORPUS" > "$out/listing" || return 1
	tr -cs 'A-Za-z0-9_' '\n' < "$CORPUS" > "$log/words" || return 1
	preloaded sort --parallel=2 -S 8M "$log/words" > "$out/sorted" &&
	preloaded awk '{ n[$0]++ } END { for (w in n) print n[w], w }' \
		"$log/words" | preloaded sort -k1,1nr -k2 > "$out/counts" ||
		return 1
	preloaded gzip -6 -c "$CORPUS" > "$out/corpus.gz" || return 1
}
