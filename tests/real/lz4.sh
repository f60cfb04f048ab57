# lz4.sh - lz4 for tests/real/run.sh; sourced, not run.
#
# Make-based.  Its hints are lib/lz4.c's likely()/unlikely(), which end in
# expect(), which is __builtin_expect (lz4hc.c includes lz4.c for them).
# The workload is the command line tool on the package's own sources, the
# library's fuzzer and frame tests with fixed seeds, `lz4 -b`, and the
# essential tests of tests/Makefile (some 200 lz4 processes).

pkg=lz4
# where annotations are counted: everything the build compiles
annot_dirs="lib programs tests"
# also built and run in all-branches mode (every if counted)
all_branches=yes

# build: in the tree, the tool and the test programs; CC only when
# LP_REAL_CC says (the instrumented build).
build() {
	make -j"$JOBS" ${LP_REAL_CC:+"CC=$LP_REAL_CC"} &&
	make -C tests -j"$JOBS" ${LP_REAL_CC:+"CC=$LP_REAL_CC"} \
		fuzzer frametest datagen
}

# workload OUT LOG: round trips whose compressed files go to OUT (compared
# between builds), then the tests, whose output goes to LOG.
workload() {
	out=$1
	log=$2
	cat "$CORPUS" "$CORPUS" "$CORPUS" "$CORPUS" > "$log/in" || return 1
	for opt in -1 --fast=4 -9 -12 -BD -B4 --content-size -l \
		   --favor-decSpeed; do
		name=c$(echo "$opt" | tr -d -- '-=')
		./lz4 -q -f "$opt" "$log/in" "$out/$name.lz4" &&
		./lz4 -q -d -f "$out/$name.lz4" "$log/back" &&
		cmp "$log/in" "$log/back" || return 1
	done
	# several files at once, through a pipe, and the integrity test
	./lz4 -q -d -c "$out/c1.lz4" | ./lz4 -q -5 -c > "$out/pipe.lz4" &&
	./lz4 -q -t "$out/pipe.lz4" || return 1
	./lz4 -b1e3 -i0 "$CORPUS" > "$log/bench" 2>&1 || return 1
	./tests/fuzzer -s1 -i100 > "$log/fuzzer" 2>&1 || return 1
	./tests/frametest -s1 -i300 > "$log/frametest" 2>&1 || return 1
	make -C tests ${LP_REAL_CC:+"CC=$LP_REAL_CC"} test-lz4-essentials \
		> "$log/essentials" 2>&1 || return 1
}
