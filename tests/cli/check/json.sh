#!/bin/sh
# --format json: every site that needs a change with its counts, and a
# summary (seed 003: two flips).
data="$(cd "$(dirname "$0")" && pwd)/../../data"
"${LIKELYPROF:-likelyprof}" check --format json "$data/seeds/003.txt"
