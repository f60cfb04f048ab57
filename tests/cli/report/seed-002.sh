#!/bin/sh
# Seed 002's table read back: byte for byte the table in the mail, which
# kept the kernel's spacing.
"$LIKELYPROF" report "$LP_TEST_DATA/seeds/002.txt"
