#!/bin/sh
# annotate prints each hinted line with its counts (right, wrong, %
# wrong) and check's verdict beside it, --context lines around, "--"
# between stretches that do not meet, files in order; a FILE after the
# profile keeps that file; a site the tree cannot place is counted in a
# note.
mkdir -p tree
cat > tree/a.c <<'SRC'
int f(int x)
{
	if (__builtin_expect(x > 1, 1))
		return 1;
	x++;
	x++;
	x++;
	x++;
	x++;
	x++;
	if (__builtin_expect(x == 7, 0))
		return 2;
	return 0;
}
SRC
printf 'int g(int y)\n{\n\treturn __builtin_expect(y, 0) ? 1 : 2;\n}\n' > tree/b.c
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t10\t990000\t0\t1\ta.c\t3\tf\ta.c\tx > 1\n'
	printf 'site\t990000\t10\t0\t0\ta.c\t11\tf\ta.c\tx == 7\n'
	printf 'site\t600000\t400000\t0\t0\tb.c\t3\tg\tb.c\ty\n'
	printf 'site\t5\t5\t0\t0\tgone.c\t9\th\tgone.c\tz\n'
	printf 'end\t4\n'
} > p.lprof
"$LIKELYPROF" annotate --src tree --context 1 p.lprof
echo "exit $?"
"$LIKELYPROF" annotate --src tree --context 0 p.lprof b.c 2> /dev/null
