#!/bin/sh
# gen-profile.sh - make a synthetic likelyprof profile of N sites
#
#   bench/gen-profile.sh N [MACHINE] > prof.lprof
#
# For timing report, merge and check at 10k, 100k and 1M sites
# (bench/tools.sh).  The profile is what `likelyprof run` would write for
# a large C project on one machine of a fleet: many files and functions,
# static inlines copied into the units that use them, long conditions with
# escapes, some sites never run and some wrong enough for check to flag;
# bench/gen-profile.c says how.  The same N and MACHINE always give the
# same bytes; profiles of one N and several MACHINEs are one program on
# several machines, and overlap mostly but not fully.  MACHINE 1 (the
# default) has exactly N sites.
#
# Builds bench/gen-profile.c into $BENCH_BUILD/gen-profile (with
# $BENCH_GCC) when it is missing or older than its source: a million sites
# take a second, where awk and sort took ten.
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] && [ $# -le 2 ] || {
	echo "usage: gen-profile.sh N [MACHINE]" >&2
	exit 2
}
src=$here/gen-profile.c
dir=$BENCH_BUILD/gen-profile
bin=$dir/gen-profile
if [ ! -x "$bin" ] || [ -n "$(find "$src" -newer "$bin")" ]; then
	mkdir -p "$dir" || exit 2
	# several may build at once: each its own file, renamed into place
	"$BENCH_GCC" -O2 -o "$bin.$$" "$src" && mv -f "$bin.$$" "$bin" || {
		rm -f "$bin.$$"
		exit 2
	}
fi
exec "$bin" "$@"
