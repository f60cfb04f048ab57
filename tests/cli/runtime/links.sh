#!/bin/sh
# The runtime never writes a profile through a symbolic link: whoever can
# write the profile's folder could point the name at any file the program
# may write (a root process: any file at all).  A link at a fixed name is
# refused with one line and the file it points to keeps its bytes; a link
# at a %p name is passed over for the next free variant; a FIFO is still
# written into.  The swap of a FIFO's link for the victim while the
# program waits for a reader writes nothing either.  As root, the same
# again as an unprivileged user in a folder everyone may write (1777).
printf 'int main(int c, char **v) { (void)v; return (int)__builtin_expect(c > 5, 0); }\n' > p.c
"$LIKELYPROF" cc p.c -o p || exit 1

probe() {	# $1: the folder, $2: run the program as ("" or setpriv ...)
	d=$1 as=$2
	echo secret > "$d/victim"
	chmod 666 "$d/victim"
	ln -s victim "$d/x.lprof"
	LIKELYPROF_FILE=$d/x.lprof $as "$d/p"
	echo "link to a file: $(cat "$d/victim"), link kept: $(readlink "$d/x.lprof")"
	ln -s /dev/null "$d/n.lprof"
	LIKELYPROF_FILE=$d/n.lprof $as "$d/p"
	echo "link to a device: $(readlink "$d/n.lprof")"
	# the %p name the program will have, taken by a link before it runs
	(cd "$d" && LIKELYPROF_FILE=$d/%e.%p.lprof $as sh -c \
		'ln -s victim p.$$.lprof; exec ./p')
	echo "link at a %p name: $(cat "$d/victim"), profiles written:" \
		"$(grep -l '^site' "$d"/p.*.lprof 2>/dev/null | wc -l)"
	# a FIFO nobody reads yet, then the link swapped for the victim
	mkfifo -m 666 "$d/fifo"
	ln -s fifo "$d/s.lprof"
	LIKELYPROF_FILE=$d/s.lprof $as "$d/p" &
	sleep 0.3
	ln -sfn victim "$d/s.lprof"
	wait
	echo "swapped link: $(cat "$d/victim")"
	(timeout 5 cat "$d/fifo" > "$d/got" &)
	LIKELYPROF_FILE=$d/fifo $as "$d/p"
	sleep 0.2
	echo "a FIFO itself: $(grep -c '^site' "$d/got") site"
}

mkdir me
cp p me/
probe "$PWD/me" "" 2>&1 | sed "s|$PWD/||"
if [ "$(id -u)" = 0 ] && command -v setpriv > /dev/null; then
	d=$(mktemp -d) || exit 2
	trap 'rm -rf "$d"' EXIT
	chmod 1777 "$d"
	cp p "$d/"
	chmod 755 "$d/p"
	probe "$d" "setpriv --reuid=65534 --regid=65534 --clear-groups" \
		2>&1 | sed "s|$d/|me/|"
else
	# the same lines, so that the expected output holds for any user
	mkdir me2
	cp p me2/
	probe "$PWD/me2" "" 2>&1 | sed "s|$PWD/me2/|me/|"
fi
