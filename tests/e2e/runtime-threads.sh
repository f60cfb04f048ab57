#!/bin/sh
# runtime-threads.sh - a program of several files, a shared library and a
# dlopen()ed module that it dlclose()s before exit, run with 8 threads,
# each evaluating shared sites 10 million times: the profile's counts must
# equal the counts the program keeps by itself, for gcc and clang builds,
# and sites that never ran must be listed with zero counts.
. "$(dirname "$0")/lib.sh"

SRC=$E2E_DIR/runtime
# ThreadSanitizer runs about 20 times slower; fewer iterations, same checks.
if [ "$LP_SANITIZE" = thread ]; then
	ITER=200000
else
	ITER=10000000
fi
export ITERATIONS=$ITER

# tally id -> file function unit cond-prefix
SITES='0 main.c worker main.c !!(i<
1 main.c worker main.c !!(i%
2 hints.h is_multiple main.c -
3 hints.h is_multiple other.c -
4 other.c other_work other.c (i
5 other.c other_work other.c ((i
6 other.c other_work other.c !!(i%
7 lib.c lib_work lib.c -
8 plugin.c plugin_work plugin.c -'

compilers=${LP_E2E_COMPILERS:-gcc clang}
for cc in $compilers; do
	command -v "$cc" >/dev/null || { note "skip $cc: not installed"; continue; }
	out=$SCRATCH/$cc
	mkdir -p "$out"
	flags="-O2 -Wall -Wextra -Werror $(san_flags)"
	(
		cd "$SRC" &&
		CC=$cc $LIKELYPROF cc $flags -fPIC -shared lib.c -o "$out/libwork.so" &&
		CC=$cc $LIKELYPROF cc $flags -fPIC -shared plugin.c -o "$out/plugin.so" &&
		CC=$cc $LIKELYPROF cc $flags main.c other.c -o "$out/prog" \
			-L"$out" -lwork -Wl,-rpath,"$out"
	) || { fail "$cc: build failed"; continue; }

	LIKELYPROF_FILE=$out/prog.lprof "$out/prog" 8 "$out/plugin.so" \
		> "$out/tally" || { fail "$cc: program failed"; continue; }
	[ -f "$out/prog.lprof" ] || { fail "$cc: no profile written"; continue; }

	echo "$SITES" | while read -r id file fn unit cond; do
		[ "$cond" = - ] && cond=
		# the profile keeps spaces; the table above drops them
		got=$(awk -F'\t' -v file="$file" -v fn="$fn" -v unit="$unit" \
		    -v cond="$cond" '
			# clang spells an included header "./hints.h"
			{ f = $6; sub(/^\.\//, "", f) }
			$1 == "site" && f == file && $8 == fn && $9 == unit {
				c = $10; gsub(/ /, "", c)
				if (cond != "" && index(c, cond) != 1) next
				sc += $2; si += $3; n++
			}
			END { if (n == 1) print sc, si; else print "rows=" n }' \
		    "$out/prog.lprof")
		want=$(awk -v id="$id" '$1 == id { print $2, $3 }' "$out/tally")
		if [ "$got" != "$want" ]; then
			echo "  FAIL: $cc: site $id ($file $fn $cond): profile '$got', program '$want'"
			echo x >> "$out/failed"
		fi
	done
	[ -f "$out/failed" ] && FAILED=1

	# compiled in, never run: present, at zero
	for pair in "other.c never_called" "plugin.c plugin_never"; do
		set -- $pair
		got=$(site_counts "$out/prog.lprof" "$1" "$2")
		[ "$got" = "0 0" ] || fail "$cc: never-run site $2 is '$got', want '0 0'"
	done
	total=$(awk -F'\t' '$1 == "site" { n++ } END { print n + 0 }' "$out/prog.lprof")
	[ "$total" = 11 ] || fail "$cc: $total sites in the profile, want 11"
	end=$(awk -F'\t' '$1 == "end" { print $2 }' "$out/prog.lprof")
	[ "$end" = "$total" ] || fail "$cc: end record says $end, profile has $total"
done
finish
