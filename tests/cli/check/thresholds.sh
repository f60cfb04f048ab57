#!/bin/sh
# The thresholds are options: seed 011's line 659 is 79.9% wrong, so it
# stays with --remove-at 80, and nothing to change means exit 0.
data="$(cd "$(dirname "$0")" && pwd)/../../data"
"${LIKELYPROF:-likelyprof}" check --remove-at 80 --flip-at 99.5 \
	"$data/seeds/011.txt"
