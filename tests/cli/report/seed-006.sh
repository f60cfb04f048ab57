#!/bin/sh
# Seed 006's table read back: byte for byte the table in the mail, which
# kept the kernel's spacing.
"$LIKELYPROF" report "$LP_TEST_DATA/seeds/006.txt"
