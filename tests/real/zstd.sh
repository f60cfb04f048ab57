# zstd.sh - zstd for tests/real/run.sh; sourced, not run.
#
# Make-based.  Hints: LIKELY()/UNLIKELY() of lib/common/compiler.h,
# XXH_likely() of xxhash.h, and the macros built on them.  Its Makefiles
# pass CFLAGS to the assembler for huf_decompress_amd64.S, so the
# instrumentation header reaches a .S file, and its programs/Makefile
# probes the compiler for zlib and lzma, so a probe that fails under the
# wrapper would silently drop a feature (`zstd -vvV` is compared).
# The workload: the command line tool on the package's own sources (levels,
# two threads, long mode, a trained dictionary, `zstd -b`), and the
# library's own unit tests (tests/fuzzer with no random rounds).

pkg=libzstd
annot_dirs="lib programs tests"

# build: the command line tool (programs/Makefile's default) and the unit
# tests; not the top level's default, which compiles the library three
# times (static, shared, the tool's own objects).
build() {
	make -C programs -j"$JOBS" ${LP_REAL_CC:+"CC=$LP_REAL_CC"} &&
	make -C tests -j"$JOBS" ${LP_REAL_CC:+"CC=$LP_REAL_CC"} fuzzer
}

# roundtrip FILE OPTIONS...: compresses $in into FILE and back.
roundtrip() {
	rt_file=$1
	shift
	./programs/zstd -q -f "$@" "$in" -o "$rt_file" &&
	./programs/zstd -q -d -f "$rt_file" -o "$log/back" &&
	cmp "$in" "$log/back"
}

workload() {
	out=$1
	log=$2
	Z=./programs/zstd
	$Z -vvV > "$out/version" 2>&1 || return 1
	in=$CORPUS
	roundtrip "$out/fast3.zst" --fast=3 &&
	roundtrip "$out/l1.zst" -1 &&
	roundtrip "$out/l3.zst" -3 &&
	roundtrip "$out/l9.zst" -9 &&
	roundtrip "$out/t2.zst" -T2 -6 &&
	roundtrip "$out/long.zst" --long=24 -4 &&
	roundtrip "$out/rsync.zst" -T2 --rsyncable -3 &&
	roundtrip "$out/gz.gz" --format=gzip || return 1
	head -c 1000000 "$CORPUS" > "$log/head" || return 1
	in=$log/head
	roundtrip "$out/l19.zst" -19 &&
	roundtrip "$out/ultra.zst" --ultra -22 || return 1
	# a dictionary trained on the library's sources, used on each of them
	# (those of the upstream tree: a patched tree's differ)
	$Z -q -f --train $(find "$PRISTINE/lib" -name '*.[ch]' |
		LC_ALL=C sort) -o "$out/dict" --maxdict=32768 \
		> "$log/train" 2>&1 || return 1
	mkdir -p "$out/withdict" || return 1
	for f in "$PRISTINE"/lib/*/*.c; do
		b=$(basename "$f" .c)
		$Z -q -f -D "$out/dict" -5 "$f" -o "$out/withdict/$b.zst" &&
		$Z -q -d -c -D "$out/dict" "$out/withdict/$b.zst" |
			cmp - "$f" || return 1
	done
	(Z=$PWD/$Z && cd "$out" && $Z -q -t ./*.zst ./*.gz && $Z -l ./*.zst) \
		> "$out/list" 2> "$log/list" || return 1
	$Z -b1e5 -i0 "$CORPUS" > "$log/bench" 2>&1 || return 1
	./tests/fuzzer -s1 -i0 > "$log/fuzzer" 2>&1 || return 1
}
