#!/bin/sh
# run merges the profiles of every process (a fork included), writes -o
# or PROG.lprof, prints one summary line and exits with the program's
# status; the program's own output is untouched.
cat > p.c <<'SRC'
#include <stdio.h>
#include <unistd.h>
#include <sys/wait.h>
int main(int argc, char **argv)
{
	int i, s = 0;
	pid_t pid;

	(void)argv;
	pid = fork();
	for (i = 0; i < 1000; i++)
		if (__builtin_expect(i % 10 == 0, 0))
			s++;
	if (pid == 0)
		return 0;
	waitpid(pid, NULL, 0);
	printf("s=%d\n", s);
	return argc + 2;
}
SRC
$LIKELYPROF cc p.c -o p || exit 1
$LIKELYPROF run -- ./p a
echo "exit $?"
# both processes: 2 x 900 correct, 2 x 100 incorrect
grep '^site' p.lprof | cut -f2-5
$LIKELYPROF run -o other.lprof ./p
echo "exit $?"
grep '^end' other.lprof
