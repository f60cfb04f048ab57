#!/bin/sh
# A header included once per variant, its function's name a macro
# (libdeflate's decompress_template.h, built as deflate_decompress_bmi2
# and deflate_decompress_default): one hint, in two functions.  judge
# reads the hint once and sums the line's jumps of both, so the site is
# named by the function whose code ran, not by the variant the unit
# included first (here the one that never runs).  Judged under valgrind
# from another folder; the instrumented build names the same function.
mkdir src
cat > src/variant.h <<'SRC'
static int FUNCNAME(int x)
{
	if (__builtin_expect(x % 4 == 0, 0)) {
		hits++;
		return 1;
	}
	return x & 1;
}
#undef FUNCNAME
SRC
cat > src/m.c <<'SRC'
static volatile int hits;
#define FUNCNAME slow_variant
#include "variant.h"
#define FUNCNAME fast_variant
#include "variant.h"
int main(int argc, char **argv)
{
	int (*f)(int) = argc > 1 ? slow_variant : fast_variant;
	long s = 0;

	(void)argv;
	for (int i = 0; i < 1000; i++)
		s += f(i);
	return s == 750 && hits == 250 ? 0 : 1;
}
SRC
cc=${LP_TEST_CC:-cc}
$cc -O1 -g -fno-inline src/m.c -o plain || exit 2
lp=${LIKELYPROF:-likelyprof}
mkdir elsewhere && cd elsewhere || exit 2
"$lp" judge --src ../src -o ../j.lprof -- ../plain 2> /dev/null
echo "judge: exit $?"
cd .. && awk -F'\t' '$1 == "site" { print $2, $3, $6, $7, $8, $11 }' j.lprof
CC=$cc "$lp" cc -O1 -g -fno-inline src/m.c -o inst 2> /dev/null || exit 2
LIKELYPROF_FILE=i.lprof ./inst
echo "instrumented: exit $?"
awk -F'\t' '$1 == "site" { n = split($6, p, "/")
	print $2, $3, p[n], $7, $8 }' i.lprof | sort
