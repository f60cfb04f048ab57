#!/bin/sh
# fix-names.sh - fix places every verdict whose function name the source
# does not spell plainly
#
# tests/data/fix/names holds two small libraries.  c/: functions named
# through a PREFIX(name) macro (zng_adler), a template header included
# twice after "#define MATCH_FN match_slow_avx2" (and _sse2), attribute
# macros between the parameters and the body.  cxx/: nested and
# anonymous namespaces, members defined in the class (constructor with
# initialisers, destructor, operator==) and out of line (A::B::f), a
# template instantiated twice (g++ names it clamp<int>, clang clamp), a
# lambda (the profile says operator()).  Each is built with every
# compiler at hand and run; its profile's verdicts go to fix twice: on
# the tree as built, and on a copy whose every file has four lines more
# at its top (the profile is older than the tree).  Checks:
#   - check's verdicts are all placed: fix refuses none;
#   - the series applies with git am and its -/+ lines are exactly those
#     of expected.changes;
#   - the result still builds with -Wall -Werror;
#   - then check --src on the same profile warns of nothing and says the
#     profile is older than the tree, and fix has nothing more to do.
. "$(dirname "$0")/lib.sh"

DATA="$ROOT/tests/data/fix/names"
GIT="git -c user.name=t -c user.email=t@example.com"

# tree LANG DIR [drift]: a git tree of DATA/LANG in DIR
tree() {
	mkdir -p "$2"
	cp "$DATA/$1"/* "$2/"
	if [ -n "${3:-}" ]; then
		for f in "$2"/*; do
			{ printf '/*\n * a newer header comment\n */\n\n'
			  cat "$f"; } > "$f.new" && mv "$f.new" "$f"
		done
	fi
	(cd "$2" && git init -q && git add -A && $GIT commit -q -m import)
}

# one LANG DRIVER SRCS: build, run, fix, apply, compare
one() {
	lang=$1 cc=$2
	shift 2
	w="$SCRATCH/$lang-$cc"
	tree "$lang" "$w/build"
	(cd "$w/build" && "$LIKELYPROF" "$cc" -O2 $(san_flags) -o prog "$@" &&
	 LIKELYPROF_FILE="$w/p.lprof" ./prog) > "$w/build.out" 2>&1 ||
		{ fail "$lang/$cc: build or run: $(cat "$w/build.out")"; return; }
	nwarn=$("$LIKELYPROF" check "$w/p.lprof" 2>/dev/null | grep -c warning)
	for drift in "" drift; do
		d="$w/tree$drift"
		tree "$lang" "$d" $drift
		SOURCE_DATE_EPOCH=0 "$LIKELYPROF" fix --src "$d" "$w/p.lprof" \
			> "$w/fix$drift.mbox" 2> "$w/fix$drift.err" ||
			fail "$lang/$cc $drift: fix exited $?"
		if grep -q 'not changed' "$w/fix$drift.err"; then
			fail "$lang/$cc $drift: sites refused:"
			sed 's/^/    /' "$w/fix$drift.err"
		fi
		(cd "$d" && $GIT am -q "$w/fix$drift.mbox") > "$w/am.out" 2>&1 ||
			fail "$lang/$cc $drift: git am: $(cat "$w/am.out")"
		(cd "$d" && git diff "$(git rev-list --max-parents=0 HEAD)" HEAD) |
			awk '/^[-+]/ && !/^(---|\+\+\+) /' > "$w/changes$drift"
		awk -v l="$lang:" '$0 == l { on = 1; next } /^[a-z]+:$/ { on = 0 }
			on' "$DATA/expected.changes" > "$w/expected"
		if ! cmp -s "$w/expected" "$w/changes$drift"; then
			fail "$lang/$cc $drift: not the expected changes:"
			diff "$w/expected" "$w/changes$drift" | sed 's/^/    /'
		fi
		(cd "$d" && "$cc" -Wall -Werror -fsyntax-only "$@") \
			> "$w/cc.out" 2>&1 ||
			fail "$lang/$cc $drift: the result does not build"
		# the series is in: the same profile has nothing left to say
		"$LIKELYPROF" check --src "$d" "$w/p.lprof" > "$w/check.out" \
			2> "$w/check.err" ||
			fail "$lang/$cc $drift: check after the series exited $?"
		grep -q warning "$w/check.out" &&
			fail "$lang/$cc $drift: check still warns: $(cat "$w/check.out")"
		grep -q "the profile is older than the tree: $nwarn sites changed since, by " \
			"$w/check.err" ||
			fail "$lang/$cc $drift: check does not say the profile is older: $(cat "$w/check.err")"
		"$LIKELYPROF" fix --src "$d" "$w/p.lprof" > "$w/again.mbox" \
			2> "$w/again.err"
		[ -s "$w/again.mbox" ] &&
			fail "$lang/$cc $drift: a second fix changes more"
	done
	note "$lang/$cc: $nwarn verdicts, $(($(wc -l < "$w/changes") / 2)) lines changed, $(($(wc -l < "$w/changesdrift") / 2)) after a drift"
}

for cc in ${LP_E2E_COMPILERS:-gcc clang}; do
	command -v "$cc" > /dev/null || continue
	one c "$cc" lib.c main.c
done
for cxx in ${LP_E2E_CXX:-g++ clang++}; do
	command -v "$cxx" > /dev/null || continue
	one cxx "$cxx" codec.cc
done
finish
