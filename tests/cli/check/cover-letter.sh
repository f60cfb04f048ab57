#!/bin/sh
# The cover letter's table: pre_schedule_rt flips (patch 01 did), and
# signal_pending (5214 hits) and trylock_page (1305) are left alone as
# Steven Rostedt left them: they only show with --all, as notes.
data="$(cd "$(dirname "$0")" && pwd)/../../data"
lp=${LIKELYPROF:-likelyprof}
"$lp" check "$data/seeds/001.txt" | grep -e pre_schedule -e signal_pending
echo "--all:"
"$lp" check --all "$data/seeds/001.txt" | grep -e signal_pending -e trylock
