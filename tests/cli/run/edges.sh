#!/bin/sh
# run says what really happened to each process, and loses no profile at
# the edges:
# - a process with no instrumented code writes an empty profile, and run
#   says so (not "left through _exit or a signal");
# - a file the kernel cannot execute gets the kernel's reason, not
#   /bin/sh's, and 126; a missing program 127;
# - a set-user-ID program (as root: set to another user) is named as such;
# - a process still running when run stops waiting is said to be running;
# - a program named with 245 characters still leaves its profile;
# - the 10,001st variant of one %e.%p name is still written;
# - processes of two builds of one path are refused, as merge refuses
#   them, and merged with --allow-different-builds.
mkdir tmp
export TMPDIR=$PWD/tmp
cat > p.c <<'SRC'
#include <unistd.h>
int main(int argc, char **argv)
{
	(void)argv;
	if (argc > 1 && fork() == 0) {
		sleep(3);
		return __builtin_expect(argc > 5, 0);
	}
	return __builtin_expect(argc > 5, 0);
}
SRC
printf 'int main(void) { return 0; }\n' > none.c
"$LIKELYPROF" cc p.c -o p || exit 1
"$LIKELYPROF" cc -O1 -DOTHER p.c -o p2 || exit 1
"$LIKELYPROF" cc none.c -o none || exit 1

"$LIKELYPROF" run -o none.lprof ./none
echo "no site: exit $?, $(grep -c '^end	0' none.lprof) empty profile"
printf '\177ELF\001\001garbage' > bad
chmod +x bad
"$LIKELYPROF" run ./bad
echo "not executable: exit $?"
"$LIKELYPROF" run ./missing
echo "missing: exit $?"
if [ "$(id -u)" = 0 ]; then
	cp p psu
	chown 65534 psu
	chmod u+s psu
	"$LIKELYPROF" run ./psu
	echo "set-user-ID: exit $?"
else
	echo "likelyprof: warning: './psu' is set-user-ID or set-group-ID: it runs with rights you do not have and writes no profile (run a copy without the bit)" >&2
	echo "set-user-ID: exit 0"
fi
# the late child writes (and fails to, its folder gone) after run ends
"$LIKELYPROF" run --wait 1 -o slow.lprof ./p slow 2> slow.err
echo "still running: exit $?"
grep -v 'cannot write profile' slow.err >&2

long=$(printf 'x%.0s' $(seq 245))
cp p "$long"
"$LIKELYPROF" run -o long.lprof "./$long" 2> long.err
echo "long name: exit $?, $(grep -c "^site" long.lprof) sites"
rm "$long"

mkdir v
# the 10,000 names before the one it would take, all taken
sh -c 'awk -v p=$$ "BEGIN { print \"v/p.\" p \".lprof\"; for (i = 2; i <= 10000; i++) print \"v/p.\" p \"-\" i \".lprof\" }" | xargs touch; exec env LIKELYPROF_FILE=$PWD/v/%e.%p.lprof ./p'
echo "variants: $(grep -l '^site' v/*.lprof | wc -l) written"

printf '#!/bin/sh\n./x\ncp p2 x\n./x\n' > twice
chmod +x twice
cp p x
"$LIKELYPROF" run -o builds.lprof ./twice 2> builds.err
echo "two builds: exit $?, $(ls builds.lprof 2>&1 | sed 's/.*: //')"
sed -e "s|$PWD/||g" -e 's|x\.[0-9]*\.lprof|x.PID.lprof|g' \
    -e 's|[0-9a-f]\{40\}|BUILD|g' -e 's|likelyprof-run-[A-Za-z0-9]*|RUN|g' \
    builds.err
rm -rf tmp/likelyprof-run-*
cp p x
"$LIKELYPROF" run --allow-different-builds -o builds.lprof ./twice 2> /dev/null
echo "allowed: exit $?, $(grep -c '^meta	build' builds.lprof) builds"
