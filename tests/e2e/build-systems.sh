#!/bin/sh
# build-systems.sh - a small project with a shared library, built
# unmodified by make with CC="likelyprof cc" and by CMake with the
# launchers; `likelyprof run` on it gives the counts its code implies.
# Then every other spelling users try (doc/likelyprof-cc.md): ccache
# before and after likelyprof, with hits on the second build; ccache's
# masquerade folder and our own; likelyprof-cc as CC and as
# CMAKE_C_COMPILER; meson; a CMake build without the linker launcher,
# whose link error says how to add the runtime.  None may hang (make
# exports CC, which once made the wrapper run itself) or leave an empty
# profile behind (meson runs a sanity-check program).
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/proj
# The ring holds 64 bytes: put 100, fail once at the 65th, drain 64,
# retry, end with 36 and drain them: ring_put runs 101 times (one full),
# ring_get 101 times (one empty).
check_profile() {
	got=$(site_counts "$1" ring.c ring_put)
	[ "$got" = "100 1" ] || fail "$2: ring_put '$got', want '100 1'"
	got=$(site_counts "$1" ring.c ring_get)
	[ "$got" = "100 1" ] || fail "$2: ring_get '$got', want '100 1'"
	got=$(site_counts "$1" sum.c checksum)
	[ "$got" = "100 1" ] || fail "$2: checksum '$got', want '100 1'"
	got=$(site_counts "$1" main.c main)
	[ "$got" = "99 1" ] || fail "$2: main '$got', want '99 1'"
	n=$(awk -F'\t' '$1 == "site"' "$1" | wc -l)
	[ "$n" -eq 4 ] || fail "$2: $n sites, want 4"
}

# make, unmodified, CC from the command line
cp -r "$SRC" "$SCRATCH/make"
cd "$SCRATCH/make" || exit 1
make -s CC="$LIKELYPROF cc" > build.log 2>&1 || { fail "make failed"; cat build.log; }
expected=$(cd "$SRC" && cp -r . "$SCRATCH/plain" && cd "$SCRATCH/plain" &&
	   make -s >/dev/null 2>&1 && ./prog)
$LIKELYPROF run -o run.lprof -- ./prog > out 2> err || fail "run failed: $(cat err)"
[ "$(cat out)" = "$expected" ] || fail "make: output '$(cat out)', plain '$expected'"
grep -q "^likelyprof: 1 process, 4 sites" err || fail "make: summary '$(cat err)'"
check_profile run.lprof make

# CMake with the compiler and linker launchers
if command -v cmake >/dev/null; then
	mkdir "$SCRATCH/cmake"
	cd "$SCRATCH/cmake" || exit 1
	if cmake -S "$SRC" -B . -DCMAKE_C_COMPILER_LAUNCHER="$LIKELYPROF" \
		-DCMAKE_C_LINKER_LAUNCHER="$LIKELYPROF" > cmake.log 2>&1 &&
	   cmake --build . > build.log 2>&1; then
		$LIKELYPROF run -o run.lprof -- ./prog > out 2> err ||
			fail "cmake: run failed: $(cat err)"
		[ "$(cat out)" = "$expected" ] || fail "cmake: output '$(cat out)'"
		check_profile run.lprof cmake
	else
		fail "cmake build failed"
		tail -20 cmake.log build.log
	fi
else
	note "skip cmake: not installed"
fi
# The spellings need ccache and meson; sanitized runs skip them (the
# programs are not sanitized, and the plain runs cover the logic).
if [ -n "$LP_SANITIZE" ]; then
	note "skip the other spellings under sanitizers"
	finish
fi
BIN=$(dirname "$LIKELYPROF")
export CCACHE_DIR="$SCRATCH/ccache"
hits() {
	ccache --print-stats | awk '$1 ~ /_cache_hit$/ { s += $2 } END { print s + 0 }'
}

# make_build NAME CC [PATH]: builds a fresh copy, checks output and profile
make_build() {
	rm -rf "$SCRATCH/$1"
	cp -r "$SRC" "$SCRATCH/$1"
	(cd "$SCRATCH/$1" && PATH=${3:-$PATH} timeout 120 make -s CC="$2" \
		> build.log 2>&1) || { fail "$1: make CC='$2' failed or hung"; \
		sed 's/^/    /' "$SCRATCH/$1/build.log" | head; return 1; }
	(cd "$SCRATCH/$1" && $LIKELYPROF run -o run.lprof -- ./prog > out 2> err) ||
		{ fail "$1: run failed"; return 1; }
	[ "$(cat "$SCRATCH/$1/out")" = "$expected" ] || fail "$1: output differs"
	check_profile "$SCRATCH/$1/run.lprof" "$1"
	[ -s "$SCRATCH/$1/build.log" ] && fail "$1: the build printed: $(head -3 "$SCRATCH/$1/build.log")"
	return 0
}

make_build cc-link "$BIN/likelyprof-cc"
mkdir -p "$SCRATCH/ours"
ln -s "$(cd "$BIN" && pwd)/likelyprof" "$SCRATCH/ours/cc"
make_build our-folder cc "$SCRATCH/ours:$PATH"
if command -v ccache > /dev/null; then
	ccache -z > /dev/null
	make_build ccache-first "ccache $LIKELYPROF cc"
	make_build ccache-first "ccache $LIKELYPROF cc"
	[ "$(hits)" -gt 0 ] || fail "ccache likelyprof cc: no cache hit on the second build"
	ccache -z > /dev/null
	make_build ccache-after "$LIKELYPROF ccache cc"
	make_build ccache-after "$LIKELYPROF ccache cc"
	[ "$(hits)" -gt 0 ] || fail "likelyprof ccache cc: no cache hit on the second build"
	if [ -x /usr/lib/ccache/cc ]; then
		make_build masquerade "$LIKELYPROF cc" "/usr/lib/ccache:$PATH"
	fi
	if command -v cmake > /dev/null; then
		ccache -z > /dev/null
		for k in 1 2; do
			rm -rf "$SCRATCH/cm-ccache"
			mkdir "$SCRATCH/cm-ccache"
			(cd "$SCRATCH/cm-ccache" &&
			 cmake -S "$SRC" -B . \
				-DCMAKE_C_COMPILER_LAUNCHER="$LIKELYPROF;ccache" \
				-DCMAKE_C_LINKER_LAUNCHER="$LIKELYPROF" > cmake.log 2>&1 &&
			 cmake --build . > build.log 2>&1) ||
				fail "cmake likelyprof;ccache: build $k failed"
		done
		[ "$(hits)" -gt 0 ] || fail "cmake likelyprof;ccache: no cache hit on the second build"
		(cd "$SCRATCH/cm-ccache" && $LIKELYPROF run -o run.lprof -- ./prog > /dev/null 2>&1) &&
			check_profile "$SCRATCH/cm-ccache/run.lprof" cmake-ccache
	fi
else
	fail "ccache is not installed (.ci/run installs it)"
fi

if command -v cmake > /dev/null; then
	mkdir "$SCRATCH/cm-compiler"
	if (cd "$SCRATCH/cm-compiler" &&
	    cmake -S "$SRC" -B . -DCMAKE_C_COMPILER="$BIN/likelyprof-cc" \
		> cmake.log 2>&1 && cmake --build . > build.log 2>&1); then
		(cd "$SCRATCH/cm-compiler" && $LIKELYPROF run -o run.lprof -- ./prog > /dev/null 2>&1) &&
			check_profile "$SCRATCH/cm-compiler/run.lprof" cmake-compiler
	else
		fail "cmake CMAKE_C_COMPILER=likelyprof-cc failed"
	fi
	# without the linker launcher the link must say what is missing
	mkdir "$SCRATCH/cm-nolink"
	(cd "$SCRATCH/cm-nolink" &&
	 cmake -S "$SRC" -B . -DCMAKE_C_COMPILER_LAUNCHER="$LIKELYPROF" \
		> cmake.log 2>&1 && cmake --build . > build.log 2>&1) &&
		fail "cmake without the linker launcher linked"
	grep -q "likelyprof: the runtime is not linked.*CMAKE_C_LINKER_LAUNCHER" \
		"$SCRATCH/cm-nolink/build.log" ||
		fail "cmake without the linker launcher: no message that says how"
fi

if command -v meson > /dev/null && command -v ninja > /dev/null; then
	rm -rf "$SCRATCH/meson"
	cp -r "$SRC" "$SCRATCH/meson"
	cat > "$SCRATCH/meson/meson.build" <<'MESON'
project('ring', 'c')
ring = shared_library('ring', 'ring.c')
executable('prog', 'main.c', 'sum.c', link_with: ring)
MESON
	if (cd "$SCRATCH/meson" && CC="$BIN/likelyprof-cc" meson setup b \
		> setup.log 2>&1 && ninja -C b > build.log 2>&1); then
		(cd "$SCRATCH/meson/b" && $LIKELYPROF run -o run.lprof -- ./prog > /dev/null 2>&1) &&
			check_profile "$SCRATCH/meson/b/run.lprof" meson
		n=$(find "$SCRATCH/meson" -name '*.lprof' ! -name run.lprof | wc -l)
		[ "$n" -eq 0 ] || fail "meson: $n profiles left by the build"
	else
		fail "meson CC=likelyprof-cc failed"
		tail -5 "$SCRATCH/meson/setup.log" "$SCRATCH/meson/build.log"
	fi
else
	fail "meson is not installed (.ci/run installs it)"
fi
finish
