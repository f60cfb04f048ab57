#!/bin/sh
# Bad branch samples are one error naming the file (and line), exit 2,
# and no profile: a malformed record, a line of other fields, a prediction
# that is no prediction, a file with no branch records, a perf.data that
# perf cannot read, and no perf on PATH.
d=$(dirname "$0")
cp "$d/t.c" "$d/t.s" . || exit 2
${LP_TEST_CC:-cc} -g -nostdlib -static -no-pie -Wl,-Ttext=0x401000 \
	-Wl,--build-id=none t.s -o t || exit 2
lp=${LIKELYPROF:-likelyprof}
try() {
	"$lp" judge -o t.lprof "$@" ./t 2>&1
	echo "exit $?"
	[ ! -e t.lprof ] || echo "a profile was written"
}
printf ' 42 1000 401000 0x401002/0x40100b/P/-/-/1\n 42 1000 401000 0x401002/40100b/P/-/-/1\n' > bad1.txt
try --perf-script bad1.txt
printf 'prog 42 [000] 1.0: 0x401002/0x40100b/P/-/-/1\n' > bad2.txt
try --perf-script bad2.txt
printf ' 42 1000 401000 0x401002/0x40100b/Q/-/-/1\n' > bad3.txt
try --perf-script bad3.txt
printf ' 42 1000 401000\n 42 1000 401000\n' > none.txt
try --perf-script none.txt
printf 'not a perf.data\n' > perf.data
if command -v perf > /dev/null 2>&1; then
	try --perf perf.data | grep -v '^  *\|^$' | grep 'likelyprof\|exit\|written'
else
	echo "likelyprof: perf script cannot read 'perf.data'"; echo "exit 2"
fi
PATH=/nonexistent
try --perf perf.data
try --perf-script none.txt --perf perf.data
