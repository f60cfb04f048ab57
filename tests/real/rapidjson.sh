# rapidjson.sh - rapidjson for tests/real/run.sh; sourced, not run.
#
# C++, header-only, CMake, built with the C++ compiler and linker
# launchers.  Hints: RAPIDJSON_LIKELY()/RAPIDJSON_UNLIKELY() of
# include/rapidjson/rapidjson.h, in templates instantiated by every
# example: the C++ case of "sites that never ran are in the profile".
# 1.1.0 predates gcc 12's -Wclass-memaccess and -Wimplicit-fallthrough,
# which its -Werror turns into errors, so both builds turn those two off;
# nothing else is passed.  The workload: the examples on the JSON files
# of bin/ (the test data of its own unit tests; Debian's tarball has no
# jsonchecker files), whose outputs are
# compared, and each cut short after 100 bytes for the parser's errors.

pkg=rapidjson
annot_dirs="include example"

build() {
	if [ -n "$LP_REAL_CC" ]; then
		set -- -DCMAKE_CXX_COMPILER_LAUNCHER="$LIKELYPROF" \
		       -DCMAKE_CXX_LINKER_LAUNCHER="$LIKELYPROF"
	else
		set --
	fi
	cmake -S . -B out -DCMAKE_BUILD_TYPE=Release \
		-DRAPIDJSON_BUILD_TESTS=OFF -DRAPIDJSON_BUILD_DOC=OFF \
		"-DCMAKE_CXX_FLAGS=-Wno-class-memaccess -Wno-implicit-fallthrough" \
		"$@" &&
	cmake --build out -j "$JOBS"
}

workload() {
	out=$1
	log=$2
	b=out/bin
	n=0
	for f in bin/data/*.json bin/types/*.json bin/encodings/*.json \
		 bin/jsonschema/tests/draft4/*.json; do
		n=$((n + 1))
		for ex in condense pretty prettyauto capitalize jsonx; do
			$b/$ex < "$f" > "$out/$ex.$n" 2>&1 ||
				echo "$ex $f: exit $?" >> "$out/exits"
		done
		for ex in filterkey filterkeydom; do
			$b/$ex id < "$f" > "$out/$ex.$n" 2>&1 ||
				echo "$ex $f: exit $?" >> "$out/exits"
		done
		# cut short: the parser's error paths
		head -c 100 "$f" | $b/condense > "$out/cut.$n" 2>&1 ||
			echo "cut $f: exit $?" >> "$out/exits"
	done
	# not parsebyparts: its reader thread waits for ever at the end of
	# a redirected file (plain builds too)
	for ex in messagereader serialize simpledom \
		  simplereader simplewriter tutorial; do
		$b/$ex < bin/data/sample.json > "$out/$ex" 2>&1 ||
			echo "$ex: exit $?" >> "$out/exits"
	done
	for f in bin/jsonschema/tests/draft4/*.json; do
		$b/schemavalidator "$f" < bin/data/sample.json \
			>> "$out/schemavalidator" 2>&1
		echo "schemavalidator $f: exit $?" >> "$out/exits"
	done
	[ "$n" -gt 40 ] || { echo "only $n inputs" > "$log/inputs"; return 1; }
}
