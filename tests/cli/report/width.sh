#!/bin/sh
# --width N sets the kernel table's Function column: the default is the
# kernel's 30 (cut), 0 fits the longest name, N cuts at N; the header
# follows the column, and all-branches' second table too.  A bad value
# is a usage error that writes nothing.
long=a_function_with_a_name_much_longer_than_thirty_characters
cat > w.lprof <<EOF2
# likelyprof profile, see doc/FORMAT.md
likelyprof-profile	1
site	6	4	0	1	w.c	1	$long	w.c	x > 3
site	9	1	0	0	w.c	2	short_one	w.c	x == 2
site	5	5	0	if	w.c	3	short_one	w.c	x
end	3
EOF2
$LIKELYPROF report w.lprof
$LIKELYPROF report --width 0 w.lprof
$LIKELYPROF report --width=12 w.lprof
$LIKELYPROF report --width 5000 -o out.txt w.lprof
echo "exit $?"
[ -e out.txt ] && echo "out.txt written"
exit 0
