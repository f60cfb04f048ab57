#!/bin/sh
# warnings-corpus.sh - code that draws many warnings (-Wall -Wextra
# -Wconversion -Wsign-conversion), in C and in C++ templates instantiated
# several times, built plain and with `likelyprof cc` by gcc and clang, in
# the C locale and in German: stderr must be the plain build's line for
# line, and the objects instrumented.  Prints the warning counts.
. "$(dirname "$0")/lib.sh"

FLAGS="-O2 -Wall -Wextra -Wconversion -Wsign-conversion"
locales="C"
if locale -a 2>/dev/null | grep -qi '^de_DE\.utf-\?8$'; then
	locales="C de_DE.UTF-8"
else
	fail "no de_DE.UTF-8 locale (.ci/run generates it)"
fi
cd "$SCRATCH" || exit 1
for loc in $locales; do
	for cc in gcc clang; do
		for src in warn.c warn.cc; do
			case $src in
			*.cc) c=$(echo $cc | sed 's/gcc/g++/; s/clang/clang++/')
			      sub=c++ var=CXX ;;
			*) c=$cc sub=cc var=CC ;;
			esac
			f=$E2E_DIR/corpus/$src
			LC_ALL=$loc $c $FLAGS -c "$f" -o plain.o 2> plain.err ||
				fail "$c $src: the plain build failed"
			LC_ALL=$loc env $var=$c $LIKELYPROF $sub $FLAGS -c "$f" \
				-o lp.o 2> lp.err ||
				fail "$c $src ($loc): the instrumented build failed"
			nm lp.o | grep -q lp__unit_load ||
				fail "$c $src ($loc): not instrumented"
			n=$(grep -c -e 'warning:' -e 'Warnung:' plain.err)
			m=$(grep -c -e 'warning:' -e 'Warnung:' lp.err)
			[ "$n" -ge 10 ] || fail "$c $src ($loc): only $n warnings"
			cmp -s plain.err lp.err ||
				fail "$c $src ($loc): stderr differs: $(diff plain.err lp.err | head -5)"
			note "$c $src ($loc): $n warnings plain, $m instrumented," \
			     "$(wc -l < plain.err) / $(wc -l < lp.err) lines"
		done
	done
done
finish
