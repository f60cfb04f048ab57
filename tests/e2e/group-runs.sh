#!/bin/sh
# group-runs.sh - a run of stubs that always execute together counts once
# (the assembler through tools/cmd-as.c; clang's C with
# -fno-integrated-as, its debug labels between the stubs), and every
# site still gets
# exactly its own counts.  group/ is a -fPIC pool library with folded
# hints in a row and an inline helper used twice, driven by two threads,
# plus a plugin dlopen()ed and dlclose()d twice.  Built with the pass and
# with LIKELYPROF_GROUP=off, both must write the same site rows; the
# pass must have made runs (its alias records are in the library) and
# pool_get() must make fewer counter increments than without it.  The
# same holds for an executable (local-exec counters) and with -pipe, for
# gcc and for clang.  When the compile fails with the pass (here an
# assembler that fails), it is done again without it: counted, not
# grouped, and said so.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/group
flags="-O2 -g -Wall $(san_flags)"

# increments OBJ FUNC: counter increments in FUNC's body
increments() {
	func_disasm "$1" "$2" | grep -c 'addq *\$0x1,%fs:'
}

# build DIR COMPILER ENV...
build() {
	d=$SCRATCH/$1
	c=$2
	shift 2
	mkdir -p "$d"
	(
		cd "$d" &&
		env "$@" CC=$c $LIKELYPROF cc $flags -fPIC -shared \
			"$SRC/pool.c" -o libpool.so &&
		env "$@" CC=$c $LIKELYPROF cc $flags -pipe -fPIC -shared \
			"$SRC/plugin.c" -o plugin.so &&
		env "$@" CC=$c $LIKELYPROF cc $flags "$SRC/main.c" \
			-o prog -L. -lpool -Wl,-rpath,"$d" -ldl -pthread &&
		env "$@" CC=$c $LIKELYPROF cc $flags "$SRC/main.c" \
			"$SRC/pool.c" -o prog-exe -ldl -pthread
	) > "$d.log" 2>&1 || { fail "$1: build failed"; cat "$d.log"; }
	if grep -q "not grouped" "$d.log"; then
		fail "$1: the pass failed"
		cat "$d.log"
	fi
}

# rows DIR PROG: the site rows of one run, sorted
rows() {
	rm -f "$1/$2.lprof"
	(cd "$1" && LIKELYPROF_FILE="$1/$2.lprof" "./$2" "$1/plugin.so" \
		> "$1/$2.out") || fail "$1/$2: run failed"
	grep '^site' "$1/$2.lprof" | sort > "$1/$2.rows"
}

compilers=${LP_E2E_COMPILERS:-gcc clang}
for cc in $compilers; do
	build "$cc-on" "$cc" LIKELYPROF_GROUP=
	build "$cc-off" "$cc" LIKELYPROF_GROUP=off
done
[ "$FAILED" = 0 ] || exit 1

for cc in $compilers; do
	for p in prog prog-exe; do
		rows "$SCRATCH/$cc-on" $p
		rows "$SCRATCH/$cc-off" $p
		cmp -s "$SCRATCH/$cc-on/$p.out" "$SCRATCH/$cc-off/$p.out" ||
			fail "$cc $p: the output differs with the pass"
		on=$SCRATCH/$cc-on/$p.rows off=$SCRATCH/$cc-off/$p.rows
		if ! cmp -s "$on" "$off"; then
			fail "$cc $p: counts differ with the pass"
			diff "$off" "$on"
		fi
	done
	n=$(wc -l < "$SCRATCH/$cc-on/prog.rows")
	[ "$n" -ge 10 ] || fail "$cc: only $n sites in the profile"
	# every site ran: a lost alias would show as a zero row
	if awk '$2 + $3 == 0' "$SCRATCH/$cc-on/prog.rows" | grep -q .; then
		fail "$cc: a site counted nothing"
		awk '$2 + $3 == 0' "$SCRATCH/$cc-on/prog.rows"
	fi

	for lib in libpool.so plugin.so prog-exe; do
		objdump -t "$SCRATCH/$cc-on/$lib" | grep -q 'lp__grp\.0$' ||
			fail "$cc $lib: no run was made"
		if objdump -t "$SCRATCH/$cc-off/$lib" |
		   grep -q 'lp__grp\.'; then
			fail "$cc $lib: LIKELYPROF_GROUP=off made runs"
		fi
	done
	on=$(increments "$SCRATCH/$cc-on/libpool.so" pool_get)
	off=$(increments "$SCRATCH/$cc-off/libpool.so" pool_get)
	note "$cc pool_get: $off increments without the pass, $on with it"
	[ "$on" -lt "$off" ] || fail "$cc pool_get: the pass saved no increment"
done

for cc in $compilers; do
	d=$SCRATCH/$cc-failing
	mkdir -p "$d"
	cp "$SCRATCH/$cc-off/plugin.so" "$d/"
	(cd "$d" && LIKELYPROF_AS=false CC=$cc $LIKELYPROF cc $flags \
		"$SRC/main.c" "$SRC/pool.c" -o prog-exe -ldl -pthread) \
		> "$d.log" 2>&1 || fail "$cc: no build when the pass fails"
	grep -q "runs of hints not grouped" "$d.log" ||
		fail "$cc: a failing pass was not said"
	rows "$d" prog-exe
	cmp -s "$d/prog-exe.rows" "$SCRATCH/$cc-off/prog-exe.rows" ||
		fail "$cc: counts differ after the pass failed"
done

[ "$FAILED" = 0 ] && echo "group-runs: ok"
exit "$FAILED"
