#!/bin/sh
# judge.sh - what `likelyprof judge` sees of an unmodified binary, against
# the exact counts of an instrumented build of the same source: for each
# program, compiler and optimisation level, the hinted lines that ran,
# how many judge judged and how sure, how many exact counts equal the
# instrumented build's, how many exact sites are more than 2 points off
# its percent wrong (read backwards: must be 0), how many check verdicts
# agree, that no verdict comes from an unsure site, and what the run
# under valgrind costs; then, from one more run under valgrind alone,
# what judge's own work costs beside it (judge --callgrind on what that
# run wrote).  judge runs outside the source folder.
#
# Programs: bench/workload (tokenizer, hash table, LZ coder); the demo's
# logstat (error paths that gcc moves to .cold parts); the shapes of
# tests/e2e/judge/shapes (a .cold abort, rare continues and blocks inside
# loops, a cold function); libev driven by bench/judge-libev.c (select,
# poll and epoll backends); and lz4 and zstd.  libev, lz4 and zstd are
# the upstream tarballs of Debian's source packages fetched through
# tests/real/lib.sh (kept in BENCH_REAL_DIR).  Each is built plainly with
# -g (clang: -gdwarf-4, which valgrind 3.19 reads) and with likelyprof cc,
# same flags; the plain build's compile_commands.json (made by bear, when
# there is one) tells judge how each file was preprocessed.
#
# Knobs: BENCH_JUDGE_LEVELS="-O2 -O3", BENCH_JUDGE_PROGRAMS="workload lz4
# zstd", BENCH_REAL_DIR=build/real.
. "$(dirname "$0")/lib.sh"
: "${BENCH_JUDGE_LEVELS:=-O2 -O3}"
: "${BENCH_JUDGE_PROGRAMS:=workload logstat shapes libev lz4 zstd}"
: "${BENCH_REAL_DIR:=$root/build/real}"

work=$BENCH_BUILD/judge
failed=0
rm -rf "$work"
mkdir -p "$work" || exit 1

if ! [ -x "${LIKELYPROF:-}" ]; then
	echo "Not measured: judge needs the command (make)."
	exit 0
fi
for tool in valgrind objdump readelf; do
	if ! have $tool; then
		echo "Not measured: no \`$tool\`."
		exit 0
	fi
done

# tree PROGRAM DIR: the program's sources in DIR
tree() {
	mkdir -p "$2" || return 1
	case $1 in
	workload) cp "$here/workload/"*.c "$here/workload/"*.h "$2/" ;;
	logstat) cp "$root/examples/logstat/"* "$2/" ;;
	shapes) cp -R "$root/tests/e2e/judge/shapes/." "$2/" ;;
	libev)
		t=$(real_src libev "$work/fetch-libev.log") && [ -n "$t" ] &&
			tar -xf "$t" -C "$2" --strip-components=1 &&
			cp "$here/judge-libev.c" "$2/" &&
			(cd "$2" && ./configure -q >/dev/null 2>&1) ;;
	lz4 | zstd)
		p=$([ "$1" = zstd ] && echo libzstd || echo lz4)
		t=$(real_src "$p" "$work/fetch-$p.log") &&
			[ -n "$t" ] &&
			tar -xf "$t" -C "$2" --strip-components=1 ;;
	esac
}

# The build, a script of its own so that bear can run it:
# build.sh PROGRAM DIR CC CFLAGS
cat >"$work/build.sh" <<'EOF'
case $1 in
workload) cd "$2" && $3 $4 -pthread *.c -o workload ;;
logstat) cd "$2" && $3 $4 -pthread main.c gen.c parse.c stats.c -o logstat ;;
shapes) cd "$2" && $3 $4 -Iinclude main.c shapes.c -o shapes ;;
libev) cd "$2" && $3 $4 -DHAVE_CONFIG_H -I. -w ev.c judge-libev.c -o evload -lm ;;
lz4) make -C "$2/programs" -j2 CC="$3" CFLAGS="$4" lz4 ;;
zstd) make -C "$2/programs" -j2 CC="$3" CFLAGS="$4" HAVE_ZLIB=0 \
	HAVE_LZMA=0 HAVE_LZ4=0 zstd ;;
esac
EOF
binary_of() {
	case $1 in
	workload | logstat | shapes) echo "$2/$1" ;;
	libev) echo "$2/evload" ;;
	*) echo "$2/programs/$1" ;;
	esac
}

# build PROGRAM DIR CC CFLAGS LOG, with its compilation database in DIR
# when bear is there
build() {
	if have bear; then
		bear --output "$2/compile_commands.json" -- \
			sh "$work/build.sh" "$1" "$2" "$3" "$4" >"$5" 2>&1
	else
		sh "$work/build.sh" "$1" "$2" "$3" "$4" >"$5" 2>&1
	fi
}

# A small workload: valgrind runs it tens of times slower.
cat >"$work/input.sh" <<'EOF'
# the input: text of the project's own sources, about 256 KiB
cat "$1"/*.c "$1"/*/*.c "$1"/*/*/*.c 2>/dev/null | head -c 262144
EOF
workload_of() {
	case $1 in
	workload) echo "\"$2\" 1 64 2" ;;
	logstat) echo "\"$2\" 2" ;;
	shapes) echo "\"$2\"" ;;
	libev) echo "for b in 1 2 4; do \"$2\" \$b || exit 1; done" ;;
	lz4) echo "for l in -1 -9; do \"$2\" \$l -c in | \"$2\" -d -c > out; cmp in out || exit 1; done" ;;
	zstd) echo "for l in -1 -3 -19; do \"$2\" \$l -q -c in | \"$2\" -d -q -c > out; cmp in out || exit 1; done" ;;
	esac
}

# own_work SRC CMD: the run of CMD under valgrind alone, as judge runs it,
# into ./cg, then judge on what it wrote (the program not run again):
# "VALGRIND OWN" in seconds on stdout, judge's messages in own.err.
own_work() {
	rm -rf cg && mkdir cg || return 1
	ow_a=$(date +%s.%N)
	valgrind --tool=callgrind --collect-jumps=yes --dump-instr=yes \
		--trace-children=yes --quiet \
		--callgrind-out-file="$PWD/cg/callgrind.%p" -- sh -c "$2" \
		>/dev/null 2>&1 || return 1
	ow_b=$(date +%s.%N)
	ow_src=$1
	set --
	for ow_f in cg/callgrind.*; do
		set -- "$@" --callgrind "$ow_f"
	done
	"$LIKELYPROF" judge --src "$ow_src" -o own.lprof "$@" >/dev/null \
		2>own.err || return 1
	ow_c=$(date +%s.%N)
	awk -v a="$ow_a" -v b="$ow_b" -v c="$ow_c" \
		'BEGIN { print b - a, c - b }'
}

# verdicts PROFILE: "file:line verdict" of every site check judges
verdicts() {
	"$LIKELYPROF" check --all "$1" 2>/dev/null |
		sed -n 's|^\(.*/\)\{0,1\}\([^/:]*\):\([0-9]*\): .*\[likelyprof-\(.*\)\]$|\2:\3 \4|p' |
		sort -u
}

# sites PROFILE: "file:line correct incorrect sure" per line (copies of a
# line summed, the least sure kept)
sites() {
	awk -F'\t' '$1 == "site" {
		n = split($6, p, "/"); k = p[n] ":" $7
		c[k] += $2; i[k] += $3
		s = NF >= 11 && $11 != "" ? $11 : "measured"
		if (!(k in sure) || s != "exact") sure[k] = s
	} END { for (k in c) print k, c[k], i[k], sure[k] }' "$1" | sort
}

# own_table: what judge costs beside the run under valgrind, from the
# rows own_work() gathered in $work/own
own_table() {
	[ -s "$work/own" ] || return 0
	echo
	echo "### What judge costs"
	echo
	echo "Judge's own work is all it does but run the program: preprocess"
	echo "the sources, disassemble, read callgrind's output, decide. Each"
	echo "program above is run once more under valgrind alone (the options"
	echo "judge gives it), and judge then reads what that wrote"
	echo "(\`judge --callgrind FILE\`...): the program is not run again. Wall"
	echo "clock in seconds; *own / valgrind* is judge's own work over the run"
	echo "under valgrind alone, which it should not exceed."
	echo
	echo "| program | compiler | level | plain | valgrind alone | judge's own work | own / valgrind |"
	echo "|---|---|---|---:|---:|---:|---:|"
	awk '{ printf "| %s | %s | %s | %.2f | %.2f | %.2f | %.2f |\n",
		$1, $2, $3, $5 - $4, $6, $7, ($6 > 0 ? $7 / $6 : 0) }' "$work/own"
	over=$(awk '$7 > $6 {
		printf "%s%s %s %s", n++ ? ", " : "", $1, $2, $3 }' "$work/own")
	echo
	if [ -n "$over" ]; then
		echo "Judge's own work is longer than the run under valgrind" \
			"alone on: $over."
	else
		echo "Judge's own work is at most the run under valgrind alone" \
			"on every row."
	fi
}

echo "Every program below is built twice from the same source: plainly"
echo "(\`-g\`; clang \`-gdwarf-4\`) and judged under valgrind, and with"
echo "\`likelyprof cc\` and run, whose counts are exact. A *hinted line that"
echo "ran* is one the instrumented build counted; *exact*, *ambiguous* and"
echo "*unjudgeable* say how sure judge was of it; *counts equal* are exact"
echo "ones whose correct and incorrect equal the instrumented build's;"
echo "*backwards* are exact ones more than 2 points off the instrumented"
echo "build's percent wrong (must be 0); *coverage* is exact over ran;"
echo "*verdicts agree* compares \`check\` on both, over the exact sites;"
echo "*from unsure* counts remove or flip verdicts on ambiguous or"
echo "unjudgeable sites (must be 0). judge runs outside the source folder."
echo "Time is the wall clock of the plain run, then of judge's (the run"
echo "under valgrind, the disassembly and the preprocessing)."
echo
echo "| program | compiler | level | hinted lines that ran | exact | ambiguous | unjudgeable | coverage | counts equal | backwards | verdicts agree | from unsure | time (s): plain, judge |"
echo "|---|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|"

for prog in $BENCH_JUDGE_PROGRAMS; do
	src=$work/$prog/src
	if ! tree "$prog" "$src" >"$work/$prog.tree.log" 2>&1; then
		echo "| $prog | | | not measured: cannot fetch its sources | | | | | | | | | |"
		continue
	fi
	sh "$work/input.sh" "$src" >"$work/$prog.in"
	for cc in $BENCH_GCC $BENCH_CLANG; do
		have "$cc" || continue
		g=-g
		[ "$cc" = "$BENCH_CLANG" ] && g=-gdwarf-4
		for level in $BENCH_JUDGE_LEVELS; do
			v=$work/$prog/$cc$level
			say "judge: $prog, $cc $level"
			rm -rf "$v" && mkdir -p "$v" &&
				cp -R "$src" "$v/plain" && cp -R "$src" "$v/inst" ||
				{ fail "$prog: copies"; continue; }
			cp "$work/$prog.in" "$v/in"
			build "$prog" "$v/plain" "$cc" "$level $g" "$v/plain.log"
			build "$prog" "$v/inst" "$LIKELYPROF cc" "$level $g" \
				"$v/inst.log"
			rm -f "$v/inst/compile_commands.json"
			plain=$(binary_of "$prog" "$v/plain")
			inst=$(binary_of "$prog" "$v/inst")
			if ! [ -x "$plain" ] || ! [ -x "$inst" ]; then
				fail "$prog, $cc $level: build (see $v/*.log)"
				continue
			fi
			cd "$v" || continue
			wl_plain=$(workload_of "$prog" "$plain")
			wl_inst=$(workload_of "$prog" "$inst")
			t0=$(date +%s.%N)
			sh -c "$wl_plain" >/dev/null 2>&1 || fail "$prog: plain run"
			t1=$(date +%s.%N)
			"$LIKELYPROF" judge --src "$v/plain" -o judged.lprof \
				-- sh -c "$wl_plain" >/dev/null 2>judge.err ||
				fail "$prog, $cc $level: judge (see $v/judge.err)"
			t2=$(date +%s.%N)
			"$LIKELYPROF" run -o inst.lprof -- sh -c "$wl_inst" \
				>/dev/null 2>run.err || fail "$prog: instrumented run"
			sites inst.lprof >inst.sites
			sites judged.lprof >judged.sites
			verdicts inst.lprof >inst.v
			verdicts judged.lprof >judged.v
			# ran: instrumented lines with evaluations
			awk '$2 + $3 > 0' inst.sites >ran
			join ran judged.sites >both
			ran_n=$(wc -l <ran)
			exact_n=$(awk '$7 == "exact"' both | wc -l)
			amb_n=$(awk '$7 == "ambiguous"' both | wc -l)
			unj_n=$(awk '$7 == "unjudgeable"' both | wc -l)
			equal_n=$(awk '$7 == "exact" && $2 == $5 && $3 == $6' both | wc -l)
			back_n=$(awk '$7 == "exact" {
				a = 100 * $3 / ($2 + $3)
				b = $5 + $6 ? 100 * $6 / ($5 + $6) : -100
				if (a - b > 2 || b - a > 2) n++
			} END { print n + 0 }' both)
			[ "$back_n" = 0 ] ||
				fail "$prog, $cc $level: $back_n exact sites read backwards"
			cover=$(awk -v e="$exact_n" -v r="$ran_n" \
				'BEGIN { printf "%.0f%%", r ? 100 * e / r : 0 }')
			awk '$7 == "exact" { print $1 }' both >exact.lines
			join exact.lines inst.v >inst.ev
			join exact.lines judged.v >judged.ev
			agree_n=$(join inst.ev judged.ev | awk '$2 == $3' | wc -l)
			verdict_n=$(join inst.ev judged.ev | wc -l)
			unsure_n=$(awk '$5 == "ambiguous" || $5 == "unjudgeable" {
				print $1 }' judged.sites | join - judged.v |
				awk '$2 == "remove" || $2 == "flip"' | wc -l)
			[ "$unsure_n" = 0 ] ||
				fail "$prog, $cc $level: $unsure_n verdicts from unsure sites"
			cost=$(awk -v a="$t0" -v b="$t1" -v c="$t2" \
				'BEGIN { printf "%.2f, %.1f", b - a, c - b }')
			if own=$(own_work "$v/plain" "$wl_plain"); then
				echo "$prog $cc $level $t0 $t1 $own" >>"$work/own"
			else
				fail "$prog, $cc $level: valgrind alone," \
					"or judge on its output (see $v/own.err)"
			fi
			echo "| $prog | $cc | $level | $ran_n | $exact_n | $amb_n | $unj_n | $cover | $equal_n | $back_n | $agree_n of $verdict_n | $unsure_n | $cost |"
			cd "$work" || exit 1
		done
	done
done
echo
echo "Where judge cannot tell which way a jump reads or whether it saw every"
echo "evaluation, it says ambiguous: the coverage is what that costs. Counts"
echo "are not equal, with the percent still right, where the compiler folded"
echo "the test on the common path (libev's fd_reify), leaving the jump to"
echo "the other paths; doc/likelyprof-judge.md says what judge cannot see."
own_table
exit $failed
