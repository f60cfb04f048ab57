#!/bin/sh
# libraries.sh - what counting costs in widely used libraries, beside
# gcc's gcov and clang's PGO instrumentation: glib's libglib-2.0.so under
# bench/glib-loop.c (hash table and strings), abseil's flat_hash_map
# under bench/abseil-loop.cc (C++ templates), libhttp_parser.so under
# bench/http-loop.c, and the lz4 and zstd command line tools (lz4 -b1 and
# zstd -d of 8 MiB).  Each is built plain, with likelyprof, with
# -fprofile-arcs and with -fprofile-instr-generate, by gcc and clang;
# instructions from callgrind, CPU time ratios from interleaved rounds;
# every run's checksum is compared with the plain build's, and each
# likelyprof run's profile must hold counts.
#
# The sources are the upstream tarballs of Debian's source packages,
# fetched through tests/real/lib.sh (a private apt state; /etc/apt is only
# read) and kept in BENCH_REAL_DIR; only the library each driver needs is
# built (glib: libglib-2.0 by meson, tests off; abseil: its hash container
# libraries by CMake).  A row says why when its package cannot be fetched
# or built here.
#
# Knobs (environment), beside BENCH_GCC, BENCH_CLANG, BENCH_GXX,
# BENCH_CLANGXX and BENCH_CFLAGS (-O2 -gdwarf-4: valgrind 3.19 cannot read
# clang 14's DWARF 5):
#   BENCH_LIBRARIES="glib abseil http lz4 zstd"  the workloads
#   BENCH_LIB_ROUNDS=5                      timed rounds
#   BENCH_GLIB_ROUNDS=40 BENCH_GLIB_CG_ROUNDS=4       glib-loop rounds,
#                                           timed and under callgrind
#   BENCH_ABSEIL_ROUNDS=100 BENCH_ABSEIL_CG_ROUNDS=5  the same, abseil
#   BENCH_HTTP_ROUNDS=800 BENCH_HTTP_CG_ROUNDS=80     the same, 1,000
#                                           requests a round
#   BENCH_ZSTD_COPIES=32                    zstd -d of this many copies of
#                                           the 8 MiB file when timed
#   BENCH_REAL_DIR=build/real               where downloads are kept
. "$(dirname "$0")/lib.sh"
: "${BENCH_LIBRARIES:=glib abseil http lz4 zstd}"
: "${BENCH_LIB_ROUNDS:=5}"
: "${BENCH_GLIB_ROUNDS:=40}"
: "${BENCH_GLIB_CG_ROUNDS:=4}"
: "${BENCH_ABSEIL_ROUNDS:=100}"
: "${BENCH_ABSEIL_CG_ROUNDS:=5}"
: "${BENCH_HTTP_ROUNDS:=800}"
: "${BENCH_HTTP_CG_ROUNDS:=80}"
: "${BENCH_ZSTD_COPIES:=32}"
: "${BENCH_CFLAGS:=-O2 -gdwarf-4}"
: "${BENCH_GXX:=g++}"
: "${BENCH_CLANGXX:=clang++}"
: "${BENCH_REAL_DIR:=$root/build/real}"
export BENCH_GXX BENCH_CLANGXX

start_variants libraries
src=$work/src
mkdir -p "$src" || exit 1
: >"$work/instructions"
: >"$work/evaluations"

# needs COMMAND...: why not, when a build tool is missing
needs() {
	[ -x "${LIKELYPROF:-}" ] || {
		echo "not measured: its build needs the likelyprof command"
		return
	}
	for c in "$@"; do
		have "$c" || {
			echo "not measured: $c is not installed"
			return
		}
	done
}

# untar TARBALL NAME: the source tree, unpacked once into $src/NAME for
# every variant's out-of-tree build
untar() {
	[ -d "$src/$2" ] && return
	mkdir -p "$src/$2" &&
	tar --no-same-owner -xf "$1" -C "$src/$2" --strip-components=1
}

# --- glib: libglib-2.0.so by meson, its tests and optional parts off

build_glib() {
	d=$bin/glib-$1
	untar "$2" glib || return 1
	g=
	case $1 in clang-*) g=-gdwarf-4 ;; esac
	(
		CC=$(cc_line "$1") CFLAGS="$g" LDFLAGS="$(extra_flags "$1")" \
		meson setup "$d" "$src/glib" --buildtype=release \
			-Doptimization=2 -Dtests=false -Dselinux=disabled \
			-Dxattr=false -Dlibmount=disabled -Dman=false \
			-Dgtk_doc=false -Dnls=disabled -Dlibelf=disabled \
			-Dsysprof=disabled &&
		lib=$(ninja -C "$d" -t targets all | sed -n \
			's|^\(glib/libglib-2\.0\.so[.0-9]*\): c_LINKER.*|\1|p') &&
		ninja -C "$d" -j2 "$lib" &&
		"$BENCH_GCC" -O2 -pthread -I"$src/glib" -I"$src/glib/glib" \
			-I"$d/glib" "$here/glib-loop.c" -o "$d/loop" \
			-L"$d/glib" -lglib-2.0 -Wl,-rpath,"$d/glib"
	) >"$d.log" 2>&1
}

# --- abseil: the hash container libraries by CMake, C++17 in every
# variant (the standard the library and the loop are built with must
# agree); the loop is built as the variant is, since flat_hash_map is
# templates compiled into it

build_abseil() {
	d=$bin/abseil-$1
	untar "$2" abseil || return 1
	g=
	case $1 in clang-*) g=-gdwarf-4 ;; esac
	launcher=
	case $1 in *-likelyprof) launcher=$LIKELYPROF ;; esac
	(
		cmake -S "$src/abseil" -B "$d" -DCMAKE_BUILD_TYPE=Release \
			-DCMAKE_CXX_STANDARD=17 -DABSL_PROPAGATE_CXX_STD=ON \
			-DBUILD_TESTING=OFF -DCMAKE_CXX_COMPILER="$(cxx_of "$1")" \
			"-DCMAKE_CXX_FLAGS=$g $(extra_flags "$1")" \
			-DCMAKE_CXX_COMPILER_LAUNCHER="$launcher" &&
		cmake --build "$d" -j 2 --target raw_hash_set hash &&
		$(cc_line "$1" c++) -O2 -std=c++17 -pthread $g \
			-I"$src/abseil" "$here/abseil-loop.cc" -o "$d/loop" \
			-Wl,--start-group $(find "$d" -name 'libabsl_*.a') \
			-Wl,--end-group
	) >"$d.log" 2>&1
}

# --- http-parser: its Makefile's shared library

build_http() {
	d=$bin/http-$1
	mkdir -p "$d" &&
	tar --no-same-owner -xf "$2" -C "$d" --strip-components=1 || return 1
	(
		cd "$d" &&
		CFLAGS=$BENCH_CFLAGS make library CC="$(cc_line "$1")" &&
		ln -sf libhttp_parser.so.2.9.* libhttp_parser.so.2.9 &&
		ln -sf libhttp_parser.so.2.9.* libhttp_parser.so &&
		"$BENCH_GCC" -O2 -pthread -I. "$here/http-loop.c" -o loop \
			-L. -lhttp_parser -Wl,-rpath,"$d"
	) >"$d.log" 2>&1
}

# --- lz4 and zstd: the command line tools, the library compiled in

build_lz4() {
	d=$bin/lz4-$1
	mkdir -p "$d" &&
	tar --no-same-owner -xf "$2" -C "$d" --strip-components=1 &&
	make -C "$d/programs" -j2 CC="$(cc_line "$1")" \
		CFLAGS="$BENCH_CFLAGS" lz4 >"$d.log" 2>&1
}

# zstd-decompress: the tool without its compressor, benchmark or
# dictionary builder; the plain build also makes zstd-compress, for the
# input
build_zstd() {
	d=$bin/zstd-$1
	t=zstd-decompress
	[ "$1" = gcc-plain ] && t="$t zstd-compress"
	mkdir -p "$d" &&
	tar --no-same-owner -xf "$2" -C "$d" --strip-components=1 &&
	make -C "$d/programs" -j2 CC="$(cc_line "$1")" \
		CFLAGS="$BENCH_CFLAGS" HAVE_ZLIB=0 HAVE_LZMA=0 HAVE_LZ4=0 \
		$t >"$d.log" 2>&1
}

# corpus TARBALL OUT: 8 MiB of source text, the files of TARBALL one
# after the other, again from the start until there is enough
corpus() {
	(
		n=0
		while [ "$n" -lt 20 ]; do
			tar -xOf "$1" 2>/dev/null || exit 1
			n=$((n + 1))
		done
	) | head -c 8388608 >"$2"
	[ "$(wc -c <"$2")" -eq 8388608 ]
}

for w in $BENCH_LIBRARIES; do
	case $w in
	glib)
		# meson configures all of glib: pcre2, libffi and zlib from the
		# system, as there is no network for its fallbacks
		why=$(needs meson ninja pkg-config)
		[ -n "$why" ] || pkg-config --exists libpcre2-8 libffi zlib ||
			why="not measured: glib needs libpcre2-dev, libffi-dev and zlib1g-dev"
		build_project glib "$why" glib2.0
		;;
	abseil) build_project abseil "$(needs cmake)" abseil ;;
	http) build_project http "$(needs)" http-parser ;;
	lz4) build_project lz4 "$(needs)" ;;
	zstd) build_project zstd "$(needs)" libzstd ;;
	*) fail "no such workload: $w" ;;
	esac
done

# the inputs of lz4 and zstd
if [ -n "${lz4_variants:-}" ] &&
   ! corpus "$(real_src lz4 "$work/fetch.log")" "$work/lz4.in"; then
	fail "cannot make lz4's input"
	lz4_variants= lz4_note="not measured: no input"
fi
if [ -n "${zstd_variants:-}" ]; then
	case " $zstd_variants " in
	*" gcc-plain "*)
		corpus "$(real_src libzstd "$work/fetch.log")" "$work/zstd.in" &&
		"$bin/zstd-gcc-plain/programs/zstd-compress" -q -3 -f \
			"$work/zstd.in" -o "$work/zstd.zst" ;;
	*) false ;;
	esac || {
		fail "cannot make zstd's input"
		zstd_variants= zstd_note="not measured: no input"
	}
fi

# --- running

# cmd WORKLOAD VARIANT [cg]: the command line of a run, timed or under
# callgrind
cmd() {
	d=$bin/$1-$2
	case $1-${3:-} in
	glib-) echo "$d/loop 1 $BENCH_GLIB_ROUNDS" ;;
	glib-cg) echo "$d/loop 1 $BENCH_GLIB_CG_ROUNDS" ;;
	abseil-) echo "$d/loop 1 $BENCH_ABSEIL_ROUNDS" ;;
	abseil-cg) echo "$d/loop 1 $BENCH_ABSEIL_CG_ROUNDS" ;;
	http-) echo "$d/loop 1 $BENCH_HTTP_ROUNDS" ;;
	http-cg) echo "$d/loop 1 $BENCH_HTTP_CG_ROUNDS" ;;
	lz4-*) echo "$d/programs/lz4 -b1 -i0 $work/lz4.in" ;;
	zstd-)
		printf '%s -d -c' "$d/programs/zstd-decompress"
		i=0
		while [ "$i" -lt "$BENCH_ZSTD_COPIES" ]; do
			printf ' %s' "$work/zstd.zst"
			i=$((i + 1))
		done
		echo
		;;
	zstd-cg) echo "$d/programs/zstd-decompress -d -c $work/zstd.zst" ;;
	esac
}

# checksum WORKLOAD OUT ERR: what every variant must print alike
checksum() {
	case $1 in
	lz4) tr '\r' '\n' <"$3" | sed -n 's/.*-> *\([0-9]*\) .*/\1/p' |
		tail -n 1 ;;
	zstd) cksum <"$2" ;;
	*) field checksum "$2" ;;
	esac
}

# check WORKLOAD VARIANT [cg]: the run's checksum against the first
# variant's (gcc-plain's), and likelyprof's profile of it
check() {
	sum=$(checksum "$1" "$run/out" "$run/err")
	eval "want=\${sum_$1_${3:-t}:-}"
	if [ -z "$sum" ]; then
		fail "$1 $2: no checksum"
	elif [ -z "$want" ]; then
		eval "sum_$1_${3:-t}=\$sum"
	elif [ "$sum" != "$want" ]; then
		fail "$1 $2: checksum $sum, expected $want"
	fi
	case $2 in
	*-likelyprof)
		set -- "$1" "$2" "${3:-}" $(profile_counts "$LIKELYPROF_FILE")
		[ "${5:-0}" -gt 0 ] ||
			fail "$1 $2: likelyprof's profile holds no counts"
		[ "$3" = cg ] && echo "$1:$2 $4 $5 $6" >>"$work/evaluations"
		;;
	esac
}

# timed WORKLOAD VARIANT: one timed, checked run
timed() {
	rm -f "$LIKELYPROF_FILE"
	secs=$("$bin/timeit" "$run/out" "$run/err" $(cmd "$1" "$2")) || {
		fail "$1 $2: exit status $?: $(head -c 300 "$run/err")"
		return
	}
	check "$1" "$2"
	echo "$1:$2 1 $secs" >>"$times"
}

# the function callgrind counts from (--toggle-collect), start-up and
# the profile's dump left out
toggles() {
	case $1 in
	lz4) echo "--toggle-collect=LZ4_compressBlockNoStream" \
		"--toggle-collect=LZ4_decompress_safe_usingDict" ;;
	zstd) echo "--toggle-collect=ZSTD_decompressStream" ;;
	abseil) echo "--toggle-collect=work(void*)" ;;
	*) echo "--toggle-collect=work" ;;
	esac
}

# instructions WORKLOAD VARIANT: instructions of the work, checked too
instructions() {
	rm -f "$LIKELYPROF_FILE"
	valgrind --tool=callgrind $(toggles "$1") \
		--callgrind-out-file="$run/cg.out" --log-file="$run/cg.log" \
		$(cmd "$1" "$2" cg) >"$run/out" 2>"$run/err" || {
		fail "$1 $2 under callgrind: $(head -c 300 "$run/err")"
		return
	}
	check "$1" "$2" cg
	n=$(sed -n 's/.*Collected : *\([0-9]*\).*/\1/p' "$run/cg.log")
	[ "${n:-0}" -gt 0 ] || {
		fail "$1 $2: callgrind counted nothing"
		return
	}
	echo "$1:$2 $n" >>"$work/instructions"
}

all=
for w in $BENCH_LIBRARIES; do
	eval "built=\${${w}_variants:-}"
	for v in $built; do
		all="$all $w:$v"
	done
done

if have valgrind; then
	say "counting instructions with callgrind"
	for wv in $all; do
		instructions "${wv%%:*}" "${wv#*:}"
	done
fi

round=0
while [ "$round" -le "$BENCH_LIB_ROUNDS" ]; do
	say "round $round of $BENCH_LIB_ROUNDS (0: untimed)"
	for wv in $all; do
		timed "${wv%%:*}" "${wv#*:}"
	done
	[ "$round" = 0 ] && : >"$times"
	round=$((round + 1))
done

# --- the report

# cell WORKLOAD VARIANT ir|cpu: a ratio to plain, or — when not measured
cell() {
	case " $all " in
	*" $1:$2 "*) ;;
	*) echo "—"; return ;;
	esac
	case " $all " in
	*" $1:$(plain_of "$2") "*) ;;
	*) echo "—"; return ;;
	esac
	if [ "$3" = ir ]; then
		ir_ratio "$1:$2"
	else
		ratio "$1:$2" 1 4
	fi
}

title() {
	case $1 in
	glib) echo "glib \`libglib-2.0.so\` (hash table, GString)" ;;
	abseil) echo "abseil \`flat_hash_map\` (C++)" ;;
	http) echo "http-parser \`libhttp_parser.so\`" ;;
	lz4) echo "lz4 \`-b1\`, 8 MiB" ;;
	zstd) echo "zstd \`-d\`, 8 MiB" ;;
	esac
}

# evals WORKLOAD: hinted evaluations in the callgrind run and the sites
# that ran, by gcc's likelyprof build, and by clang's where they differ
evals() {
	g=$(field "$1:gcc-likelyprof" "$work/evaluations")
	c=$(field "$1:clang-likelyprof" "$work/evaluations")
	[ -n "$g$c" ] || { echo "—"; return; }
	set -- ${g:-— — —}
	printf '%s (%s of %s sites)' "$1" "$2" "$3"
	[ -z "$c" ] || [ "$c" = "$g" ] || {
		set -- $c
		printf '; clang %s (%s of %s sites)' "$1" "$2" "$3"
	}
	echo
}

cat <<EOT
Libraries that many programs link, each built plain, with likelyprof
($lp_how), with gcc's gcov instrumentation
(\`-fprofile-arcs\`, what \`--coverage\` adds to code) and with clang's
PGO instrumentation
(\`-fprofile-instr-generate\`); the upstream tarballs of Debian's source
packages, fetched at bench time, only the library each driver needs
built by its own build system:

- **glib**: \`libglib-2.0.so\` (meson, \`--buildtype=release
  -Doptimization=2 -Dtests=false\`), under \`bench/glib-loop.c\`: 20,000
  keys made with GString, inserted in a GHashTable, all found, as many
  absent ones looked up, half removed; $BENCH_GLIB_ROUNDS rounds timed,
  $BENCH_GLIB_CG_ROUNDS under callgrind.
- **abseil**: \`absl::flat_hash_map\`, its hash and container libraries
  (CMake, Release, C++17) and \`bench/abseil-loop.cc\` built alike (the
  map is templates): 50,000 integer and 10,000 string keys inserted,
  found, half erased; $BENCH_ABSEIL_ROUNDS rounds timed,
  $BENCH_ABSEIL_CG_ROUNDS under callgrind.
- **http-parser**: \`libhttp_parser.so\` (its Makefile's \`library\`,
  \`-O3\`), under \`bench/http-loop.c\`: 1,000 pipelined requests (GET,
  POST with a body, chunked PUT) parsed in pieces of 1 to 4 KiB;
  $BENCH_HTTP_ROUNDS rounds timed, $BENCH_HTTP_CG_ROUNDS
  ($((BENCH_HTTP_CG_ROUNDS * 1000)) requests) under callgrind.
- **lz4**: the \`lz4\` tool (\`make -C programs lz4\`), \`lz4 -b1 -i0\`
  on 8 MiB of lz4's own sources: one compression, 25 decompressions.
- **zstd**: \`zstd-decompress\` (\`make -C programs\`, the library's
  decoder compiled in), \`-d\` of 8 MiB of zstd's own sources compressed
  at level 3; $BENCH_ZSTD_COPIES copies in a row timed, one under
  callgrind.

Instructions: \`valgrind --tool=callgrind\`, collected only inside the
work (\`--toggle-collect=work\` for the drivers, \`work(void*)\` in C++,
\`LZ4_compressBlockNoStream\` and \`LZ4_decompress_safe_usingDict\` for
lz4, \`ZSTD_decompressStream\` for zstd), start-up and the profile's dump
left out. CPU: user + system time, $BENCH_LIB_ROUNDS rounds, every build
once per round in the order of the table, after an untimed round; the
median. Both as ratios to the plain build of the same compiler. Every
run's checksum (what the driver found, lz4's compressed size, the
decompressed bytes) equals the plain build's, and every likelyprof run's
profile holds counts. Hinted evaluations: the counts in likelyprof's
profile of the callgrind run (gcc's build; clang's too where it differs,
as what is inlined differs), and how many of the build's sites ran.

| library | hinted evaluations a run | instructions: likelyprof gcc | gcov | likelyprof clang | clang PGO | CPU: likelyprof gcc | gcov | likelyprof clang | clang PGO |
|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|
EOT
for w in $BENCH_LIBRARIES; do
	eval "built=\$${w}_variants note=\$${w}_note"
	if [ -z "$built" ]; then
		printf '| %s | %s | | | | | | | | |\n' "$(title "$w")" "$note"
		continue
	fi
	printf '| %s | %s' "$(title "$w")" "$(evals "$w")"
	for k in ir cpu; do
		for v in gcc-likelyprof gcc-gcov clang-likelyprof clang-pgo; do
			printf ' | %s' "$(cell "$w" "$v" "$k")"
		done
	done
	echo " |"
done
case " $all " in
*" glib:gcc-gcov "* | *" abseil:gcc-gcov "*) cat <<EOT

On glib and abseil gcov costs far more CPU time than instructions: both
are built with \`-pthread\`, under which gcc makes \`-fprofile-arcs\`'s
counters atomic (\`-fprofile-update=prefer-atomic\`), a \`lock add\`
per arc that callgrind counts as one instruction; likelyprof's counters
are per thread and plain.
EOT
;;
esac
if ! have valgrind; then
	echo
	echo "No instruction counts: valgrind is not installed."
fi
exit "$failed"
