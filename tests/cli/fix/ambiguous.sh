#!/bin/sh
# A site whose line, moved by the drift of its neighbour (40 lines), lands
# halfway between two of its function's three annotations cannot be
# placed without doubt: it is refused naming both, and the site of the
# other function, whose line drifted by 40, is still fixed.
t=$(mktemp -d) || exit 2
trap 'rm -rf "$t"' EXIT
mkdir "$t/src"
cat > "$t/src/amb.c" <<'C'
int f(int a, int b, int c)
{
	if (likely(a))
		return 1;
	if (likely(b))
		return 2;
	if (likely(c))
		return 3;
	return 0;
}

int g(int a)
{
	return unlikely(a > 2) ? 1 : 0;
}
C
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t0\t900000\t0\t1\t/build/amb.c\t46\tf\t\t\n'
	printf 'site\t500000\t500000\t0\t0\t/build/amb.c\t54\tg\t\t\n'
	printf 'end\t2\n'
} > "$t/amb.lprof"
"${LIKELYPROF:-likelyprof}" fix --apply --src "$t/src" "$t/amb.lprof" |
	sed "s|$t/||"
sed -n 14p "$t/src/amb.c"
