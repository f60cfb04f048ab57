#!/bin/sh
# workload.sh NAME TREE RUNDIR - runs project NAME's workload on what was
# built in TREE: what it produces goes to RUNDIR/out (compared between the
# builds), the rest to RUNDIR/log.  One process tree, so that
# `likelyprof run -- sh workload.sh ...` merges the profiles of all of it.
# Environment: CORPUS (the input: the upstream tarball, uncompressed),
# PRISTINE (the upstream tree, not to be written), JOBS, LP_REAL_CC (CC of
# the build, empty for a plain one).
HERE=$(cd "$(dirname "$0")" && pwd)
. "$HERE/$1.sh" || exit 2
cd "$2" || exit 2
mkdir -p "$3/out" "$3/log" || exit 2
# the trace on stderr says which step failed
set -x
workload "$3/out" "$3/log"
