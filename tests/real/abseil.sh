# abseil.sh - abseil for tests/real/run.sh; sourced, not run.
#
# C++17, CMake, built with the C++ compiler and linker launchers: a
# subset, the libraries of absl/container and absl/strings that five of
# its own googletest tests need (Debian's googletest: apt-get install
# googletest libgtest-dev libgmock-dev), g++ at -O2.  Hints:
# ABSL_PREDICT_TRUE()/ABSL_PREDICT_FALSE() of absl/base/optimization.h,
# many in templates: InlinedVector's Storage::EmplaceBack, a member
# template defined out of its class with a trailing return type, and the
# parse_digits lambda of str_format's ConsumeConversion<bool> (parser.cc),
# which the profile names operator().  The workload: the five tests, each
# one's verdicts (test names and OK/FAILED, without times) compared.

pkg=abseil
annot_dirs="absl"
# .cc besides .h: its sources are C++
annot_glob='*.[ch] *.cc'
needs="cmake:cmake"

# the tests; a target is absl_NAME
abseil_tests="inlined_vector_test raw_hash_set_test charconv_test
	numbers_test str_format_parser_test"

build() {
	if [ -n "$LP_REAL_CC" ]; then
		set -- -DCMAKE_CXX_COMPILER_LAUNCHER="$LIKELYPROF" \
		       -DCMAKE_CXX_LINKER_LAUNCHER="$LIKELYPROF"
	else
		set --
	fi
	[ -f /usr/include/gtest/gtest.h ] &&
	[ -f /usr/include/gmock/gmock.h ] || {
		echo "needs Debian's googletest: apt-get install googletest" \
		     "libgtest-dev libgmock-dev"
		return 1
	}
	t=
	for n in $abseil_tests; do
		t="$t absl_$n"
	done
	cmake -S . -B out -DCMAKE_BUILD_TYPE=Release \
		-DCMAKE_CXX_COMPILER=g++ "-DCMAKE_CXX_FLAGS_RELEASE=-O2 -DNDEBUG" \
		-DCMAKE_CXX_STANDARD=17 -DABSL_PROPAGATE_CXX_STD=ON \
		-DBUILD_TESTING=ON -DABSL_BUILD_TESTING=ON \
		-DABSL_USE_EXTERNAL_GOOGLETEST=ON -DABSL_FIND_GOOGLETEST=ON \
		"$@" &&
	cmake --build out -j "$JOBS" --target $t
}

workload() {
	out=$1
	log=$2
	for n in $abseil_tests; do
		b=$(find out -name "absl_$n" -type f -perm -u+x | head -n 1)
		[ -n "$b" ] || { echo "$n: not built" >> "$out/exits"; continue; }
		"$b" > "$log/$n" 2>&1
		echo "$n: exit $?" >> "$out/exits"
		# the verdicts, without the times
		sed -n 's/ ([0-9]* ms\( total\)*)$//
			/^\[ *\(OK\|FAILED\|PASSED\|SKIPPED\) *\]/p
			/^\[==========\]/p' "$log/$n" > "$out/$n"
	done
	! grep -qv ': exit 0$' "$out/exits"
}
