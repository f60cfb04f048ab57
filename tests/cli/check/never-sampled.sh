#!/bin/sh
# A site judged from branch samples that no sample saw is not a site that
# never ran: the samples see a fraction of the run.  check says so, with
# no interval (0 of 0 tells nothing), and changes nothing.
T='	'
{
	echo 'likelyprof-profile	1'
	echo 'meta	origin	judge-perf'
	echo "site${T}0${T}0${T}0${T}0${T}p.c${T}7${T}f${T}p.c${T}c${T}estimated$T$T${T}0${T}0"
	echo "site${T}0${T}0${T}0${T}0${T}p.c${T}9${T}f${T}p.c${T}d${T}exact"
	echo 'end	2'
} > n.lprof
lp=${LIKELYPROF:-likelyprof}
"$lp" check --all n.lprof
echo "exit $?"
