#!/bin/sh
# fix needs --src: a usage error, exit 2, nothing on standard output.
"${LIKELYPROF:-likelyprof}" fix some.lprof
