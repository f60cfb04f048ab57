#!/bin/sh
# group-runs.sh - a run of stubs that always execute together counts once
# (gcc's assembler through tools/cmd-as.c), and every site still gets
# exactly its own counts.  group/ is a -fPIC pool library with folded
# hints in a row and an inline helper used twice, driven by two threads,
# plus a plugin dlopen()ed and dlclose()d twice.  Built with the pass and
# with LIKELYPROF_GROUP=off, both must write the same site rows; the
# pass must have made runs (its alias records are in the library) and
# pool_get() must make fewer counter increments than without it.  The
# same holds for an executable (local-exec counters) and with -pipe.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/group
flags="-O2 -g -Wall $(san_flags)"

# increments OBJ FUNC: counter increments in FUNC's body
increments() {
	func_disasm "$1" "$2" | grep -c 'addq *\$0x1,%fs:'
}

build() {
	d=$SCRATCH/$1
	shift
	mkdir -p "$d"
	(
		cd "$d" &&
		env "$@" CC=gcc $LIKELYPROF cc $flags -fPIC -shared \
			"$SRC/pool.c" -o libpool.so &&
		env "$@" CC=gcc $LIKELYPROF cc $flags -pipe -fPIC -shared \
			"$SRC/plugin.c" -o plugin.so &&
		env "$@" CC=gcc $LIKELYPROF cc $flags "$SRC/main.c" \
			-o prog -L. -lpool -Wl,-rpath,"$d" -ldl -pthread &&
		env "$@" CC=gcc $LIKELYPROF cc $flags "$SRC/main.c" \
			"$SRC/pool.c" -o prog-exe -ldl -pthread
	) > "$d.log" 2>&1 || { fail "$1: build failed"; cat "$d.log"; }
}

# rows DIR PROG: the site rows of one run, sorted
rows() {
	rm -f "$1/$2.lprof"
	(cd "$1" && LIKELYPROF_FILE="$1/$2.lprof" "./$2" "$1/plugin.so" \
		> "$1/$2.out") || fail "$1/$2: run failed"
	grep '^site' "$1/$2.lprof" | sort > "$1/$2.rows"
}

build on LIKELYPROF_GROUP=
build off LIKELYPROF_GROUP=off
[ "$FAILED" = 0 ] || exit 1

for p in prog prog-exe; do
	rows "$SCRATCH/on" $p
	rows "$SCRATCH/off" $p
	cmp -s "$SCRATCH/on/$p.out" "$SCRATCH/off/$p.out" ||
		fail "$p: the program's output differs with the pass"
	if ! cmp -s "$SCRATCH/on/$p.rows" "$SCRATCH/off/$p.rows"; then
		fail "$p: counts differ with the pass"
		diff "$SCRATCH/off/$p.rows" "$SCRATCH/on/$p.rows"
	fi
done
n=$(wc -l < "$SCRATCH/on/prog.rows")
[ "$n" -ge 10 ] || fail "only $n sites in the profile"
# every site ran: a lost alias would show as a zero row
if awk '$2 + $3 == 0' "$SCRATCH/on/prog.rows" | grep -q .; then
	fail "a site counted nothing"
	awk '$2 + $3 == 0' "$SCRATCH/on/prog.rows"
fi

for lib in libpool.so plugin.so prog-exe; do
	objdump -t "$SCRATCH/on/$lib" | grep -q 'lp__grp\.0$' ||
		fail "$lib: no run was made"
	if objdump -t "$SCRATCH/off/$lib" | grep -q 'lp__grp\.'; then
		fail "$lib: LIKELYPROF_GROUP=off made runs"
	fi
done
on=$(increments "$SCRATCH/on/libpool.so" pool_get)
off=$(increments "$SCRATCH/off/libpool.so" pool_get)
note "pool_get: $off counter increments without the pass, $on with it"
[ "$on" -lt "$off" ] || fail "pool_get: the pass saved no increment"

[ "$FAILED" = 0 ] && echo "group-runs: ok"
exit "$FAILED"
