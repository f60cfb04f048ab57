#!/bin/sh
# An annotation in a macro body is changed in the macro when every
# profiled use agrees (both callers here find it wrong): the profile
# names the callers' lines, the edit lands in the header.
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir "$t/src"
cat > "$t/src/check.h" <<'C'
#define CHECK(x) do { \
		if (unlikely(!(x))) \
			return -1; \
	} while (0)
C
cat > "$t/src/use.c" <<'C'
#include "check.h"

int one(int *p)
{
	CHECK(p);
	return *p;
}

int two(int *p, int n)
{
	CHECK(p &&
	      n > 0);
	return p[n - 1];
}
C
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t600000\t400000\t0\t0\tuse.c\t5\tone\t\t\n'
	printf 'site\t700000\t300000\t0\t0\tuse.c\t12\ttwo\t\t\n'
	printf 'end\t2\n'
} > "$t/m.lprof"
"${LIKELYPROF:-likelyprof}" fix --apply --src "$t/src" "$t/m.lprof" |
	sed "s|$t/||"
cat "$t/src/check.h"
