#!/bin/sh
# pic-hot-path.sh - shared-library code costs what executable code costs.
# For gcc and clang, C and C++, a -fPIC library's hot function (pic/hot.c)
# must make no TLS call (no __tls_get_addr, no TLS descriptor call), and
# a folded hint must cost one access to its counter, not two: hot() has
# two folded sites and two live ones, so at most 2 + 2 * 2 = 6 writes
# to thread-local counters.  Its counts must be exact (a folded evaluation is correct and
# constant, as the kernel counts it).  A module of 300 sites, dlopen()ed
# after start (150 of them right), must load and count under `likelyprof run` (initial-exec
# counters, glibc's reserve raised), and built with LIKELYPROF_TLS=dynamic
# it must load without run.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/pic
ROUNDS=1000
export ROUNDS

# plugin.c with 300 sites in 300 functions, each run once by plugin_run()
i=0 calls=
while [ $i -lt 300 ]; do
	echo "static int p$i(int x) { return __builtin_expect(x > $i, 0); }"
	calls="$calls	s += p$i(v);
"
	i=$((i + 1))
done > "$SCRATCH/plugin.c"
{
	printf '#ifdef __cplusplus\nextern "C"\n#endif\n'
	echo "int plugin_run(void) { int s = 0; volatile int v = 150;"
	printf '%s' "$calls"
	echo "	return s; }"
} >> "$SCRATCH/plugin.c"

# fs_accesses OBJDUMP-FILE FUNC -> "tls-calls counter-updates" in FUNC's
# body: calls that compute a TLS address, and instructions that write a
# thread-local counter (reading the thread pointer, %fs:0x0, for the cold
# call is neither)
fs_accesses() {
	awk -v fn="$2" '
		$0 ~ "^[0-9a-f]+ <" fn ">:" { on = 1; next }
		on && /^$/ { on = 0 }
		on && /tls_get_addr|TLSCALL|call +\*/ { calls++ }
		on && /(add|sub|inc|dec)q? +[^,]*,(%fs:)?-?(0x[0-9a-f]+)?\(%r/ { fs++ }
		on && /mov +[^,]*,%fs:/ { fs++ }
		END { print calls + 0, fs + 0 }' "$1"
}

# tls_addresses OBJDUMP-R-FILE FUNC -> how many thread-local addresses
# FUNC's body computes (TLS relocations in it): one per function is
# hoisted, one per site is not
tls_addresses() {
	awk -v fn="$2" '
		$0 ~ "^[0-9a-f]+ <" fn ">:" { on = 1; next }
		on && /^$/ { on = 0 }
		on && /R_X86_64_(GOTTPOFF|TPOFF32|TLSGD|TLSLD|GOTPC32_TLSDESC)/ { n++ }
		END { print n + 0 }' "$1"
}

check_lang() {
	cc=$1 lang=$2 ext=$3
	out=$SCRATCH/$cc-$lang
	mkdir -p "$out"
	for f in hot step main; do
		cp "$SRC/$f.c" "$out/$f.$ext"
	done
	flags="-O2 -Wall -Wextra $(san_flags)"
	(
		cd "$out" &&
		CC=$cc CXX=$cc $LIKELYPROF $lang $flags -fPIC -shared \
			hot.$ext step.$ext -o libhot.so &&
		CC=$cc CXX=$cc $LIKELYPROF $lang $flags main.$ext -o prog \
			-L. -lhot -Wl,-rpath,"$out" -ldl &&
		CC=$cc CXX=$cc $LIKELYPROF $lang $flags -fPIC -shared \
			"$SCRATCH/plugin.c" -o plugin.so &&
		CC=$cc CXX=$cc LIKELYPROF_TLS=dynamic $LIKELYPROF $lang \
			$flags -fPIC -shared "$SCRATCH/plugin.c" -o plugin-dyn.so
	) > "$out/build.log" 2>&1 ||
		{ fail "$cc $lang: build failed"; cat "$out/build.log"; return; }

	(cd "$out" && CC=$cc CXX=$cc $LIKELYPROF $lang $flags -fPIC -c \
		hot.$ext -o hot.o) >> "$out/build.log" 2>&1 &&
		objdump -dr "$out/hot.o" > "$out/hot.dis" ||
		{ fail "$cc $lang: hot.o failed"; cat "$out/build.log"; return; }
	fn=hot
	[ "$lang" = c++ ] && fn=_Z3hotPKii
	func_disasm "$out/libhot.so" "$fn" > "$out/lib.dis" ||
		{ fail "$cc $lang: no $fn in libhot.so"; return; }
	set -- $(fs_accesses "$out/lib.dis" "$fn")
	[ "$1" = 0 ] || fail "$cc $lang: $1 TLS calls in hot()"
	[ "$2" -ge 1 ] && [ "$2" -le 6 ] ||
		fail "$cc $lang: $2 counter updates in hot(), want 1 to 6"
	n=$(tls_addresses "$out/hot.dis" "$fn")
	note "$cc $lang: $n thread-local address computations in hot()"
	[ "$n" -le 2 ] ||
		fail "$cc $lang: $n thread-local address computations in hot(), want at most 2"

	(cd "$out" && $LIKELYPROF run -o prog.lprof -- ./prog ./plugin.so) \
		> "$out/run.out" 2> "$out/run.err" ||
		{ fail "$cc $lang: run failed: $(cat "$out/run.err")"; return; }
	# per round: 100 folded evaluations, 100 live ones, 7 sevens; one
	# folded evaluation after the loop
	for want in "config_debug) 100000 0 100000" \
		    "config_debug&& 1000 0 1000" \
		    "a[i]>=0) 100000 0 0" "a[i]==7) 93000 7000 0"; do
		set -- $want
		got=$(awk -F'\t' -v cond="$1" '
			$1 == "site" && $8 == "hot" {
				c = $10; gsub(/ /, "", c)
				if (index(c, "!!(" cond) != 1) next
				sc += $2; si += $3; k += $4; n++
			}
			END { if (n == 1) print sc, si, k; else print "rows=" n }' \
			"$out/prog.lprof")
		[ "$got" = "$2 $3 $4" ] ||
			fail "$cc $lang: site '$1': got '$got', want '$2 $3 $4'"
	done
	n=$(awk -F'\t' '$1 == "site" && $6 ~ /plugin/ && $2 == 1' \
		"$out/prog.lprof" | wc -l)
	[ "$n" = 150 ] ||
		fail "$cc $lang: plugin: $n sites counted once correct, want 150"

	(cd "$out" && LIKELYPROF_FILE=$out/dyn.lprof ./prog ./plugin-dyn.so) \
		> /dev/null 2> "$out/dyn.err" ||
		fail "$cc $lang: dynamic-TLS module did not load: $(cat "$out/dyn.err")"
}

compilers=${LP_E2E_COMPILERS:-gcc clang}
for cc in $compilers; do
	command -v "$cc" >/dev/null || { note "skip $cc: not installed"; continue; }
	check_lang "$cc" cc c
	cxx=g++
	[ "$cc" = clang ] && cxx=clang++
	command -v "$cxx" >/dev/null && check_lang "$cxx" c++ cc
done
finish
