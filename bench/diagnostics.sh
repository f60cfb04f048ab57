#!/bin/sh
# diagnostics.sh - whether `likelyprof cc` shows the plain build's
# diagnostics unit by unit on real projects, now that a unit whose
# instrumented compile is silent is compiled once (tools/cc/unit.c).
#
#   bench/diagnostics.sh UNITS COMPILER FLAGS...
#
# UNITS holds one unit a line, "PROJECT|FOLDER|ARGS" (ARGS: the unit's
# own options and its source, no -o, no optimisation or warning option).
# Each unit is compiled three ways with COMPILER and FLAGS into a
# scratch folder: plain; instrumented as the one compile is (the header,
# the user's warnings); with `likelyprof cc`.  A unit fails when the
# plain compile says something and the instrumented one nothing (a lost
# diagnostic), or when likelyprof cc's stderr or exit status is not the
# plain compile's byte for byte.  Prints one line per project: units,
# those plain says something of, those compiled twice (the instrumented
# compile spoke where plain did not), failures; exits 1 on any failure.
# LIKELYPROF, LIKELYPROF_INCLUDE_DIR: the command and its header.
units=$1 cc=$2
shift 2
: "${LIKELYPROF:?}" "${LIKELYPROF_INCLUDE_DIR:?}"
tmp=$(mktemp -d) || exit 2
trap 'rm -rf "$tmp"' EXIT
failed=0
for proj in $(cut -d'|' -f1 "$units" | uniq); do
	n=0 spoke=0 twice=0 bad=0
	while IFS='|' read -r p dir args; do
		[ "$p" = "$proj" ] || continue
		n=$((n + 1))
		# shellcheck disable=SC2086 # ARGS are words
		(cd "$dir" && $cc "$@" $args -o "$tmp/p.o") 2> "$tmp/p.err"
		ps=$?
		(cd "$dir" && $cc -DLIKELYPROF_INSTRUMENT -include \
			"$LIKELYPROF_INCLUDE_DIR/likelyprof.h" "$@" $args \
			-o "$tmp/i.o") 2> "$tmp/i.err"
		(cd "$dir" && CC=$cc "$LIKELYPROF" cc "$@" $args \
			-o "$tmp/l.o") 2> "$tmp/l.err"
		ls=$?
		[ -s "$tmp/p.err" ] && spoke=$((spoke + 1))
		[ -s "$tmp/i.err" ] && ! [ -s "$tmp/p.err" ] &&
			twice=$((twice + 1))
		src=$(echo "$args" | awk '{ print $NF }')
		if [ -s "$tmp/p.err" ] && ! [ -s "$tmp/i.err" ]; then
			echo "LOST: $proj $src: $(head -1 "$tmp/p.err")"
			bad=$((bad + 1))
		elif [ "$ps" != "$ls" ] ||
		     ! cmp -s "$tmp/p.err" "$tmp/l.err"; then
			echo "DIFFERS: $proj $src: status $ps/$ls," \
			     "$(diff "$tmp/p.err" "$tmp/l.err" | sed -n 2p)"
			bad=$((bad + 1))
		fi
	done < "$units"
	echo "$cc $*: $proj: $n units, plain spoke on $spoke," \
	     "compiled twice $twice, failed $bad"
	[ "$bad" = 0 ] || failed=1
done
exit "$failed"
