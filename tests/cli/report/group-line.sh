#!/bin/sh
# --group line folds the copies of page_mapping()'s static inline (seed
# 011): line 657 at 1589900639 correct / 267477 incorrect (0%), line 659
# at 319639740 / 1270265646 (79%).
"$LIKELYPROF" report --group line "$LP_TEST_DATA/seeds/011.txt"
