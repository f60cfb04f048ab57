#!/bin/sh
# all-branches.sh - the all-branches mode (-DLIKELYPROF_ALL_BRANCHES, the
# kernel's CONFIG_PROFILE_ALL_BRANCHES): every if of a program is a site
# with expect "if", counted exactly (correct = false, incorrect = true, as
# branch_all overlays them), its condition evaluated once, with the
# program's output unchanged and no new warning, by gcc and clang from
# gnu89 to c17 at -O0 and -O2; an if the optimiser folds is counted as
# constant and by its value.  The program counts its branches itself
# (all-branches/main.c); report prints the branch_all table after the
# annotated one.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/all-branches
WARN="-Wall -Wextra -Wshadow -pedantic -Werror"
SAN=$(san_flags)
N=100003

# if_counts PROFILE FILE UNIT COND -> "correct incorrect" of the if sites
# of FILE (and UNIT, if not empty) whose condition holds COND, or
# "missing"; "several" when more than one site matches.
if_counts() {
	awk -F'\t' -v file="$2" -v unit="$3" -v cond="$4" '
		{ f = $6; sub(/^\.\//, "", f) }
		$1 == "site" && $5 == "if" && f == file &&
		(unit == "" || $9 == unit) && index($10, cond) {
			c = $2; i = $3; n++
		}
		END {
			if (n == 1) print c, i
			else if (n) print "several"
			else print "missing"
		}' "$1"
}

configs=0
for cc in ${LP_E2E_COMPILERS:-gcc clang}; do
	command -v $cc >/dev/null || continue
	for std in gnu89 c99 gnu11 c17; do
		for opt in -O0 -O2; do
			configs=$((configs + 1))
			d=$SCRATCH/$configs
			mkdir -p "$d"
			flags="-std=$std $opt $WARN $SAN"
			(cd "$SRC" && $cc $flags main.c other.c -o "$d/plain") \
				2> "$d/plain.err" ||
				{ note "skip $cc $flags: $(head -n 3 "$d/plain.err")"; continue; }
			if ! (cd "$SRC" && CC=$cc $LIKELYPROF cc $flags \
			      -DLIKELYPROF_ALL_BRANCHES main.c other.c \
			      -o "$d/lp") 2> "$d/lp.err"; then
				fail "$cc $flags: build failed: $(head -n 5 "$d/lp.err")"
				continue
			fi
			"$d/plain" $N > "$d/plain.out"
			LIKELYPROF_FILE=$d/p.lprof "$d/lp" $N > "$d/lp.out" ||
				{ fail "$cc $flags: exited $?"; continue; }
			cmp -s "$d/plain.out" "$d/lp.out" ||
				{ fail "$cc $flags: output differs"; continue; }
			# "NAME true false" lines -> FILE UNIT COND of its if
			while read -r name t f; do
				case $name in
				mod3) w="main.c main.c (i % 3 == 0)" ;;
				comma) w="main.c main.c (side(&calls, i), i % 5 == 1)" ;;
				else) w="main.c main.c (i % 5 == 2)" ;;
				ptr) w="main.c main.c ((buf = " ;;
				hint) w="main.c main.c i < n / 2" ;;
				macro) w="main.c main.c ((i) < 10)" ;;
				even_main) w="branches.h main.c (v % 2 == 0)" ;;
				even_other) w="branches.h other.c (v % 2 == 0)" ;;
				nested) w="main.c main.c (i % 10 == 1)" ;;
				folded) w="main.c main.c (little_endian())" ;;
				*) continue ;;
				esac
				set -- $w
				file=$1 unit=$2
				shift 2
				got=$(if_counts "$d/p.lprof" "$file" "$unit" "$*")
				# correct counts false, incorrect true
				[ "$got" = "$f $t" ] ||
					fail "$cc $flags: if $name ($*): profile has '$got', the program counted '$f $t'"
			done < "$d/lp.out"
			# the hint inside the if is its own site, expect 1
			hint=$(awk -F'\t' '$1 == "site" && $5 == "1" &&
				index($10, "i < n / 2") { print $2 + $3 }' "$d/p.lprof")
			[ "$hint" = $N ] ||
				fail "$cc $flags: the likely() in an if counted '$hint', not $N"
			# 10 ifs in main.c, one per unit in branches.h; sizeof()
			# < 4 is a constant expression, not a site
			nif=$(awk -F'\t' '$1 == "site" && $5 == "if" &&
				$6 ~ /(main\.c|branches\.h)$/' "$d/p.lprof" | wc -l)
			[ "$nif" -eq 12 ] ||
				fail "$cc $flags: $nif if sites, not 12"
			grep -q 'sizeof' "$d/p.lprof" &&
				fail "$cc $flags: a constant expression was profiled"
		done
	done
done
[ $configs -gt 0 ] || fail "no compiler"

# report: the annotated table, a blank line, then branch_all's
if [ -f "$SCRATCH/2/p.lprof" ]; then
	"$LIKELYPROF" report "$SCRATCH/2/p.lprof" > "$SCRATCH/report" ||
		fail "report exited $?"
	awk 'NR == 1 && !/^ correct incorrect  %/ { print "line 1: " $0; bad = 1 }
	     NR == 3 && !/ main\.c / { print "line 3: " $0; bad = 1 }
	     NR == 4 && $0 != "" { print "line 4 not blank"; bad = 1 }
	     NR == 5 && !/^   miss      hit    %/ { print "line 5: " $0; bad = 1 }
	     END { exit bad }' "$SCRATCH/report" ||
		fail "report layout: $(head -n 6 "$SCRATCH/report")"
	rows=$(awk 'NR > 6' "$SCRATCH/report" | wc -l)
	sites=$(awk -F'\t' '$1 == "site" && $5 == "if"' "$SCRATCH/2/p.lprof" | wc -l)
	[ "$rows" -eq "$sites" ] ||
		fail "report: $rows branch_all rows for $sites if sites"
fi
note "$configs configurations"
finish
