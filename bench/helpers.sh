#!/bin/sh
# helpers.sh - what counting costs where small hinted helpers are inlined
# into a hot loop (bench/inline-helpers.c: four or five hints a byte),
# beside gcc's gcov and clang's PGO instrumentation of the same source:
# instructions of the whole run by callgrind (they repeat from run to
# run), the functions left in the binary (an instrumented helper that is
# no longer inlined shows as one more), and for likelyprof the
# instructions each counted evaluation adds.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a build fails, a variant's output differs from the
# plain build's, or the profile does not hold the program's hints.
#
# Knobs (environment):
#   BENCH_HELPERS_ROUNDS=5    1 MiB parses under callgrind
#   BENCH_HELPERS_TARGET=1.20 instructions x plain allowed (issue 34)
. "$(dirname "$0")/lib.sh"
: "${BENCH_HELPERS_ROUNDS:=5}"
: "${BENCH_HELPERS_TARGET:=1.20}"

work=$BENCH_BUILD/helpers
src=$here/inline-helpers.c
failed=0

have_callgrind || exit 0
rm -rf "$work"
mkdir -p "$work" || exit 1
cd "$work" || exit 1

# ir PROGRAM: the instructions of a whole run, its output in PROGRAM.out
ir() {
	LIKELYPROF_FILE=$work/$1.lprof LLVM_PROFILE_FILE=$work/$1.profraw \
		valgrind --tool=callgrind --callgrind-out-file=/dev/null \
		"./$1" "$BENCH_HELPERS_ROUNDS" 2>&1 >"$1.out" |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

# functions PROGRAM: the functions of its text (nm's t and T) but the
# instrumentation's own (a unit's constructor, gcov's and PGO's writers)
functions() {
	nm "$1" 2>/dev/null | awk '($2 == "t" || $2 == "T") &&
		$3 !~ /^(lp__|__gcov|__llvm|_GLOBAL__)/ &&
		$3 !~ /gcov|llvm|profile/' | wc -l
}

variants=$(compiler_variants)
: > rows
for v in $variants; do
	say "helpers: $v"
	if ! vcc "$v" -O2 "$src" -o "$v" 2>"$v.err"; then
		fail "$v does not build: $(tail -1 "$v.err")"
		continue
	fi
	n=$(ir "$v")
	cmp -s "$v.out" "$(plain_of "$v").out" ||
		fail "$v: output differs from $(plain_of "$v")'s"
	evals=""
	case $v in
	*-likelyprof)
		evals=$(awk -F'\t' '$1 == "site" { s += $2 + $3 + $4 }
			END { print s + 0 }' "$v.lprof" 2>/dev/null)
		[ "${evals:-0}" -gt 0 ] ||
			fail "$v: the profile holds no evaluation" ;;
	esac
	echo "$v ${n:-0} $(functions "$v") ${evals:-0} $(variant_name "$v")" >> rows
done

cat <<EOT
bench/inline-helpers.c parses 1 MiB of digits and spaces
$BENCH_HELPERS_ROUNDS times through five small helpers with one hint each
(a bounds test, a peek, two character classes, an overflow guard), all
inlined into one loop by the plain build at \`-O2\`. Whole runs under
callgrind (start-up and the profile dump included); **× plain** is to the
plain build of the same compiler; **functions** are those left in the
binary's text but the instrumentation's own (a helper the instrumented
build no longer inlines would be one more); **per evaluation** is the instructions likelyprof adds for
each evaluation it counted.

| compiler | variant | instructions | × plain | functions | evaluations | per evaluation |
|---|---|---:|---:|---:|---:|---:|
EOT
awk -v t="$BENCH_HELPERS_TARGET" '
	{
		ins[$1] = $2; fn[$1] = $3; ev[$1] = $4; order[NR] = $1
		name = $5
		for (i = 6; i <= NF; i++)
			name = name " " $i
		names[$1] = name
	}
	END {
		for (k = 1; k <= NR; k++) {
			v = order[k]
			c = v; sub(/-.*/, "", c)
			kind = v; sub(/^[^-]*-/, "", kind)
			p = c "-plain"
			x = ins[p] ? ins[v] / ins[p] : 0
			per = ev[v] ? sprintf("%.2f", (ins[v] - ins[p]) / ev[v]) : ""
			name = names[v]
			printf "| %s | %s | %d | %.2f | %d | %s | %s |\n", c, name,
				ins[v], x, fn[v], ev[v] ? ev[v] : "", per
			if (kind == "likelyprof")
				verdict = verdict sprintf("\n| %s: likelyprof at most %s× plain | %.2f× | **%s** |", \
					c, t, x, x <= t ? "met" : "not met")
			if (kind == "likelyprof" && fn[v] != fn[p])
				funcs = funcs sprintf("\n%s: %d functions against the plain build'"'"'s %d.", \
					c, fn[v], fn[p])
		}
		printf "\n| target | measured | verdict |\n|---|---|---|%s\n", verdict
		if (funcs)
			printf "%s\n", funcs
		else
			printf "\nThe instrumented builds keep the plain builds'"'"' functions: every helper is still inlined.\n"
	}' rows
exit "$failed"
