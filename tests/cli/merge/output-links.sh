#!/bin/sh
# merge -o follows a link the user named, as every tool does, and replaces
# the file it leads to, atomically: the link stays a link.  '-o
# /dev/stdout' into a redirected file writes that file (replacing the
# link would put a regular file where /dev/stdout is).  A link to a file
# that does not exist yet creates it.  A write that fails (a file size
# limit, as a full disk) names the file and leaves the old one as it was.
in=$LP_TEST_DATA/seeds/004.txt
"$LIKELYPROF" merge -o /dev/stdout "$in" > redirected
echo "exit $?"
grep -c '^site' redirected
[ -L /dev/stdout ] && echo "/dev/stdout still a link"
echo old > target
ln -s target link
"$LIKELYPROF" merge -o link "$in"
echo "exit $? link: $(readlink link), target sites: $(grep -c '^site' target)"
ln -s new-target dangling
"$LIKELYPROF" merge -o dangling "$in"
echo "exit $? link: $(readlink dangling), new-target sites:" \
	"$(grep -c '^site' new-target)"
# a profile of 300 sites is more than 1 KiB; the limit makes write fail
{
	printf 'likelyprof-profile\t1\n'
	i=1
	while [ $i -le 300 ]; do
		printf 'site\t1\t2\t0\t1\tf.c\t%d\tfn\tf.c\tx\n' $i
		i=$((i + 1))
	done
	printf 'end\t300\n'
} > big.lprof
echo old > out.lprof
(trap '' XFSZ; ulimit -f 1; "$LIKELYPROF" merge -o out.lprof big.lprof)
echo "exit $? out.lprof: $(cat out.lprof)"
