#!/bin/sh
# m32.sh - `likelyprof cc -m32` links the 32-bit runtime that `make lib32`
# builds (make check builds it where the compiler can make 32-bit code):
# the program links, is 32-bit and needs liblikelyprof; where the kernel
# runs 32-bit programs its profile holds the counts its code implies.
# Without the runtime, the link fails with a message naming make lib32.
. "$(dirname "$0")/lib.sh"

if [ -n "$LP_SANITIZE" ]; then
	note "skip: the sanitized runtime is 64-bit only"
	finish
fi
cd "$SCRATCH" || exit 1
printf 'int main(void){return 0;}\n' > probe.c
gcc -m32 probe.c -o probe 2> /dev/null ||
	skip "gcc -m32 cannot build (apt-get install gcc-multilib)"
cat > m.c <<'SRC'
#include <stdio.h>
int main(int argc, char **argv)
{
	int i, n = 0;

	(void)argv;
	for (i = 0; __builtin_expect(i < 10 * argc, 1); i++)
		n += i;
	printf("%d\n", n);
	return 0;
}
SRC
CC=gcc $LIKELYPROF cc -m32 -O2 m.c -o m 2> err || fail "link failed: $(cat err)"
[ -s err ] && fail "the build printed: $(cat err)"
file -L m 2>/dev/null | grep -q 'ELF 32-bit' ||
	readelf -h m | grep -q 'ELF32' || fail "not a 32-bit program"
readelf -d m | grep -q 'liblikelyprof' || fail "runtime not linked"
if ./probe 2> /dev/null; then
	LIKELYPROF_FILE=m.lprof ./m > out || fail "the program failed"
	[ "$(cat out)" = 45 ] || fail "output '$(cat out)'"
	got=$(site_counts m.lprof m.c main)
	[ "$got" = "10 1" ] || fail "counts '$got', want '10 1'"
else
	note "this kernel runs no 32-bit program: linked, not run"
fi
LIKELYPROF_LIB_DIR=$SCRATCH CC=gcc $LIKELYPROF cc -m32 m.c -o m2 2> err &&
	fail "linked without a 32-bit runtime"
grep -q "make lib32" err || fail "no hint at make lib32: $(cat err)"
finish
