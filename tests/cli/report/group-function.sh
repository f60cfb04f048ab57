#!/bin/sh
# --group function sums a whole function: page_mapping() was "correct a
# total of 1909540379 times and incorrect 1270533123 times, with a 39%
# being incorrect" (seed 011), fput_light() 85% (seed 008's rows; the
# mail's total, 1032903812 / 6203351846, counts rows it did not paste).
"$LIKELYPROF" report --group=function "$LP_TEST_DATA/seeds/011.txt" \
	"$LP_TEST_DATA/seeds/008.txt"
