#!/bin/sh
# A threshold that is not a percentage is a usage error (exit 2).
data="$(cd "$(dirname "$0")" && pwd)/../../data"
"${LIKELYPROF:-likelyprof}" check --flip-at 120 "$data/seeds/009.txt"
