#!/bin/sh
# build-systems.sh - a small project with a shared library, built
# unmodified by make with CC="likelyprof cc" and by CMake with the
# launchers; `likelyprof run` on it gives the counts its code implies.
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
finish
