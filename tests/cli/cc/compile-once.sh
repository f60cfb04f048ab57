#!/bin/sh
# How many times likelyprof cc runs the compiler on a unit: once for a C
# unit whose instrumented compile succeeds and says nothing, the object
# instrumented; twice (plain for the diagnostics too) for one with a
# warning, one that calls __builtin_expect itself or whose header does,
# one in all-branches mode, a C++ unit, and one that fails.  The
# compiler is a script that counts its compiles (the probe of
# -fno-integrated-as is no compile).  Then ccache: the second build of
# the once-compiled unit is a hit.
cat > count-cc <<'SH'
#!/bin/sh
for a in "$@"; do
	[ "$a" = -c ] && echo x >> "${0%/*}/compiles"
done
exec gcc "$@"
SH
chmod +x count-cc
printf '#define unlikely(x) __builtin_expect(!!(x), 0)\n' > hint.h
printf 'static inline int g(int x) { return __builtin_expect(x, 1); }\n' \
	> direct.h
cat > quiet.c <<'SRC'
#include "hint.h"
int f(int x) { if (unlikely(x > 2)) return 1; return 0; }
SRC
cat > warned.c <<'SRC'
#include "hint.h"
int f(int x) { int u; if (unlikely(x > 2)) return 1; return 0; }
SRC
cat > direct.c <<'SRC'
int f(int x) { if (__builtin_expect(x > 2, 0)) return 1; return 0; }
SRC
cat > in-header.c <<'SRC'
#include "direct.h"
int f(int x) { return g(x); }
SRC
cat > bad.c <<'SRC'
int f(int x) { return x + nothing; }
SRC
cp quiet.c quiet.cc
run() {
	rm -f compiles out.o
	CC=./count-cc CXX=./count-cc $LIKELYPROF "$@" -o out.o 2> err
	st=$?
	n=$(wc -l < compiles 2>/dev/null || echo 0)
	inst=plain
	[ -f out.o ] && nm out.o | grep -q lp__ && inst=instrumented
	echo "$*: exit $st, $n compiles, $inst, $(wc -l < err) lines of stderr"
}
run cc -Wall -c quiet.c
run cc -Wall -c warned.c
run cc -Wall -c direct.c
run cc -Wall -c in-header.c
run cc -Wall -DLIKELYPROF_ALL_BRANCHES -c quiet.c
run c++ -Wall -c quiet.cc
run cc -Wall -c bad.c
run cc -Wall -MMD -MF q.d -c quiet.c
sed 's/ [^ ]*likelyprof\.h//g; s/\\$//' q.d | tr -s ' \n' '  '
echo
command -v ccache > /dev/null || { echo "ccache: a hit"; exit 0; }
CCACHE_DIR=$PWD/ccache
export CCACHE_DIR
for round in 1 2; do
	rm -f q.o
	CC=gcc $LIKELYPROF ccache gcc -O2 -Wall -c quiet.c -o q.o
done
hits=$(ccache --print-stats | awk -F'\t' '$1 == "direct_cache_hit" { print $2 }')
nm q.o | grep -q lp__ && echo "ccache: $( [ "$hits" -ge 1 ] && echo a hit || echo no hit), instrumented"
