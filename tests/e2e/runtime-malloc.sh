#!/bin/sh
# runtime-malloc.sh - a program whose own instrumented malloc has hints
# (the jemalloc trap): it runs to the end without recursion or deadlock,
# and the profile's count of the malloc hint equals the mallocs the
# program counted.
. "$(dirname "$0")/lib.sh"

# sanitizers bring their own malloc, which this test replaces: plain only
if [ -n "$LP_SANITIZE" ]; then
	note "skip: the program replaces malloc"
	finish
fi
cd "$SCRATCH" || exit 1
for cc in ${LP_E2E_COMPILERS:-gcc clang}; do
	CC=$cc $LIKELYPROF cc -O2 -Wall -Wextra -pthread \
		"$E2E_DIR/runtime/mymalloc.c" -o m-$cc || { fail "$cc: build"; continue; }
	out=$(LIKELYPROF_FILE=$SCRATCH/m-$cc.lprof timeout 60 ./m-$cc) ||
		{ fail "$cc: program failed or hung ($?)"; continue; }
	want=$(echo "$out" | sed -n 's/^mallocs //p')
	got=$(awk -F'\t' '$1 == "site" && $8 == "malloc" { print $2 + $3 }' m-$cc.lprof)
	[ -n "$want" ] && [ "$got" = "$want" ] ||
		fail "$cc: malloc's hint counted $got times, program says $want"
done
finish
