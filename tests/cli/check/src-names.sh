#!/bin/sh
# With --src the warnings name the file and line in today's tree and the
# spelling the source uses: fget_light() moved from line 315 to 307.
cd "$(dirname "$0")/../../data/fix" || exit 2
"${LIKELYPROF:-likelyprof}" check --src two-files two-files/table.txt
