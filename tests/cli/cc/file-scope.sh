#!/bin/sh
# A C file with __builtin_expect at file scope cannot take that hint
# instrumented (no statement can stand there): that hint alone stays
# plain, with one note naming the line of its use (not the #define of
# the macro that spells it), and every other hint of the file is
# counted; the program still links and runs.  With gcc and clang.
cat > fsh.h <<'SRC'
#define likely(x) __builtin_expect(!!(x), 1)
SRC
cat > fs.c <<'SRC'
#include "fsh.h"
static long k = likely(4);
int main(void) { return likely(k == 1) ? 0 : 1; }
SRC
for c in gcc clang; do
	CC=$c $LIKELYPROF cc fs.c -o fs
	echo "$c: exit $?"
	LIKELYPROF_FILE=fs.lprof ./fs
	echo "run $?"
	awk -F'\t' '$1 == "site" { print $6, $8, $2, $3 }' fs.lprof
done
