#!/bin/sh
# build.sh - what a build costs under likelyprof cc: lz4 (the library and
# its tool) and zstd (the library and its tool, some 60 files), the
# upstream tarballs of Debian's source packages, built whole by their own
# Makefiles with gcc and clang, plain, with likelyprof cc, with gcc
# -fprofile-arcs and with clang -fprofile-instr-generate, and with an
# older likelyprof where one is named (before/after in one run), from a
# clean tree each time.  CPU time (user and system, the compilers
# included), which a shared machine disturbs less than the wall clock,
# from interleaved rounds: each round builds every variant once.  Ratios
# of medians to the plain build of the same compiler.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a build fails.  Without the network (or apt-get)
# the section says so.
#
# Knobs (environment):
#   BENCH_BUILD_ROUNDS=3      timed rounds
#   BENCH_BUILD_WARMUP=1      0: no untimed round first
#   BENCH_BUILD_TARGET=1.3    CPU x plain allowed (issue 34)
#   BENCH_BUILD_PROJECTS="lz4 zstd"
#   BENCH_BUILD_VARIANTS      the variants, e.g. "gcc-plain gcc-likelyprof"
#   BENCH_LIKELYPROF_BEFORE   an older likelyprof command, in its built
#                             tree (its include/ and lib/ beside it): the
#                             variants GCC-before and clang-before
#   BENCH_REAL_DIR=build/real where the download is kept
. "$(dirname "$0")/lib.sh"
: "${BENCH_BUILD_ROUNDS:=3}"
: "${BENCH_BUILD_WARMUP:=1}"
: "${BENCH_BUILD_TARGET:=1.3}"
: "${BENCH_BUILD_PROJECTS:=lz4 zstd}"

work=$BENCH_BUILD/build
failed=0
rm -rf "$work"
mkdir -p "$work" || exit 1

if [ -n "${BENCH_BUILD_VARIANTS:-}" ]; then
	variants=$BENCH_BUILD_VARIANTS
else
	variants=$(compiler_variants)
	if [ -n "${BENCH_LIKELYPROF_BEFORE:-}" ]; then
		variants="$variants gcc-before"
		! have "$BENCH_CLANG" || variants="$variants clang-before"
	fi
fi

# package PROJECT: its Debian source package
package() {
	case $1 in
	zstd) echo libzstd ;;
	*) echo "$1" ;;
	esac
}


# cc_of VARIANT: the CC of its make.  likelyprof's in the launcher form,
# which names the compiler: with CC="likelyprof cc", make exports its CC
# to the recipes, so likelyprof finds itself in $CC and runs cc, not the
# clang of the environment.
cc_of() {
	c=$(compiler_of "$1")
	case $1 in
	*-likelyprof) echo "$LIKELYPROF $c" ;;
	*-before)
		d=$(dirname "$BENCH_LIKELYPROF_BEFORE")
		echo "env LIKELYPROF_INCLUDE_DIR=$d/include" \
		     "LIKELYPROF_LIB_DIR=$d/lib $BENCH_LIKELYPROF_BEFORE $c" ;;
	*) echo "$c" ;;
	esac
}

# cpu PROJECT VARIANT: the CPU seconds of one build of the project
cpu() {
	rm -rf "$work/tree"
	cp -R "$work/$1" "$work/tree" || return 1
	case $1 in
	lz4) set -- "$2" -C "$work/tree" lib-release lz4-release ;;
	zstd) set -- "$2" -C "$work/tree/programs" zstd-release ;;
	esac
	v=$1
	shift
	/usr/bin/time -f "%U %S" -o "$work/time" \
		make -j2 "$@" CC="$(cc_of "$v")" MOREFLAGS="$(extra_flags "$v")" \
		> "$work/$v.log" 2>&1 || return 1
	awk '{ print $1 + $2 }' "$work/time"
}

if ! [ -x "${LIKELYPROF:-}" ]; then
	echo "Not measured: the likelyprof command is not built."
	exit 0
fi
projects=
for p in $BENCH_BUILD_PROJECTS; do
	if ! tarball=$(real_src "$(package "$p")" "$work/fetch.log"); then
		echo "Not measured: $p could not be fetched" \
		     "($(tail -1 "$work/fetch.log"))."
		continue
	fi
	mkdir "$work/$p" &&
	tar -xf "$tarball" -C "$work/$p" --strip-components=1 ||
		{ echo "Not measured: the $p tarball does not unpack."; exit 1; }
	eval "version_$p=\$(basename \"\$tarball\" | sed 's/^[^_]*_//; s/\.orig.*//')"
	projects="$projects $p"
done
times=$work/times
: > "$times"
first=0
[ "$BENCH_BUILD_WARMUP" = 1 ] || first=1
for round in $(seq "$first" "$BENCH_BUILD_ROUNDS"); do
	for p in $projects; do
		for v in $variants; do
			say "build: round $round, $p, $v"
			if ! t=$(cpu "$p" "$v"); then
				fail_line=$(grep -m1 -i 'error' "$work/$v.log")
				say "FAILED: $p $v: ${fail_line:-see $work/$v.log}"
				failed=1
				continue
			fi
			# round 0 fills the page cache only
			[ "$round" = 0 ] || echo "$v $p $t $t" >> "$times"
		done
	done
done

cat <<EOT
Each project built whole from a clean tree by its own Makefile with
each variant's compiler: lz4 (\`make -j2 lib-release lz4-release\`) and
zstd (\`make -j2 -C programs zstd-release\`); likelyprof's as
\`CC="likelyprof gcc"\` or \`"likelyprof clang"\`, gcov's and PGO's flags
in \`MOREFLAGS\`; "likelyprof before" is the command of
\`BENCH_LIKELYPROF_BEFORE\`, an older build, in the same run.  CPU time of
the whole build (user and system, compilers included), medians of
$BENCH_BUILD_ROUNDS interleaved rounds.

| project | compiler | variant | CPU (s) | min–max (s) | × plain |
|---|---|---|---:|---:|---:|
EOT
for p in $projects; do
	eval "ver=\$version_$p"
	for v in $variants; do
		s=$(spread "$v" "$p" 4) || continue
		set -- $s
		case $v in
		*-before) name="likelyprof before" ;;
		*) name=$(variant_name "$v") ;;
		esac
		echo "| $p $ver | ${v%%-*} | $name | $1 | $2–$3 |" \
		     "$(r "$v" "$p" 4) |"
	done
done
echo
echo "| target | measured | verdict |"
echo "|---|---|---|"
for p in $projects; do
	for v in $variants; do
		case $v in
		*-likelyprof)
			x=$(r "$v" "$p" 4)
			if is "$x" "<=" "$BENCH_BUILD_TARGET"; then
				verdict=met
			else
				verdict="not met"
			fi
			echo "| $p, ${v%%-*}: a likelyprof build at most" \
			     "${BENCH_BUILD_TARGET}× plain CPU | ${x}× |" \
			     "**$verdict** |" ;;
		esac
	done
done
cat <<EOT

A C unit whose instrumented compile succeeds and says nothing is
compiled once; one that draws a diagnostic, fails, calls
\`__builtin_expect\` directly or is C++ is compiled plain too, for the
diagnostics (doc/DESIGN.md, *Warnings*).
EOT
exit "$failed"
