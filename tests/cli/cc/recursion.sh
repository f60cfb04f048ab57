#!/bin/sh
# No way of setting CC makes the wrapper run itself: CC naming
# likelyprof, CC="ccache likelyprof cc" as make exports it, a $CC script
# that calls likelyprof cc again, and a masquerading link named cc in
# PATH.  Each builds (within the timeout) an instrumented program.
printf 'int main(void) { return (int)__builtin_expect(0, 0); }\n' > m.c
ok() { nm "$1" | grep -q lp__unit_load && echo "$2: ok"; }
CC="$LIKELYPROF cc" timeout 20 $LIKELYPROF cc m.c -o m1 && ok m1 "CC=likelyprof cc"
CC="ccache $LIKELYPROF cc" CCACHE_DISABLE=1 timeout 20 $LIKELYPROF cc m.c -o m2 &&
	ok m2 "CC=ccache likelyprof cc"
CC="$LIKELYPROF cc -DEXTRA=1" timeout 20 $LIKELYPROF cc -DEXTRA=1 m.c -o m8 &&
	ok m8 "CC=likelyprof cc with flags"
printf '#!/bin/sh\nexec "%s" cc "$@"\n' "$LIKELYPROF" > mycc
chmod +x mycc
CC=$PWD/mycc timeout 20 $LIKELYPROF cc m.c -o m3 && ok m3 "CC=script calling likelyprof"
mkdir bin
ln -s "$LIKELYPROF" bin/cc
PATH=$PWD/bin:$PATH timeout 20 $LIKELYPROF cc m.c -o m4 && ok m4 "cc in PATH is likelyprof"
PATH=$PWD/bin:$PATH timeout 20 cc m.c -o m5 && ok m5 "masquerading cc"
"$(dirname "$LIKELYPROF")/likelyprof-cc" m.c -o m6 && ok m6 "likelyprof-cc"
$LIKELYPROF c++ --help | head -1
$LIKELYPROF -c m.c -o m7 2>&1 | head -2
