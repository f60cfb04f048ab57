#!/bin/sh
# A profile that does not exist is an error (exit 2) naming the file.
"${LIKELYPROF:-likelyprof}" check no-such-profile.lprof
