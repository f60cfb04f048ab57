# scnlib.sh - scnlib for tests/real/run.sh; sourced, not run.
#
# C++20, CMake with the C++ compiler and linker launchers.  scnlib is no
# Debian package: its tree comes from LP_SCNLIB_SRC (an unpacked tree,
# a git directory, bare or a checkout's .git, whose HEAD is taken, or a
# tarball); without it the project is skipped, not failed.  Tested on
# git 4b8a7400 (v4.0.1-67).
#
# Its hints are of both kinds: SCN_LIKELY(x)/SCN_UNLIKELY(x), which are
# __builtin_expect(!!(x), 1/0), and SCN_LIKELY_ATTR/SCN_UNLIKELY_ATTR,
# which include/scn/macros.h defines as [[likely]]/[[unlikely]] under
# C++20 (empty before): most of them written alone on the line before
# the first statement of an if's block (`if (c) {` `SCN_UNLIKELY_ATTR`
# `return e;`), counted as that if's hint; a few on statements that are
# no branch (a function's or a constructor's first statement), which cc
# notes as not counted, and one on a case label of a switch whose cases
# a macro writes (also noted).  -DCMAKE_CXX_STANDARD=20 makes them
# attributes; nothing else is passed to the compiler.
#
# Without the network its FetchContent cannot download: googletest comes
# from Debian (libgtest-dev, libgmock-dev: SCN_USE_EXTERNAL_GTEST), and
# fast_float is off (SCN_DISABLE_FAST_FLOAT: libstdc++'s from_chars for
# floats; Debian's libfast-float-dev 3.9 is older than the 5.0 it
# needs), the benchmarks and docs too.  LP_SCNLIB_CXX is the compiler
# (g++; clang++ works too).
#
# The workload: its unit tests, scn_tests and scn_impl_tests (gtest,
# their reports compared without their times), then the rest of its
# ctest (the stdin tests, the examples, and the compile-failure tests,
# which compile through the launchers too: their errors must be the
# plain compiler's), the list of results compared.

# Run on 4b8a7400 with g++ 12 (tests/real/run.sh scnlib, at load 5 to 9
# on 2 cores: builds 1124 s plain, 1778 s with likelyprof cc): 678 sites
# at 242 lines, 104,710 evaluations in 35 processes; 245 of its 290
# annotations in the profile (the others not compiled in), every
# profiled line an annotation; the workload's outputs the plain build's;
# the default policy flags nothing (too few evaluations), and the stress
# series, 21 patches, applies, builds and passes the workload.  Its 13
# refusals say why: uses of SCN_TRY/SCN_TRY_DISCARD right in some
# places and wrong in others, and libstdc++'s sgetc() in
# /usr/include/c++/12/streambuf, no file of the tree.  cc notes 10 of
# scan.h's 29 attributes as uncounted: each stands on a statement that
# is no branch of a condition (`SCN_UNLIKELY_ATTR SCN_UNUSED(x);` in a
# constructor, a function's last statement after its ifs).

src_var=LP_SCNLIB_SRC
annot_dirs="include src"
annot_glob="*.h *.cpp"
needs="cmake:cmake python3:python3"
# the plain build is made again for another compiler
build_key="CXX=${LP_SCNLIB_CXX:-g++}"

build() {
	if [ ! -f /usr/include/gtest/gtest.h ] ||
	   [ ! -f /usr/include/gmock/gmock.h ]; then
		echo "scnlib's tests need googletest: apt-get install" \
		     "libgtest-dev libgmock-dev"
		return 1
	fi
	if [ -n "$LP_REAL_CC" ]; then
		set -- -DCMAKE_CXX_COMPILER_LAUNCHER="$LIKELYPROF" \
		       -DCMAKE_CXX_LINKER_LAUNCHER="$LIKELYPROF"
	else
		set --
	fi
	cmake -S . -B out -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_CXX_COMPILER="${LP_SCNLIB_CXX:-g++}" \
		-DCMAKE_CXX_STANDARD=20 \
		-DSCN_TESTS=ON -DSCN_USE_EXTERNAL_GTEST=ON \
		-DSCN_DISABLE_FAST_FLOAT=ON \
		-DSCN_BENCHMARKS=OFF -DSCN_BENCHMARKS_BUILDTIME=OFF \
		-DSCN_BENCHMARKS_BINARYSIZE=OFF -DSCN_DOCS=OFF \
		"$@" &&
	cmake --build out -j "$JOBS"
}

# gtest's report without its times
untimed() {
	sed 's/ ([0-9]* ms\( total\)\{0,1\})$//'
}

workload() {
	out=$1
	log=$2
	t=out/tests/unittests
	rc=0
	for u in scn_tests scn_impl_tests; do
		(cd "$t" && "./$u" --gtest_color=no --gtest_print_time=0 \
			> "$log/$u" 2>&1)
		echo "$u: exit $?" >> "$out/exits"
		untimed < "$log/$u" > "$out/$u"
		grep -q '^\[  PASSED  \] [0-9]* tests\.$' "$log/$u" || rc=1
	done
	# the rest: stdin, examples, compile failures (through the
	# launchers); each test's name and result, in ctest's order
	ctest --test-dir out -j1 --output-on-failure \
		-E '^scn_(impl_)?tests$' > "$log/ctest" 2>&1 || rc=1
	r='^ *[0-9]*/[0-9]* *Test *#[0-9]*: \([^ ]*\) [ .*]*\([A-Z][A-Za-z*]*\)'
	sed -n "s|$r.*|\\1 \\2|p" "$log/ctest" > "$out/ctest"
	[ "$(grep -c ' Passed$' "$out/ctest")" -gt 20 ] || rc=1
	return $rc
}
