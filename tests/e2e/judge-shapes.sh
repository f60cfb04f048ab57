#!/bin/sh
# judge-shapes.sh - `likelyprof judge` calls no site exact that it reads
# backwards, on the code shapes of issue 30 (judge/shapes/), and finds
# every hint from another folder
#
# judge/shapes/shapes.c has an abort() error path and a call of a cold
# function, both of which gcc moves to a .cold part placed before the
# function (a backward jump into another symbol); a rare continue and a
# rare block placed above inside a loop (backward jumps that are no
# loop's condition); a && whose second part never runs; a hint in a cold
# function, whose guarded block gcc puts in the fall-through against the
# hint (read by the line table, not the layout); a hint that never runs;
# a hint in a header found through a relative -Iinclude; and extra.c,
# which no program links.  Each program is built plainly from
# its source folder with gcc and clang (-gdwarf-4 for valgrind 3.19) at
# -O2 and -O3, with a compilation database of relative paths, and judged
# from another folder.  Against an instrumented build of the same
# source it checks that:
#   - every exact site is within 2 points of the instrumented build's
#     percent wrong, its counts are the instrumented build's (the run is
#     the same), and check's verdict on it is the instrumented one's;
#   - no remove or flip comes from an ambiguous or unjudgeable site;
#   - every hint that ran is in the judged profile (the header's too),
#     the hint that never ran is exact with no evaluation ("never ran"),
#     and extra.c's hint is left out;
#   - with gcc the two .cold paths and the cold function's hint are exact
#     (not merely safe), and the && whose second part never ran is not;
#     so is a check of two parts in a decoder's loop that never held,
#     whose "return -1;" gcc merges into a block that gives the -1 the
#     loop head's line (read as a chain through that block); not where
#     a goto of another statement enters that block too;
#   - a && whose parts both ran, guarding a block with no jump of its
#     own, reads exactly as a chain of tests with both compilers;
#   - an error check whose "return -1;" the compiler merged with the
#     others reads exactly by where each side goes, with both compilers;
#   - the shapes after it (a continue, returns of two values, a goto, a
#     two-part loop condition, ...) are held to the first rule only:
#     exact where judge can tell, and then right;
#   - a loop's condition in an inline function inlined twice into one
#     caller (one copy never runs, the other's entry test falls through
#     into code of its own line) reads exactly, its copies summed, with
#     both compilers; a float compare (jp, then jne: one evaluation runs
#     both jumps) is no pair of copies, exact only as a chain of tests;
#   - an if in an inline function inlined into another inline one, whose
#     statement returns into that one's code (a join other paths enter,
#     no part of the statement), reads exactly with both compilers;
#   - an if whose statement calls an inline function with a loop, whose
#     last test jumps past the if (the statement ending, from the
#     callee's line), reads exactly with both compilers;
#   - a condition of two parts whose not-held side falls straight into
#     code inlined from a call after the if reads exactly as a chain with
#     both compilers (the call's line places that code); one whose second
#     part is a call of an inline function with tests of its own stays
#     ambiguous (code inlined from the condition is still the condition);
#   - an error check whose statement is "goto L;", L after the loop,
#     reads exactly by where each side goes first (past L, or on before
#     it) with both compilers, gcc placing L's code above; one whose
#     label the loop's own exit and a break reach too is not exact;
#   - a hint that is the first part of an if's condition, the rest a
#     call of an inline function with a loop (HINT && !(p = f(...))),
#     reads exactly by the side of its one jump that runs the callee's
#     code, with both compilers; one whose rest calls nothing is not
#     exact (no code says which jump is the hint's);
#   - an error check of two parts whose "return -1;" is merged with the
#     function's others reads exactly as a chain through that block,
#     with both compilers;
#   - a check of two parts that never held, whose statement does some
#     work before its continue and never ran, reads exactly as a chain
#     with both compilers; one whose statement is the continue alone
#     (which a test may jump past) stays ambiguous, and so does a check
#     of two parts whose second gcc computes with a cmov in the code
#     after the if (its line's one jump is the first part's);
#   - an if whose statement (a macro's, on its line) gcc moves to a
#     .cold part that jumps back to the code after the if from a line
#     of that code reads exactly with both compilers: the jump ends
#     runs of the hint's own side; not where a goto enters that
#     statement past its start;
#   - a hint after a call of a function that returns a constant
#     ("MEM_64bits() && UNLIKELY(x)") reads exactly as the whole
#     condition with both compilers; one after a call whose value the
#     run decides stays ambiguous;
#   - a hint after a parameter that every call passes a constant
#     ("check && unlikely(x)", its function inlined twice into one
#     caller, each copy with one jump of the line) reads exactly with
#     both compilers, the copies summed; one whose calls pass a value
#     the run decides stays ambiguous;
#   - a while's condition that clang tests before the loop and again at
#     its head, both jumps forwards, each falling straight into the
#     body, reads exactly with both compilers, the copies summed; one
#     that expects false stays ambiguous;
#   - an if in an inline function whose side runs on where its caller's
#     loop goes on, the call guarded by another hint's if whose side
#     that skips the call jumps there too, reads exactly with both
#     compilers; one whose guarding if has no hint (no lines say which
#     of its sides skips the call) stays ambiguous;
#   - a condition that is one call ("!f(a && b ? 3 : 1)"), whose
#     arguments' tests on its line all lead into the call (gcc copies
#     the call, one for each argument), reads exactly by the jump after
#     the call with both compilers; not where the call is inlined (no
#     call says which test is after it);
#   - a rare "return NULL;" in the loop of an inline function inlined
#     twice, which gcc sends into its caller's code placed above, reads
#     exactly with both compilers by its other side, which runs on in
#     that copy from the code after the if to a test (no return does);
#     one of two parts stays ambiguous; so in braces ("{ return
#     NULL; }" is the if's whole statement too);
#   - with gcc, such a return whose copy's other returns all jump to the
#     caller's code after the call too (zstd's ZSTD_decompressSequences_
#     body) reads exactly (a jmp of a return is the function leaving);
#     not where the caller tests the value and gcc threads the return
#     past that test (clang makes both a cmov: no jump to read);
#   - a rare block in a loop calling an inline function with a loop of
#     its own, the loop's test after it jumping to where the block's
#     other side goes, reads exactly with both compilers (every run of
#     that test came after the block); a test after a loop, which the
#     loop's entry test jumps past where the loop never ran (gcc by a
#     jump into its side, clang into a block it gives the line of the
#     if's statement, falling into that side), stays ambiguous;
#   - __builtin_expect_with_probability is found, its number kept (the
#     expect field is the instrumented record's, "1@0.9" and "?@0.2"),
#     and where exact it is restated as the instrumented build's is;
#   - --explain says why, once, for every site that is not exact, and
#     for no exact one.
. "$(dirname "$0")/lib.sh"

judge_setup
cp -R "$E2E_DIR/judge/shapes" "$SCRATCH/shapes"
cd "$SCRATCH" || exit 1
mkdir elsewhere
units="main.c shapes.c"

# sites PROFILE: "file:line correct incorrect sure", copies summed
sites() {
	awk -F'\t' '$1 == "site" {
		n = split($6, p, "/"); k = p[n] ":" $7
		c[k] += $2; i[k] += $3
		s = NF >= 11 && $11 != "" ? $11 : "measured"
		if (!(k in sure) || s != "exact") sure[k] = s
	} END { for (k in c) print k, c[k], i[k], sure[k] }' "$1" | sort
}
# shape_verdicts PROFILE: "file:line verdict" of every site check judges
shape_verdicts() {
	$LIKELYPROF check --all "$1" 2>/dev/null |
		sed -n 's|^\(.*/\)\{0,1\}\([^/:]*\):\([0-9]*\): .*\[likelyprof-\(.*\)\]$|\2:\3 \4|p' |
		sort -u
}

(cd shapes && $LIKELYPROF cc -O2 $(san_flags) -Iinclude $units -o ../inst) ||
	fail "instrumented build"
$LIKELYPROF run -o inst.lprof -- ./inst > /dev/null 2>&1 ||
	fail "instrumented run"
sites inst.lprof > inst.sites
shape_verdicts inst.lprof > inst.v
awk '$2 + $3 > 0 { print $1 }' inst.sites > ran

for cc in gcc clang; do
	command -v $cc > /dev/null 2>&1 || { note "no $cc"; continue; }
	g=-g
	[ $cc = clang ] && g=-gdwarf-4
	for level in -O2 -O3; do
		v=$cc$level
		(
			cd shapes &&
			$cc $level $g -Iinclude -c main.c -o main.o &&
			$cc $level $g -Iinclude -c shapes.c -o shapes.o &&
			$cc main.o shapes.o -o ../$v
		) || { fail "$v: build"; continue; }
		dir=$(cd shapes && pwd)
		# extra.c is built too, into nothing the program links;
		# first, so that the header's hint is seen in it first
		for u in extra.c main.c shapes.c; do
			printf '{"directory": "%s", "arguments": ["%s", "-Iinclude", "-c", "%s"], "file": "%s"}\n' \
				"$dir" $cc $u $u
		done | sed '1s/^/[/; $!s/$/,/; $s/$/]/' > shapes/compile_commands.json
		(cd elsewhere && $LIKELYPROF judge --explain --src ../shapes \
			-o ../$v.lprof -- ../$v > /dev/null 2> ../$v.err) ||
			{ fail "$v: judge: $(cat $v.err)"; continue; }
		sites $v.lprof > $v.sites
		shape_verdicts $v.lprof > $v.v
		join inst.sites $v.sites | awk -v v=$v '$7 == "exact" {
			a = $2 + $3 ? 100 * $3 / ($2 + $3) : 0
			b = $5 + $6 ? 100 * $6 / ($5 + $6) : 0
			if (a - b > 2 || b - a > 2)
				printf "  FAIL: %s: %s is exact at %.1f%% wrong, " \
				       "instrumented %.1f%%\n", v, $1, b, a
		}' > bad
		[ -s bad ] && { cat bad; FAILED=1; }
		off=$(join inst.sites $v.sites |
			awk '$7 == "exact" && ($2 != $5 || $3 != $6) { print $1 }')
		[ -z "$off" ] ||
			fail "$v: exact sites whose counts are not the instrumented build's: $off"
		for site in $(awk '$4 == "exact" { print $1 }' $v.sites); do
			want=$(grep "^$site " inst.v)
			got=$(grep "^$site " $v.v)
			[ "$want" = "$got" ] ||
				fail "$v: $site judged '$got', instrumented '$want'"
		done
		unsure=$(awk '$4 != "exact" { print $1 }' $v.sites |
			join - $v.v | awk '$2 == "remove" || $2 == "flip"')
		[ -z "$unsure" ] || fail "$v: a change from an unsure site: $unsure"
		missing=$(join -v 1 ran $v.sites | tr '\n' ' ')
		[ -z "$missing" ] || fail "$v: hints that ran are missing: $missing"
		grep -q '^shapes\.h:[0-9]* ' $v.sites ||
			fail "$v: the header's hint is missing"
		[ "$(grep '^shapes\.c:83 ' $v.sites)" = "shapes.c:83 0 0 exact" ] ||
			fail "$v: the hint that never ran: $(grep '^shapes\.c:83 ' $v.sites)"
		grep -q '^shapes\.c:83 never' $v.v ||
			fail "$v: check does not say line 83 never ran"
		! grep -q '^extra\.c:' $v.sites ||
			fail "$v: extra.c, not in the binary, is in the profile"
		for e in '1@0.9' '?@0.2'; do
			awk -F'\t' -v e="$e" '$5 == e' $v.lprof | grep -q . ||
				fail "$v: no stated probability $e in the profile"
		done
		# LINE WHAT: the shapes judge must read exactly
		while read -r line what; do
			grep -q "^shapes\.c:$line .* exact\$" $v.sites ||
				fail "$v: $what is not exact"
		done <<'EXACT'
111 the chain of two tests
132 the check with a merged return
248 the loop inlined twice into one caller
293 the if whose statement returns into a join
342 the if whose statement's inlined loop ends past it
368 the chain whose side falls into an inlined call
213 the goto out of a loop
452 the first part of an && whose rest calls an inline function
517 the check of two parts with a merged return
544 the check of two parts that never held, its statement never run
628 the macro's if whose cold statement jumps back from the next line
689 the hint after a call of a function returning a constant
718 the hint after a parameter every call passes a constant
760 the while's condition tested before the loop and at its head
844 the inline if whose side meets a hinted if's side that skips its call
897 the condition that is one call, its arguments tested before it
940 the rare return in an inlined loop, its other side running on
970 the same in braces, "{ return NULL; }"
1153 the rare block whose loop's test, after its callee's, jumps back
EXACT
		# and those it must not call exact
		while read -r line what; do
			! grep -q "^shapes\.c:$line .* exact\$" $v.sites ||
				fail "$v: $what is exact"
		done <<'UNSURE'
397 the chain with a callee in its condition
417 the goto to a label other jumps reach
499 the first part of an && whose rest calls nothing
566 the check that never held whose statement is a continue alone
585 the check whose second part gcc computes with a cmov after the if
643 the if whose cold statement a goto enters past its start
694 the hint after a call whose value the run decides
729 the hint after a parameter a call passes a value of the run
801 the check of two parts whose merged return a goto enters too
821 the while's condition that expects false, tested twice
851 the inline if whose side meets an unhinted if's side that skips it
912 the condition that is one inlined call, its arguments tested
955 the rare return of two parts in an inlined loop
1100 the rare return whose caller's test of the value gcc threads past
1180 the test after a loop that a test before the loop jumps past
UNSURE
		sed -n 's|^likelyprof: note: \(.*/\)\{0,1\}\([^/]*:[0-9]*\): \([a-z]*\): .*|\2 \3|p' \
			$v.err | sort > explained
		awk '$4 == "ambiguous" || $4 == "unjudgeable" { print $1, $4 }' \
			$v.sites > unsure
		[ "$(cat explained)" = "$(cat unsure)" ] ||
			fail "$v: --explain said '$(tr '\n' ' ' < explained)' of the unsure sites '$(tr '\n' ' ' < unsure)'"
		if [ $cc = gcc ]; then
			for site in shapes.c:26 shapes.c:31 shapes.c:93 \
				shapes.c:764 shapes.c:1074; do
				grep -q "^$site .* exact$" $v.sites ||
					fail "$v: $site is not exact"
			done
			! grep -q '^shapes\.c:74 .* exact$' $v.sites ||
				fail "$v: the && whose second part never ran is exact"
		fi
	done
done
finish
