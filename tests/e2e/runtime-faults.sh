#!/bin/sh
# runtime-faults.sh - what must not lose a count or disturb the program:
# fork, exit() from a thread, the dump signal before a kill, the API, an
# unwritable profile folder, a full disk, errno, output and exit status.
. "$(dirname "$0")/lib.sh"

cd "$SCRATCH" || exit 1
$LIKELYPROF cc -O2 -Wall -Wextra -Werror $(san_flags) -I"$ROOT/include" \
	"$E2E_DIR/runtime/faults.c" -o faults || { fail "build failed"; finish; }

# counts N -> "correct incorrect" of work(N): i % 4 == 0 is incorrect
counts() {
	echo "$(( $1 - ($1 + 3) / 4 )) $(( ($1 + 3) / 4 ))"
}
# sum of the one site's records in a profile
prof() {
	awk -F'\t' '$1 == "site" && $8 == "work" { c += $2; i += $3 }
		END { print c + 0, i + 0 }' "$1"
}

# fork: the child starts from zero and writes its own file
LIKELYPROF_FILE=$SCRATCH/fork.%p.lprof ./faults fork 1000 > fork.out ||
	fail "fork: program failed"
set -- $(sed -n 's/^parent //p' fork.out)
want_parent=$(counts 1000)
got=$(prof "fork.$1.lprof")
[ "$got" = "$(( $(echo $want_parent | cut -d' ' -f1) * 2 )) $(( $(echo $want_parent | cut -d' ' -f2) * 2 ))" ] ||
	fail "fork: parent profile says '$got'"
set -- $(sed -n 's/^child //p' fork.out)
got=$(prof "fork.$1.lprof")
[ "$got" = "$(counts 500)" ] || fail "fork: child profile says '$got', want '$(counts 500)'"

# exit() from a thread while main waits
LIKELYPROF_FILE=$SCRATCH/thread.lprof ./faults thread-exit 777 ||
	fail "thread-exit: program failed"
got=$(prof thread.lprof)
[ "$got" = "$(counts 777)" ] || fail "thread-exit: '$got', want '$(counts 777)'"

# the dump signal writes the profile; a later SIGKILL loses only what
# came after it
# (an inner shell, so the "Killed" it reports goes nowhere)
LIKELYPROF_SIGNAL=USR2 LIKELYPROF_FILE=$SCRATCH/signal.lprof \
	sh -c './faults signal 1000' 2>/dev/null && fail "signal: program was not killed"
got=$(prof signal.lprof)
[ "$got" = "$(counts 1000)" ] || fail "signal: '$got', want '$(counts 1000)'"
ls signal.lprof.tmp.* >/dev/null 2>&1 && fail "signal: temporary file left"

# likelyprof_dump() and likelyprof_reset() from the program
LIKELYPROF_FILE=$SCRATCH/api-exit.lprof ./faults api 1000 "$SCRATCH/api-%e.lprof" \
	> api.out || fail "api: program failed"
[ "$(cat api.out)" = "dump 0 errno 4242" ] || fail "api: printed '$(cat api.out)'"
got=$(prof api-faults.lprof)
[ "$got" = "$(counts 1000)" ] || fail "api: dump says '$got'"
got=$(prof api-exit.lprof)
[ "$got" = "$(counts 500)" ] || fail "api: after reset, exit profile says '$got'"

# errno, stdout and the exit status are the program's
LIKELYPROF_FILE=$SCRATCH/errno.lprof ./faults errno > errno.out
status=$?
[ "$status" = 7 ] || fail "errno: exit status $status, want 7"
[ "$(cat errno.out)" = "errno 4242" ] || fail "errno: printed '$(cat errno.out)'"

# patterns: %e %p %h %%
LIKELYPROF_FILE='pat-%e-%h-%%.lprof' ./faults plain 10 > /dev/null
[ -f "pat-faults-$(uname -n)-%.lprof" ] || fail "patterns: $(ls pat-* 2>&1)"

# an unwritable folder: one line on stderr, nothing else changes
LIKELYPROF_FILE=/dev/null/x.lprof ./faults plain 1000 > out 2> err
status=$?
[ "$status" = 3 ] || fail "unwritable: exit status $status, want 3"
[ "$(cat out)" = "plain 250" ] || fail "unwritable: stdout '$(cat out)'"
[ "$(wc -l < err)" = 1 ] && grep -q "^likelyprof: cannot write profile '/dev/null/x.lprof': Not a directory" err ||
	fail "unwritable: stderr '$(cat err)'"

# a full disk (a file size limit): the old profile stays whole
LIKELYPROF_FILE=$SCRATCH/full.lprof ./faults plain 100 > /dev/null
cp full.lprof full.before
# (stderr through a pipe: the limit applies to every file it writes)
(
	(
		trap '' XFSZ
		ulimit -f 0
		LIKELYPROF_FILE=$SCRATCH/full.lprof exec ./faults plain 1000
	) 2>&1 >/dev/null
	echo $? > status
) | cat > err
status=$(cat status)
[ "$status" = 3 ] || fail "full disk: exit status '$status', want 3"
cmp -s full.lprof full.before || fail "full disk: old profile changed"
grep -q "^likelyprof: cannot write profile '$SCRATCH/full.lprof': File too large" err ||
	fail "full disk: stderr '$(cat err)'"
ls full.lprof.tmp.* >/dev/null 2>&1 && fail "full disk: temporary file left"
finish
