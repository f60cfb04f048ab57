#!/bin/sh
# demo.sh - what `make demo` prints works as printed
#
# make demo ends with the command that applies its patches; run it as
# printed, from the top of a copy of the tree in git, and the patches
# must apply (git am), and the program still build.
. "$(dirname "$0")/lib.sh"

T=$SCRATCH/tree
mkdir -p "$T"
cp -R "$ROOT/examples" "$T/"
rm -rf "$T/examples/build"
GIT="git -c user.name=t -c user.email=t@example.com"
# the example frees nothing before it exits (as html.sh says); under the
# sanitized runtime that is LeakSanitizer's to ignore, not the demo's fault
ASAN_OPTIONS=${ASAN_OPTIONS:+$ASAN_OPTIONS:}detect_leaks=0
export ASAN_OPTIONS
(cd "$T" && $GIT init -q . && $GIT add examples &&
	$GIT commit -qm examples) || fail "cannot make the git tree"
out=$(cd "$T" && make -s -C examples LIKELYPROF="$LIKELYPROF" demo 2>&1) ||
	fail "make demo failed: $out"
cmd=$(printf '%s\n' "$out" | sed -n 's/^(apply with: \(.*\))$/\1/p')
[ -n "$cmd" ] || fail "make demo printed no apply command"
(cd "$T" && $GIT $(echo "$cmd" | sed 's/^git //') > "$SCRATCH/am.log" 2>&1) ||
	fail "'$cmd' failed: $(cat "$SCRATCH/am.log")"
n=$(cd "$T" && git log --oneline | wc -l)
[ "$n" -gt 1 ] || fail "no patch applied"
(cd "$T" && make -s -C examples LIKELYPROF="$LIKELYPROF" build/logstat \
	> /dev/null 2>&1) || fail "the patched program does not build"
exit $FAILED
