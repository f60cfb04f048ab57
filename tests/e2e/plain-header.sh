#!/bin/sh
# plain-header.sh - a project that adopts likelyprof.h and includes it
# normally gets plain likely()/unlikely(): no instrumentation, nothing to
# link, no warning, and its own likely() wins if it has one.
. "$(dirname "$0")/lib.sh"

INC=${LIKELYPROF_INCLUDE_DIR:-$ROOT/include}
cd "$SCRATCH" || exit 1
cat > adopt.c <<'SRC'
#include <stdio.h>
#include "likelyprof.h"

int main(int argc, char **argv)
{
	(void)argv;
	if (unlikely(argc > 5))
		return 1;
	printf("%d\n", likely(argc == 1) ? LP_VERSION_NUMBER : 0);
	return 0;
}
SRC
cat > own.c <<'SRC'
#define likely(x) (x)
#define unlikely(x) (x)
#include "likelyprof.h"
int main(void) { return likely(0) + unlikely(0); }
SRC
for cc in gcc clang g++ clang++; do
	command -v $cc >/dev/null || continue
	lang=
	case $cc in *++) lang="-x c++" ;; esac
	$cc -Wall -Wextra -pedantic -Werror -I"$INC" $lang adopt.c -o adopt 2> err ||
		{ fail "$cc: build failed: $(cat err)"; continue; }
	[ "$(./adopt)" -gt 0 ] || fail "$cc: wrong output '$(./adopt)'"
	readelf -S adopt | grep -q lp_sites && fail "$cc: lp_sites section in a plain build"
	nm adopt | grep -q 'lp__' && fail "$cc: runtime symbols in a plain build"
	$cc -Wall -Wextra -pedantic -Werror -I"$INC" $lang own.c -o own 2> err ||
		fail "$cc: the project's own likely() clashes: $(cat err)"
done
finish
