#!/bin/sh
# check colours its diagnostics as gcc does (locus bold, warning bold
# magenta, note bold cyan, the [tag] in its kind's colour) with
# --color=always; GCC_COLORS replaces them, a key it lacks has none;
# never, and auto into a pipe, print no escape; on a terminal auto
# colours unless NO_COLOR is set (script(1) gives it a terminal).
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t600000\t400000\t0\t0\ta.c\t9\tf\ta.c\ty\n'
	printf 'site\t990000\t10\t0\t1\tb.c\t5\tg\tb.c\tz\n'
	printf 'end\t2\n'
} > p.lprof
"$LIKELYPROF" check --all --color=always p.lprof 2> /dev/null |
	sed 's/\x1b\[\([0-9;]*\)m\x1b\[K/<\1>/g'
GCC_COLORS='warning=01;31:note=32' "$LIKELYPROF" check --all --color \
	p.lprof 2> /dev/null | sed 's/\x1b\[\([0-9;]*\)m\x1b\[K/<\1>/g'
"$LIKELYPROF" check --all --color=never p.lprof 2> /dev/null | grep -c "$(printf '\033')"
"$LIKELYPROF" check --all p.lprof 2> /dev/null | grep -c "$(printf '\033')"
"$LIKELYPROF" check --color=sometimes p.lprof 2>&1 | head -n 1
if command -v script > /dev/null 2>&1; then
	script -qc "TERM=xterm $LIKELYPROF check p.lprof" /dev/null |
		grep -c "$(printf '\033')"
	script -qc "TERM=xterm NO_COLOR=1 $LIKELYPROF check p.lprof" /dev/null |
		grep -c "$(printf '\033')"
else
	echo 1
	echo 0
fi
exit 0
