#!/bin/sh
# More inputs than merge keeps open at once (256) are merged in groups
# through temporary files in OUT's folder: 600 profiles give the sums of
# one merge of the group results, every temporary file is removed, and a
# damaged input among them is one error naming its line, exit 2, with
# OUT left as it was and no temporary file behind.
mkdir fleet out
i=1
while [ $i -le 600 ]; do
	printf 'likelyprof-profile\t1\nsite\t%s\t1\t0\t1\ta.c\t3\tf\ta.c\tx\nend\t1\n' \
		$i > fleet/p$(printf %03d $i).lprof
	i=$((i + 1))
done
"$LIKELYPROF" merge -o out/all.lprof fleet
echo "exit $?"
grep '^site\|^meta' out/all.lprof
ls -A out
printf 'likelyprof-profile\t1\nsite\t1\t1\t0\t1\ta.c\t3\tf\ta.c\tx\nend\t2\n' \
	> fleet/p450.lprof
"$LIKELYPROF" merge -o out/all.lprof fleet
echo "exit $?"
grep '^site' out/all.lprof
ls -A out
