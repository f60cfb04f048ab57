#!/bin/sh
# judge-commands.sh - `likelyprof judge` preprocesses each file as the
# build's compile_commands.json says: the program's header is found only
# through the database's -I, and its -D turns one macro's hint around, so
# only a judge that used the database finds every hint with the right
# direction.  Both forms of entry ("command", with shell quoting, and
# "arguments") are read; the commands' -c, -o and -MD write nothing; an
# entry of clang's front end beside its driver's (bear writes both) is
# left out; a broken database, or -D beside one, is one error naming it.
. "$(dirname "$0")/lib.sh"

for tool in valgrind objdump gcc; do
	if ! command -v $tool >/dev/null 2>&1; then
		note "skipped: no $tool"
		finish
	fi
done
SRC="$SCRATCH/src"
mkdir -p "$SRC/inc" "$SRC/build"
cp "$E2E_DIR/judge/prog.c" "$SRC/"
cat > "$SRC/inc/hints.h" <<'HDR'
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#if FLAVOR == 2
#define EXPECT_YES(x) __builtin_expect((x), 0)
#else
#define EXPECT_YES(x) __builtin_expect((x), 1)
#endif
HDR
cd "$SRC/build" || exit 1
gcc -O2 -g -I../inc '-DFLAVOR=2' '-DNAME="two words"' -MD -MF prog.d \
	-c ../prog.c -o prog.o && gcc prog.o -o prog || fail "build"
cat > ../compile_commands.json <<'JSON'
[
  { "directory": "SRC/build",
    "command": "gcc -O2 -g -I../inc '-DFLAVOR=2' \"-DNAME=\\\"two words\\\"\" -MD -MF prog.d -c ../prog.c -o prog.o",
    "file": "../prog.c",
    "output": "prog.o" }
]
JSON
sed -i "s|SRC|$SRC|" ../compile_commands.json
touch -d '2001-01-01' prog.o prog.d
cd "$SRC" || exit 1

# expect of each hint line, from a judged profile
expects() {
	awk -F'\t' '$1 == "site" { print $7, $5 }' "$1" | sort -n | uniq |
		tr '\n' ' '
}
want="19 0 21 0 23 1 25 0 27 0 "

$LIKELYPROF judge -o db.lprof -- ./build/prog > out 2> err ||
	fail "judge with the database in --src: $(cat err)"
[ "$(expects db.lprof)" = "$want" ] ||
	fail "database found in --src: hints '$(expects db.lprof)', want '$want'"
[ "$(stat -c %Y build/prog.o build/prog.d | sort -u)" = \
  "$(date -d 2001-01-01 +%s)" ] ||
	fail "preprocessing wrote the commands' outputs"
[ ! -e prog.o ] && [ ! -e build/prog.i ] || fail "stray output files"

# the other judges read one recorded run instead of running it again
valgrind --tool=callgrind --dump-instr=yes --collect-jumps=yes --quiet \
	--callgrind-out-file=cg.out ./build/prog > /dev/null 2>&1 ||
	fail "callgrind run"

# the same commands as "arguments", named with --compile-commands; the
# file twice, as a build of a static and a shared library compiles it,
# so every hint is seen twice and kept once
mv compile_commands.json cc.json.orig
cat > build/args.json <<JSON
[{"directory": "$SRC/build", "file": "$SRC/prog.c",
  "arguments": ["gcc", "-O2", "-g", "-I../inc", "-DFLAVOR=2",
		"-DNAME=\"two words\"", "-c", "-o", "prog.o", "../prog.c"]},
 {"directory": "$SRC/build", "file": "../prog.c",
  "arguments": ["gcc", "-O2", "-g", "-fPIC", "-I../inc", "-DFLAVOR=2",
		"-c", "-o", "prog.pic.o", "../prog.c"]}]
JSON
$LIKELYPROF judge --compile-commands build/args.json -o args.lprof \
	--callgrind cg.out > out 2> err || fail "judge with arguments: $(cat err)"
[ "$(expects args.lprof)" = "$want" ] ||
	fail "arguments form: hints '$(expects args.lprof)', want '$want'"

# bear records clang's front end (clang -cc1) beside the driver that ran
# it; that entry does not run as a command, so judge leaves it to the
# driver's entry of the same file, quietly.  Alone, it is tried.
cat > build/twin.json <<JSON
[{"directory": "$SRC/build", "file": "$SRC/prog.c",
  "arguments": ["gcc", "-O2", "-g", "-I../inc", "-DFLAVOR=2",
		"-c", "-o", "prog.o", "../prog.c"]},
 {"directory": "$SRC/build", "file": "$SRC/prog.c",
  "arguments": ["clang", "-cc1", "-emit-obj", "-mrelocation-model",
		"pic", "-main-file-name", "prog.c", "-o", "prog.o",
		"-x", "c", "../prog.c"]}]
JSON
$LIKELYPROF judge --compile-commands build/twin.json -o twin.lprof \
	--callgrind cg.out > out 2> err ||
	fail "judge with a -cc1 twin: $(cat err)"
[ "$(expects twin.lprof)" = "$want" ] ||
	fail "-cc1 twin: hints '$(expects twin.lprof)', want '$want'"
! grep -q "does not preprocess" err ||
	fail "-cc1 twin: preprocessed: $(cat err)"
sed '1,3d; 4s/^ /[/' build/twin.json > build/alone.json
$LIKELYPROF judge --compile-commands build/alone.json -o alone.lprof \
	--callgrind cg.out > out 2> err
grep -q "does not preprocess" err ||
	fail "-cc1 alone: not tried: $(cat err)"

# without it the header is not found: judge says so and finds nothing
$LIKELYPROF judge -o none.lprof --callgrind cg.out > out 2> err
grep -q "does not preprocess" err ||
	fail "without a database: no warning: $(cat err)"
[ -z "$(expects none.lprof)" ] ||
	fail "without a database: hints '$(expects none.lprof)'"

# a broken database: FILE:LINE, exit 2, no profile written
printf '[\n  {"directory": "x",\n   "file": }\n]\n' > bad.json
$LIKELYPROF judge --compile-commands bad.json -o bad.lprof -- ./build/prog \
	> out 2> err
rc=$?
[ $rc = 2 ] || fail "broken database: exit $rc"
[ "$(cat err)" = "likelyprof: bad.json:3: unexpected character" ] ||
	fail "broken database: stderr '$(cat err)'"
[ ! -e bad.lprof ] || fail "broken database: a profile was written"
printf '[{"directory": "x", "file": "y.c"}]\n' > nocmd.json
$LIKELYPROF judge --compile-commands nocmd.json -- ./build/prog \
	> out 2> err && fail "a command without arguments: exit 0"
grep -q 'nocmd.json: command 1 has no' err ||
	fail "a command without arguments: stderr '$(cat err)'"
$LIKELYPROF judge --compile-commands build/args.json -DX=1 -- ./build/prog \
	> out 2> err && fail "-D beside a database: exit 0"
grep -q 'do not go with a compilation database' err ||
	fail "-D beside a database: stderr '$(cat err)'"
finish
