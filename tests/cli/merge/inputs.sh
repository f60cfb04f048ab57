#!/bin/sh
# Inputs come from operands, from --files-from (a file, or '-' for
# standard input; one path a line, empty lines skipped) and from folders
# (their *.lprof files in name order, nothing else): three ways to name
# the same profiles give the same bytes.  Standard input is taken once,
# and a folder without a profile is an error.
p() {
	printf 'likelyprof-profile\t1\nmeta\tpid\t%s\n' "$1"
	printf 'site\t%s\t0\t0\t1\ta.c\t3\tf\ta.c\tx\nend\t1\n' "$1"
}
mkdir fleet empty
p 1 > fleet/a.lprof
p 20 > fleet/b.lprof
p 300 > fleet/c.lprof
echo "not a profile" > fleet/notes.txt
"$LIKELYPROF" merge -o ops.lprof fleet/a.lprof fleet/b.lprof fleet/c.lprof
"$LIKELYPROF" merge -o dir.lprof fleet
printf 'fleet/a.lprof\n\nfleet/b.lprof\n' > list
"$LIKELYPROF" merge -o list.lprof --files-from list fleet/c.lprof
printf 'fleet/c.lprof\nfleet/b.lprof\n' |
	"$LIKELYPROF" merge -o stdin.lprof fleet/a.lprof --files-from -
cmp ops.lprof dir.lprof && cmp ops.lprof list.lprof &&
	cmp ops.lprof stdin.lprof && echo "same bytes"
cat ops.lprof
"$LIKELYPROF" merge -o x.lprof empty
echo "exit $?"
echo fleet/a.lprof | "$LIKELYPROF" merge -o x.lprof --files-from - -
echo "exit $?"
"$LIKELYPROF" merge -o x.lprof --files-from no-such-list
echo "exit $?"
