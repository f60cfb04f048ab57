#!/bin/sh
# Seed 005's table read back: the same rows in the kernel's order, in the
# kernel's layout (the mail re-spaced its columns).
"$LIKELYPROF" report "$LP_TEST_DATA/seeds/005.txt"
