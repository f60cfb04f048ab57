#!/bin/sh
# Seed 011's table read back: byte for byte the table in the mail, which
# kept the kernel's spacing.
"$LIKELYPROF" report "$LP_TEST_DATA/seeds/011.txt"
