#!/bin/sh
# fix-cover.sh - the 2010 cover letter's whole table flips nothing that is
# constant and nothing that was flipped since
#
# The table (tests/data/seeds/001.txt, as the kernel printed it, with no
# constant column) says "flip" for every row it shows: 0 correct, all
# incorrect.  In a git tree where
#   - sched_stats.h's sched_info_switch(), _queued() and _dequeued() test
#     unlikely(sched_info_on()), and sched_info_on() returns 1 under
#     CONFIG_SCHEDSTATS (the cover letter: "if (unlikely(1))");
#   - sched_rt.c's pre_schedule_rt() had unlikely(rt_task(prev)), and a
#     later commit made it likely() (patch 01 of the series);
# fix must change nothing: the first three are refused as possibly folded,
# the fourth as flipped since, each with its reason.
. "$(dirname "$0")/lib.sh"

GIT="git -c user.name=t -c user.email=t@example.com"
T="$SCRATCH/tree"
mkdir -p "$T/kernel"

# pad FILE N: blank lines up to line N - 1
pad() {
	n=$(($(wc -l < "$1") + 1))
	while [ $n -lt "$2" ]; do echo >> "$1"; n=$((n + 1)); done
}

S="$T/kernel/sched_stats.h"
cat > "$S" <<'C'
#ifdef CONFIG_SCHEDSTATS
static inline int sched_info_on(void)
{
	return 1;
}
#else
static inline int sched_info_on(void)
{
	extern int delayacct_on;

	return delayacct_on;
}
#endif
C
for f in dequeued:180 queued:225 switch:272; do
	pad "$S" $((${f#*:} - 2))
	cat >> "$S" <<C
static inline void sched_info_${f%:*}(struct task_struct *t)
{
	if (unlikely(sched_info_on()))
		__sched_info_${f%:*}(t);
}
C
done

R="$T/kernel/sched_rt.c"
: > "$R"
pad "$R" 1473
cat >> "$R" <<'C'
static void pre_schedule_rt(struct rq *rq, struct task_struct *prev)
{
	/* Try to pull RT tasks here if we lower this rq's prio */
	if (unlikely(rt_task(prev)) && rq->rt.highest_prio.curr > prev->prio)
		pull_rt_task(rq);
}
C
[ "$(grep -n 'unlikely(rt_task' "$R" | cut -d: -f1)" = 1476 ] ||
	fail "sched_rt.c is not laid out as the table says"
(cd "$T" && git init -q && git add -A && $GIT commit -q -m "sched: import")
sed -i 's/unlikely(rt_task(prev))/likely(rt_task(prev))/' "$R"
(cd "$T" && $GIT commit -qam "sched: Change rt_task(prev) in pre_schedule_rt to likely")

"$LIKELYPROF" fix --src "$T" "$ROOT/tests/data/seeds/001.txt" \
	> "$SCRATCH/series.mbox" 2> "$SCRATCH/fix.err" || fail "fix exited $?"
[ -s "$SCRATCH/series.mbox" ] &&
	fail "fix changed something: $(grep '^[-+]	' "$SCRATCH/series.mbox")"
for f in switch queued dequeued; do
	grep -q "sched_info_$f(): not changed: its condition calls sched_info_on(), which returns a constant in 'kernel/sched_stats.h': the branch may have been folded" \
		"$SCRATCH/fix.err" ||
		fail "sched_info_$f() not refused as folded: $(cat "$SCRATCH/fix.err")"
done
grep -q "pre_schedule_rt(): not changed: [0-9a-f]* (\"sched: Change rt_task(prev) in pre_schedule_rt to likely\") flipped it since" \
	"$SCRATCH/fix.err" ||
	fail "pre_schedule_rt() not refused as flipped since: $(cat "$SCRATCH/fix.err")"
finish
