#!/bin/sh
# A site whose condition was a compile-time constant prints the current
# kernel's "correct/constant incorrect" form, padded as the kernel pads.
printf 'likelyprof-profile\t1\n' > p.lprof
printf 'site\t12\t3\t5\t1\tsrc/a.c\t7\tf\tsrc/a.c\tx\n' >> p.lprof
printf 'site\t70000\t1\t123456\t0\tsrc/b.c\t9\tg\tsrc/b.c\ty\n' >> p.lprof
printf 'end\t2\n' >> p.lprof
"$LIKELYPROF" report p.lprof
