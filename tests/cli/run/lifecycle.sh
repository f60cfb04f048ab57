#!/bin/sh
# run gathers every process, even one that outlives PROG (a daemon: run is
# its subreaper), bounded by --wait; on SIGTERM it passes the signal on,
# writes what exists and removes its folder; -o to an unwritable path
# keeps the gathered profiles and says where; a process that left through
# _exit is told apart from one that was never instrumented.
cat > p.c <<'C'
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
static volatile unsigned long s;
static void count(int n) { int i; for (i = 0; i < n; i++) if (__builtin_expect(i % 2, 1)) s++; }
int main(int argc, char **argv)
{
	count(100);
	if (!strcmp(argv[1], "daemon")) {
		if (daemon(1, 1)) return 1;
		sleep(1);
		count(100);
	} else if (!strcmp(argv[1], "sleep")) {
		if (fork() == 0) { count(100); return 0; }
		sleep(30);
	} else if (!strcmp(argv[1], "_exit")) {
		_exit(0);
	}
	return 0;
}
C
"$LIKELYPROF" cc p.c -o p || exit 1
mkdir tmp
export TMPDIR=$PWD/tmp
"$LIKELYPROF" run -o d.lprof -- ./p daemon 2> /dev/null
echo "daemon: exit $? $(grep -c '^site' d.lprof) site, $(awk -F'\t' '$1 == "site" { n += $2 + $3 } END { print n }' d.lprof) evaluations"
"$LIKELYPROF" run -o s.lprof -- ./p sleep &
sleep 2
kill -TERM $!
wait $!
echo "sigterm: exit $? $(awk -F'\t' '$1 == "site" { n += $2 + $3 } END { print n }' s.lprof) evaluations"
echo "folders left: $(ls tmp | wc -l)"
"$LIKELYPROF" run -o no/such/dir/x.lprof -- ./p plain
echo "unwritable: exit $? $(ls tmp/*/ | grep -c 'lprof$') profile kept"
rm -rf tmp/*
"$LIKELYPROF" run -o e.lprof -- ./p _exit
echo "_exit: exit $?"
echo "folders left: $(ls tmp | wc -l)"
