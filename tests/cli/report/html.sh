#!/bin/sh
# --format html: the page's markup without its style and script, which
# change for looks alone.  Checks that names, paths and conditions with
# markup in them (<, &, quotes) are escaped everywhere they appear (row,
# data- attributes, link, chart title, function and file views), and in
# the page's data escaped for JSON with '<' as \u003c, so that no
# "</script>" in a name can end it; that the
# rows are check's verdicts, those to change first and the most wrong
# evaluations first (a.c:12, 99% wrong of 1000, is flip; c.c:3, 25% of
# 200, fine below --min-hits 10000: too few; c.c:9 never ran); that the
# !!( ) of likely()'s expansion is not shown; that --link makes the links,
# {file} percent-encoded; and that --rows 2 shows two rows and counts the
# third in the table of the rest, while the data holds all three.
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t10\t99990\t0\t1\tsrc/a<b>.c\t12\tf<T>\tsrc/a<b>.c\t!!(p && q > "x")\n'
	printf 'site\t150\t50\t0\t0\tsrc/c.c\t3\tg\tsrc/c.c\t!!(c == \047&\047)\n'
	printf 'site\t0\t0\t0\t1\tsrc/c.c\t9\tg\tsrc/c.c\t!!(z) && (y)\n'
	printf 'end\t3\n'
} > p.lprof
"$LIKELYPROF" report --format html --rows 2 \
	--link 'https://x.example/{file}?a=1&b=2#L{line}' p.lprof |
	sed -e '/^<style>$/,/^<\/style>$/d' -e '/^<script>$/,/^<\/script>$/d'
