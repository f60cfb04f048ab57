#!/bin/sh
# fix-realistic.sh - fix on a small library that looks like real code
#
# tests/data/fix/realistic holds a hash table in C with the project's own
# spellings (LIKELY, tbl_unlikely, defined through __builtin_expect in a
# header), an annotation inside a macro used at two call sites that the
# profile judges differently, "likely(" in comments, strings and an #if 0
# block, a condition over two lines and a CRLF file.  Its profile came
# from a build on another machine (absolute paths) of an older version:
# every line of table.c has moved by five since.  Checks:
#   - the series applies with git am and the result compiles;
#   - its -/+ lines are exactly expected.changes (the seeds' rules);
#   - the macro whose uses disagree is refused, with its reason;
#   - --apply writes the same bytes as git am, and nothing else changes.
. "$(dirname "$0")/lib.sh"

DATA="$ROOT/tests/data/fix/realistic"
CC=${LP_TEST_CC:-cc}
GIT="git -c user.name=t -c user.email=t@example.com"

make_tree() {
	mkdir -p "$1"
	cp -R "$DATA/src" "$DATA/include" "$1/"
	(cd "$1" && git init -q && git add -A && $GIT commit -q -m import)
}

make_tree "$SCRATCH/am"
SOURCE_DATE_EPOCH=0 "$LIKELYPROF" fix --src "$SCRATCH/am" \
	"$DATA/table.lprof" > "$SCRATCH/series.mbox" 2> "$SCRATCH/fix.err" ||
	fail "fix exited $?: $(cat "$SCRATCH/fix.err")"
(cd "$SCRATCH/am" && $GIT am -q "$SCRATCH/series.mbox") \
	> "$SCRATCH/am.out" 2>&1 || fail "git am: $(cat "$SCRATCH/am.out")"
(cd "$SCRATCH/am" && git diff "$(git rev-list --max-parents=0 HEAD)" HEAD) |
	awk '/^[-+]/ && !/^(---|\+\+\+) /' > "$SCRATCH/changes"
if ! cmp -s "$DATA/expected.changes" "$SCRATCH/changes"; then
	fail "the changed lines are not the expected ones:"
	diff "$DATA/expected.changes" "$SCRATCH/changes" | sed 's/^/    /'
fi
(cd "$SCRATCH/am" && $CC -fsyntax-only -Wall src/table.c src/crlf.c) \
	> "$SCRATCH/cc.out" 2>&1 ||
	fail "the result does not compile: $(cat "$SCRATCH/cc.out")"
grep -q "table_put(): not changed: the UNLIKELY() in macro GROW_IF is right at 1 of its 2 profiled uses" \
	"$SCRATCH/fix.err" ||
	fail "GROW_IF was not refused with its reason: $(cat "$SCRATCH/fix.err")"
[ "$(tr -cd '\r' < "$SCRATCH/am/src/crlf.c" | wc -c)" -eq 9 ] ||
	fail "crlf.c lost its CRLF line endings"

# --apply: the same bytes as git am gave, and nothing else
make_tree "$SCRATCH/apply"
"$LIKELYPROF" fix --apply --src "$SCRATCH/apply" "$DATA/table.lprof" \
	> "$SCRATCH/apply.out" 2>&1 || fail "fix --apply: $(cat "$SCRATCH/apply.out")"
for f in src/table.c src/crlf.c include/hints.h; do
	cmp -s "$SCRATCH/am/$f" "$SCRATCH/apply/$f" ||
		fail "--apply and git am disagree on $f"
done
left=$(cd "$SCRATCH/apply" && git status --porcelain | grep -v -e ' src/table.c$' -e ' src/crlf.c$')
[ -z "$left" ] || fail "--apply touched more than the two files: $left"
note "$(grep -c '^+[^+]' "$SCRATCH/changes") lines changed in $(grep -c '^Subject:' "$SCRATCH/series.mbox") patch(es)"
finish
