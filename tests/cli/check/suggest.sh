#!/bin/sh
# Suggestions from all-branches profiles: an unannotated if that went one
# way at least 99.9% of at least a million times gets a note (exit status
# unchanged).  From a kernel branch_all table (hit = true, overlaid on
# incorrect): __do_softirq's if is always true (likely), rcu's false
# 99.9997% (unlikely), f's even split nothing.  From a profile: the two
# copies of one static inline's if (600000 each) sum past the minimum; an
# if whose line carries a hint already is left alone; one true 99.8% is
# below the threshold, and above it with --suggest-at 99.5; one true
# exactly 99.9% is at it; one the compiler folded every time needs none.
cat > all.txt <<'T'
   miss      hit    %        Function                  File              Line
 ------- ---------  -        --------                  ----              ----
        0  2310923 100 __do_softirq                   softirq.c            229
  1996212        4   0 rcu_check_callbacks            tree.c               1590
   500000   500000  50 f                              a.c                  7
T
"$LIKELYPROF" check all.txt
echo "exit $?"
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t600000\t0\t0\tif\tinc/list.h\t12\tlist_empty\tx.c\t(h->next == h)\n'
	printf 'site\t599990\t10\t0\tif\tinc/list.h\t12\tlist_empty\ty.c\t(h->next == h)\n'
	printf 'site\t0\t3000000\t0\tif\tx.c\t40\tmain\tx.c\t(__builtin_expect(!!(p), 1))\n'
	printf 'site\t3000000\t0\t0\t1\tx.c\t40\tmain\tx.c\t!!(p)\n'
	printf 'site\t2000\t998000\t0\tif\tx.c\t50\tmain\tx.c\t(n > 0)\n'
	printf 'site\t1000\t999000\t0\tif\tx.c\t60\tmain\tx.c\t(m > 0)\n'
	printf 'site\t0\t2000000\t2000000\tif\tx.c\t70\tmain\tx.c\t(is_le())\n'
	printf 'end\t7\n'
} > p.lprof
"$LIKELYPROF" check p.lprof
echo "exit $?"
"$LIKELYPROF" check --suggest-at 99.5 --format json p.lprof
echo "exit $?"
"$LIKELYPROF" check --suggest-at 50 p.lprof
echo "exit $?"
