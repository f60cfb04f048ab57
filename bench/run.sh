#!/bin/sh
# run.sh - `make bench`: run every benchmark part and write bench/RESULTS.md
#
# The parts are scripts beside this one, run in this order when present:
#
#   overhead.sh   what counting costs the profiled program (bench/workload)
#   shared.sh     the same in shared-library code: the workload built -fPIC
#                 and jemalloc (fetched), beside gcov and clang PGO
#   libraries.sh  the same in glib, abseil's flat_hash_map, http-parser,
#                 lz4 and zstd (fetched), beside gcov and clang PGO
#   helpers.sh    small hinted helpers inlined into a hot loop: their
#                 instructions and functions beside gcov and clang PGO
#   tools.sh      report, merge and check at 10k, 100k and 1M sites
#   merge.sh      merging a fleet: 8 x 1M sites, 10,000 small profiles
#   judge.sh      likelyprof judge on unmodified binaries against the
#                 exact counts of instrumented builds (lz4, zstd fetched)
#   short-process.sh  what a site costs a process that runs for a moment:
#                 start-up, first counts and the dump, at 200 to 20,000
#                 sites, beside gcc --coverage
#   build.sh      the CPU time of lz4's and zstd's builds (fetched)
#                 under likelyprof cc, beside gcov and clang PGO
#   html.sh       the page of report --format html at 10k and 100k sites:
#                 bytes per site, time to show it in headless Chromium
#
# A part gets the environment of `make bench` (LIKELYPROF, the command;
# LIKELYPROF_INCLUDE_DIR and LIKELYPROF_LIB_DIR, the header and the
# runtime) and BENCH_BUILD, a scratch folder it may fill below
# $BENCH_BUILD/<part>; it sources bench/lib.sh for the defaults, so it
# also runs alone.  It prints its section of RESULTS.md in Markdown on
# stdout (### headings and below), progress on stderr, and exits non-zero
# when something it measured was wrong.  The section is kept either way,
# so a failure is on record; `make bench` then fails too.
. "$(dirname "$0")/lib.sh"
mkdir -p "$BENCH_BUILD" || exit 2

version() {
	"$@" --version 2>/dev/null | head -n 1
}

cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null |
	head -n 1)
# all CPUs and those online: a machine with some offline says so
cores=$(grep -c '^processor' /proc/cpuinfo 2>/dev/null)
online=$(getconf _NPROCESSORS_ONLN 2>/dev/null)
compilers=$(version "$BENCH_GCC")
if have "$BENCH_CLANG"; then
	compilers="$compilers; $(version "$BENCH_CLANG")"
fi
lp_version=$(awk '/^#define LP_VERSION_(MAJOR|MINOR|RELEASE) / {
		v = v (v == "" ? "" : ".") $3 } END { print v }' \
	"$LIKELYPROF_INCLUDE_DIR/likelyprof.h")
commit=$(git -C "$root" rev-parse --short HEAD 2>/dev/null || echo unknown)

status=0
out=$BENCH_BUILD/RESULTS.md
{
	cat <<EOF
# likelyprof benchmarks

Written by \`make bench\` (\`bench/run.sh\`); run it again to measure
your machine (\`BENCH_ROUNDS=15 make bench\` for more rounds; the other
knobs are listed at the top of \`bench/overhead.sh\`). Every number below
comes from the run of $(date -u '+%Y-%m-%d %H:%M UTC').

## Machine

- CPU: ${cpu:-unknown}, ${cores:-?} logical CPUs (${online:-?} online)
- System: $(uname -srm)
- Compilers: $compilers
- Instruction counts: $(version valgrind || echo "no valgrind")
- likelyprof: $lp_version, commit $commit
EOF
	for part in overhead shared libraries helpers tools merge judge \
		short-process build html; do
		case $part in
		overhead) title="Overhead on the profiled program" ;;
		shared) title="Overhead in shared libraries" ;;
		libraries) title="Overhead in widely used libraries" ;;
		helpers) title="Hinted helpers inlined into a hot loop" ;;
		tools) title="The command at 10k, 100k and 1M sites" ;;
		merge) title="Merging a fleet" ;;
		judge) title="Judging an unmodified binary" ;;
		short-process) title="A short process" ;;
		build) title="What a build costs" ;;
		html) title="The page in a browser" ;;
		esac
		printf '\n## %s\n\n' "$title"
		if [ -x "$here/$part.sh" ]; then
			say "$part.sh"
			"$here/$part.sh" || {
				status=1
				printf '\n**bench/%s.sh failed:' "$part"
				printf ' see its messages.**\n'
			}
		else
			echo "Not measured yet: there is no \`bench/$part.sh\`."
		fi
	done
} >"$out"
cp "$out" "$here/RESULTS.md" || exit 2
say "wrote bench/RESULTS.md"
[ "$status" = 0 ] || say "a part failed; see bench/RESULTS.md"
exit "$status"
