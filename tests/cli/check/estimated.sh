#!/bin/sh
# Sites judged from branch samples (sure estimated, the sampled right and
# wrong counts after the empty votes): check gives remove or flip only
# where the 95% interval of the samples' wrong fraction lies wholly past
# the threshold.  Line 10: 40% wrong of 1000 samples (37.0..43.1%): remove.
# Line 20: the same 40% of 10 samples (16.8..68.7%): unsure, although the
# estimated counts alone would remove it.  Line 30: 100% of 1000 samples:
# flip.  Line 40: 99.5% of 200 samples (97.2..99.9%) is past remove but
# not wholly past flip (99%): remove.  Line 50: right: fine.  Merging
# keeps the samples, and a merge of the profile with itself judges alike.
T='	'
{
	echo 'likelyprof-profile	1'
	echo 'meta	origin	judge-perf'
	for r in "6000000 4000000 10 600 400" "600000 400000 20 6 4" \
		 "0 3000000 30 0 1000" "10000 1990000 40 1 199" \
		 "5000000 10000 50 500 1"; do
		set -- $r
		echo "site$T$1$T$2${T}0${T}0${T}p.c$T$3${T}f${T}p.c${T}c$3${T}estimated$T$T$T$4$T$5"
	done
	echo 'end	5'
} > e.lprof
lp=${LIKELYPROF:-likelyprof}
"$lp" check --all e.lprof
echo "exit $?"
"$lp" merge -o m.lprof e.lprof e.lprof || echo "merge failed"
grep -c 'estimated		*[0-9]*	[0-9]*	[0-9]*	[0-9]*$' m.lprof
"$lp" check --all m.lprof | sed -n 's/.*\[likelyprof-\(.*\)\]$/\1/p'
"$lp" check --format json e.lprof | tr ',' '\n' | grep -c wrong_low
# samples are numbers; the votes before them may be empty, not one of them
for f in "estimated$T$T$T$T" "estimated${T}1$T${T}3${T}4"; do
	printf 'likelyprof-profile\t1\nsite\t1\t2\t0\t0\tp.c\t1\tf\tp.c\tc\t%s\nend\t1\n' \
		"$f" > bad.lprof
	"$lp" report bad.lprof 2>&1
done
