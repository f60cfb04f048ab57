#!/bin/sh
# short-process.sh - what a site costs a process that runs for a moment:
# a test suite is thousands of processes that each start, evaluate a few
# hints once and exit, and each pays the runtime's start-up, every site's
# first count and the profile dump.  A generated program with N hinted
# sites, each evaluated once, built plain, with likelyprof and with gcc
# --coverage, run whole under callgrind (start-up and dump included):
# instructions per site = (instrumented - plain) / N.  Instruction counts
# repeat from run to run, so one run of each is enough.
#
# Run by bench/run.sh; prints a Markdown section on stdout, progress on
# stderr.  Exits 1 if a build fails or a profile does not hold every
# site counted once; a target missed is reported, not a failure.
#
# Knobs (environment):
#   BENCH_SHORT_SITES="200 2000 20000"  program sizes, in sites
#   BENCH_SHORT_UNIT=100                sites per translation unit
#   BENCH_SHORT_TARGET=300              instructions per site allowed
#   BENCH_SHORT_BEFORE=                 the lib/ folder of an older build:
#                                       the same program is run against
#                                       its runtime too, in the same run
. "$(dirname "$0")/lib.sh"
: "${BENCH_SHORT_SITES:=200 2000 20000}"
: "${BENCH_SHORT_UNIT:=100}"
: "${BENCH_SHORT_TARGET:=300}"
: "${BENCH_SHORT_BEFORE:=}"

work=$BENCH_BUILD/short-process
failed=0

have_callgrind || exit 0
rm -rf "$work"
mkdir -p "$work" || exit 1

# gen DIR SITES: units of BENCH_SHORT_UNIT sites in ten functions each,
# names as long as a real project's, each hint guarding a call as an
# error path does, and a main() that calls every function once, so that
# each site is evaluated exactly once.
gen() {
	mkdir -p "$1/src" || return 1
	awk -v dir="$1" -v n="$2" -v per="$BENCH_SHORT_UNIT" 'BEGIN {
		nf = 0
		for (u = 0; u * per < n; u++) {
			f = sprintf("%s/src/module_%03d.c", dir, u)
			printf "#define unlikely(x) __builtin_expect(!!(x), 0)\n" > f
			print "int report_error(int code);" > f
			for (s = u * per; s < n && s < (u + 1) * per; s++) {
				if (s % 10 == 0) {
					if (s > u * per)
						print "\treturn acc;\n}\n" > f
					printf "int parse_field_%d(int v);\n", nf > f
					printf "int parse_field_%d(int v)\n{\n", nf > f
					print "\tint acc = 0;\n" > f
					nf++
				}
				printf "\tif (unlikely(v == %d))\n", s + 1 > f
				printf "\t\tacc += report_error(%d);\n", s > f
			}
			print "\treturn acc;\n}" > f
			close(f)
			units = units " " f
		}
		f = dir "/src/main.c"
		for (i = 0; i < nf; i++)
			printf "int parse_field_%d(int v);\n", i > f
		print "int report_error(int code);" > f
		print "int report_error(int code)\n{\n\treturn code;\n}\n" > f
		print "int main(int argc, char **argv)\n{\n\tint acc = 0;\n" > f
		print "\t(void)argv;" > f
		for (i = 0; i < nf; i++)
			printf "\tacc += parse_field_%d(argc);\n", i > f
		print "\treturn acc != 0;\n}" > f
	}'
}

# ir PROGRAM [LIBDIR]: the instructions of a whole run (callgrind's
# "Collected"); with LIBDIR, against the runtime found there (the
# program's RUNPATH yields to LD_LIBRARY_PATH).
ir() {
	(cd "$(dirname "$1")" &&
		LD_LIBRARY_PATH=${2:-${LD_LIBRARY_PATH:-}} valgrind \
		--tool=callgrind --callgrind-out-file=callgrind.out "$1" \
		2>&1 >/dev/null) |
		sed -n 's/.*Collected : *\([0-9]*\).*/\1/p'
}

cflags="-O2"
: >"$work/instructions"
have_gcov=1
for n in $BENCH_SHORT_SITES; do
	d=$work/$n
	say "$n sites: generating and building"
	gen "$d" "$n" || { fail "cannot generate $n sites"; continue; }
	# built from inside the folder, so __FILE__ is src/module_NNN.c
	(
		cd "$d" || exit 1
		"$BENCH_GCC" $cflags src/*.c -o plain &&
			lp_cc "$BENCH_GCC" $cflags src/*.c -o likelyprof
	) || { fail "cannot build $n sites"; continue; }
	if [ "$have_gcov" = 1 ]; then
		(cd "$d" && "$BENCH_GCC" $cflags --coverage src/*.c -o gcov) ||
			have_gcov=0
	fi
	say "$n sites: counting instructions"
	LIKELYPROF_FILE=$d/prog.lprof
	export LIKELYPROF_FILE
	plain=$(ir "$d/plain")
	lp=$(ir "$d/likelyprof")
	# each site once: $n records, $n evaluations (the program is run
	# without arguments, so every condition is false: incorrect 0)
	got=$(awk -F'\t' '$1 == "site" { s++; c += $2 + $3 }
		END { print s + 0, c + 0 }' "$LIKELYPROF_FILE" 2>/dev/null)
	[ "$got" = "$n $n" ] ||
		fail "$n sites: the profile holds sites and counts '$got'"
	before=0
	if [ -n "$BENCH_SHORT_BEFORE" ]; then
		before=$(ir "$d/likelyprof" "$BENCH_SHORT_BEFORE")
		[ -n "$before" ] ||
			fail "$n sites: no count with the runtime before"
	fi
	gc=""
	if [ "$have_gcov" = 1 ]; then
		rm -f "$d"/*.gcda
		gc=$(ir "$d/gcov")
	fi
	[ -n "$plain" ] && [ -n "$lp" ] ||
		fail "$n sites: callgrind gave no count"
	echo "$n ${plain:-0} ${lp:-0} ${gc:-0} ${before:-0}" \
		>>"$work/instructions"
done

cat <<EOF
A test suite runs thousands of processes that each start, evaluate a few
hints and exit; each pays the runtime's start-up, every site's first
count and the profile dump, whatever its run costs.  A generated program
of N hinted sites in units of $BENCH_SHORT_UNIT, ten to a function
(\`if (unlikely(v == K)) acc += report_error(K);\`), each evaluated
once, $lp_how, \`$cflags\`, run whole under
\`valgrind --tool=callgrind\` (start-up and the dump included): per
site is (instrumented − plain) / N.  gcc \`--coverage\` is the same
program under gcov, writing its \`.gcda\` files at exit.

EOF
if [ -n "$BENCH_SHORT_BEFORE" ]; then
	cat <<EOF
The runtime before is \`$BENCH_SHORT_BEFORE\`: the same program run
against it.

| sites | plain | likelyprof | per site | before | per site | gcc \`--coverage\` | per site |
|---:|---:|---:|---:|---:|---:|---:|---:|
EOF
else
	cat <<EOF
| sites | plain | likelyprof | per site | gcc \`--coverage\` | per site |
|---:|---:|---:|---:|---:|---:|
EOF
fi
awk -v t="$BENCH_SHORT_TARGET" -v b="$BENCH_SHORT_BEFORE" '{
	n = $1
	lp = ($3 - $2) / n
	gc = $4 ? sprintf("%.0f | %.0f", $4, ($4 - $2) / n) : "| "
	if (b != "")
		gc = sprintf("%.0f | %.0f | %s", $5, ($5 - $2) / n, gc)
	printf "| %d | %.0f | %.0f | %.0f | %s |\n", n, $2, $3, lp, gc
	if (lp > t)
		miss = miss sprintf("\n- %d sites: %.0f per site", n, lp)
	if (prev_n) {
		slope = (($3 - $2) - prev_d) / (n - prev_n)
		line = sprintf("%s\nFrom %d to %d sites: %.0f instructions" \
			" for each site added.", line, prev_n, n, slope)
	}
	prev_n = n
	prev_d = $3 - $2
}
END {
	printf "%s\n", line
	if (miss)
		printf "\nTarget of %d instructions per site not met:%s\n",
			t, miss
	else if (NR)
		printf "\nAt most %d instructions per site: met.\n", t
}' "$work/instructions"
exit "$failed"
