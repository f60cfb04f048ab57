#!/bin/sh
# build.sh - what a build costs under likelyprof cc: lz4 (the upstream
# tarball of Debian's source package) built whole by its own Makefile
# with gcc and clang, plain, with likelyprof cc, with gcc -fprofile-arcs and
# with clang -fprofile-instr-generate, from a clean tree each time.  CPU
# time (user and system, the compilers included), which a shared machine
# disturbs less than the wall clock, from interleaved rounds: each round
# builds every variant once.  Ratios of medians to the plain build of the
# same compiler.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a build fails.  Without the network (or apt-get)
# the section says so.
#
# Knobs (environment):
#   BENCH_BUILD_ROUNDS=3      timed rounds
#   BENCH_BUILD_TARGET=1.3    CPU x plain allowed (issue 34)
#   BENCH_REAL_DIR=build/real where the download is kept
. "$(dirname "$0")/lib.sh"
: "${BENCH_BUILD_ROUNDS:=3}"
: "${BENCH_BUILD_TARGET:=1.3}"

work=$BENCH_BUILD/build
failed=0
rm -rf "$work"
mkdir -p "$work" || exit 1

if ! tarball=$(real_src lz4 "$work/fetch.log"); then
	echo "Not measured: lz4 could not be fetched ($(tail -1 "$work/fetch.log"))."
	exit 0
fi
mkdir "$work/src" && tar -xzf "$tarball" -C "$work/src" --strip-components=1 ||
	{ echo "Not measured: the lz4 tarball does not unpack."; exit 1; }

variants=$(compiler_variants)

# cc_of VARIANT: the CC of its make.  likelyprof's in the launcher form,
# which names the compiler: with CC="likelyprof cc", make exports its CC
# to the recipes, so likelyprof finds itself in $CC and runs cc, not the
# clang of the environment.
cc_of() {
	c=$(compiler_of "$1")
	case $1 in
	*-likelyprof) echo "$LIKELYPROF $c" ;;
	*) echo "$c" ;;
	esac
}

# cpu VARIANT: the CPU seconds of one build of lz4's library and tool
cpu() {
	rm -rf "$work/tree"
	cp -R "$work/src" "$work/tree" || return 1
	/usr/bin/time -f "%U %S" -o "$work/time" \
		make -C "$work/tree" -j2 lib-release lz4-release \
		CC="$(cc_of "$1")" MOREFLAGS="$(extra_flags "$1")" \
		> "$work/$1.log" 2>&1 || return 1
	awk '{ print $1 + $2 }' "$work/time"
}

if ! [ -x "${LIKELYPROF:-}" ]; then
	echo "Not measured: the likelyprof command is not built."
	exit 0
fi
times=$work/times
: > "$times"
for round in $(seq 0 "$BENCH_BUILD_ROUNDS"); do
	for v in $variants; do
		say "build: round $round, $v"
		if ! t=$(cpu "$v"); then
			fail_line=$(grep -m1 -i 'error' "$work/$v.log")
			say "FAILED: $v: ${fail_line:-see $work/$v.log}"
			failed=1
			continue
		fi
		# round 0 fills the page cache and ccache-less caches only
		[ "$round" = 0 ] || echo "$v 1 $t $t" >> "$times"
	done
done

cat <<EOT
lz4 $(basename "$tarball" .orig.tar.gz | sed 's/^lz4_//') (the library and the \`lz4\` tool, \`make -j2
lib-release lz4-release\`, every file compiled from a clean tree) with
each variant's compiler; likelyprof's as \`CC="likelyprof gcc"\` or
\`"likelyprof clang"\`, gcov's
and PGO's flags in \`MOREFLAGS\`. CPU time of the whole build (user and
system, compilers included), medians of $BENCH_BUILD_ROUNDS interleaved rounds after an
untimed one.

| compiler | variant | CPU (s) | min–max (s) | × plain |
|---|---|---:|---:|---:|
EOT
for v in $variants; do
	s=$(spread "$v" 1 4) || continue
	set -- $s
	echo "| ${v%%-*} | $(variant_name "$v") | $1 | $2–$3 | $(r "$v" 1 4) |"
done
echo
echo "| target | measured | verdict |"
echo "|---|---|---|"
for v in $variants; do
	case $v in
	*-likelyprof)
		x=$(r "$v" 1 4)
		if is "$x" "<=" "$BENCH_BUILD_TARGET"; then verdict=met
		else verdict="not met"; fi
		echo "| ${v%%-*}: a likelyprof build at most ${BENCH_BUILD_TARGET}× plain CPU | ${x}× | **$verdict** |" ;;
	esac
done
cat <<EOT

Each file is compiled twice under likelyprof cc: plain, for the
diagnostics (they are then the plain build's, line for line), and
instrumented; doc/DESIGN.md (*Warnings*) says why the plain compile
stays.
EOT
exit "$failed"
