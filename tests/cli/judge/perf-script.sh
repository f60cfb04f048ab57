#!/bin/sh
# judge --perf-script reads perf script's branch records: a mapping moved
# as a position-independent binary's is (mmap event, file offset 0x1000),
# P, M, PN and - predictions, the words perf 6.1 adds (RET, COND, -),
# missing cycles, a dso after an address, an empty branch stack, events
# to skip, and an address of another object.  Line 5's jump (0x401002)
# fell through in samples 1 and 3 and was taken in 2; line 7's
# (0x401006) fell through in 1 and was taken in 3.  A sample weighs its
# period over its records less one: 1000, 500, 500.
d=$(dirname "$0")
cp "$d/t.c" "$d/t.s" . || exit 2
${LP_TEST_CC:-cc} -g -nostdlib -static -no-pie -Wl,-Ttext=0x401000 \
	-Wl,--build-id=none t.s -o t || exit 2
lp=${LIKELYPROF:-likelyprof}
"$lp" judge --perf-script "$d/perf-script.txt" -o t.lprof ./t || exit 1
grep -v '^#' t.lprof
"$lp" check --all t.lprof
# with no minimum: 33% wrong, but of two samples: not a remove
"$lp" check --all --min-hits 1 t.lprof
