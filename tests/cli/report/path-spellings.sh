#!/bin/sh
# --group line and --group function fold one file compiled under two
# spellings that no lexical rule makes equal (lz4 builds lib/lz4.c as
# "lz4.c" from lib/ and "../lib/lz4.c" from programs/) into one row, under
# the longer path, as check does: 10+30 right, 90+70 wrong, 80%.  Files
# that only share a base name (a/x.c, b/x.c) stay apart; --group site
# keeps every record.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t10\t90\t0\t0\tlz4.c\t1080\tf\tlz4.c\t!!(x)\n'
	printf 'site\t30\t70\t0\t0\t../lib/lz4.c\t1080\tf\t../lib/lz4.c\t!!(x)\n'
	printf 'site\t7\t3\t0\t0\t../lib/lz4.c\t1090\tf\t../lib/lz4.c\t!!(y)\n'
	printf 'site\t5\t5\t0\t1\ta/x.c\t5\tg\ta/x.c\tc\n'
	printf 'site\t5\t5\t0\t1\tb/x.c\t5\tg\tb/x.c\tc\n'
	printf 'end\t5\n'
} > p.lprof
"$LIKELYPROF" report --group line --format csv p.lprof
"$LIKELYPROF" report --group function --format csv p.lprof
"$LIKELYPROF" report --format csv p.lprof | wc -l
