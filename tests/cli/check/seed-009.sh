#!/bin/sh
# A kernel table (seed 009): one warning in the compiler's form, the
# summary, exit 1.  No --src, so the annotation is not named.
data="$(cd "$(dirname "$0")" && pwd)/../../data"
"${LIKELYPROF:-likelyprof}" check "$data/seeds/009.txt"
