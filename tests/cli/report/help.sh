#!/bin/sh
# --help prints the usage to stdout and exits 0, as 'help report' does.
"$LIKELYPROF" report --help | head -1
"$LIKELYPROF" help report | head -1
