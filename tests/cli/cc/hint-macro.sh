#!/bin/sh
# cc --hint-macro NAME[=DIRECTION]: a macro that never reaches
# __builtin_expect (sqlite's "#define likely(X) (X)") is counted by
# name.  The program is shaped like sqlite3.c: no header of its own, the
# macros defined in it, used in several functions, in a call that spans
# two lines, in the body of another macro, and named in a comment, a
# string, #ifdef and defined(), which are no calls.  It counts the same
# branches itself and prints "LINE correct incorrect" for each: the
# profile must hold exactly those sites with exactly those counts (gcc
# puts the call that spans lines on its first line, clang on its last),
# the condition "!!(...)" as for any likely(), and nothing else.  Its
# output and exit status are the plain build's; without the option
# nothing is counted; a project that defines likely() as
# __builtin_expect already gets each hint counted once, not twice.  A
# bad NAME or DIRECTION is one usage error, exit 2, nothing compiled.
# check and fix place the sites on the calls (HOT, no name of theirs,
# with their own --hint-macro) and flip or remove them in place.
cat > s.c <<'SRC'
#include <stdio.h>
#if !defined(SQLITE_COVERAGE_TEST) && !defined(likely)
# define likely(X)    (X)
# define unlikely(X)  (X)
#endif
#define HOT(X) (X)
#ifdef likely
static const char mode[] = "macros";
#endif
#define NEVER_NULL(p) if (unlikely((p) == 0)) n_null++
/* likely(a comment) is no call, nor "unlikely(x)" in a string: */
static const char text[] = "unlikely(x)";
static long n_odd, n_big, n_null, n_pos, n_hot;
static int base, cells[2], *cell[2];
static int odd(int x)
{
	if (likely(x % 2))
		return n_odd++, 1;
	return 0;
}
static int big(int x)
{
	if (unlikely(x > 990 ||
		     x < 5))
		return n_big++, 1;
	NEVER_NULL(cell[x & 1]);
	return 0;
}
static int pos(int x)
{
	n_pos += unlikely(x >= base);
	return HOT(x == 7) ? (int)++n_hot : 0;
}
int main(int argc, char **argv)
{
	long s = 0;
	int i;
	(void)argv;
	base = argc - 1;
	cell[0] = &cells[0];
	cell[1] = &cells[1];
	for (i = 0; i < 30000 * argc; i++)
		s += odd(i % 1000) + big(i % 1000) + pos(i % 1000);
	printf("%s %s %ld\n", mode, text, s);
	fprintf(stderr, "17 %ld %ld\n", n_odd, 30000 - n_odd);
	fprintf(stderr, "SPAN %ld %ld\n", 30000 - n_big, n_big);
	fprintf(stderr, "26 %ld %ld\n", 30000 - n_big - n_null, n_null);
	fprintf(stderr, "31 %ld %ld\n", 30000 - n_pos, n_pos);
	fprintf(stderr, "32 %ld %ld\n", n_hot, 30000 - n_hot);
	return 3;
}
SRC
cat > b.c <<'SRC'
#define likely(x) __builtin_expect(!!(x), 1)
int main(int argc, char **argv)
{
	int i, n = 0;
	(void)argv;
	for (i = 0; i < 1000; i++)
		if (likely(i % argc == 0))
			n++;
	return n == 1000 ? 0 : 1;
}
SRC
git init -q . && git add s.c &&
	git -c user.name=t -c user.email=t@t commit -qm s.c || echo "no git"
for c in gcc clang; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	case $c in gcc) span=23 ;; *) span=24 ;; esac
	$c -O2 s.c -o plain && ./plain > plain.out 2> /dev/null
	echo "plain: exit $?"
	for o in -O0 -O2; do
		rm -f p.lprof
		CC=$c $LIKELYPROF cc --hint-macro likely \
			--hint-macro=unlikely --hint-macro HOT=1 $o s.c -o p
		echo "$c $o: exit $?"
		LIKELYPROF_FILE=p.lprof ./p > p.out 2> counts
		echo "run $?"
		cmp plain.out p.out && cat p.out
		sed "s/^SPAN/$span/" counts | sort -n > expected
		awk -F'\t' '$1 == "site" { print $7, $2, $3 }' p.lprof |
			sort -n | diff expected - && echo "counts as counted"
		awk -F'\t' '$1 == "site" { print $7, $5, $6, $9, $10 }' \
			p.lprof | sort -n | sed "s/^$span /SPAN /"
	done
	rm -f q.lprof
	CC=$c $LIKELYPROF cc -O2 s.c -o q && LIKELYPROF_FILE=q.lprof ./q \
		> /dev/null 2>&1
	echo "without the option: exit $?, $(cat q.lprof 2> /dev/null |
		grep -c '^site') sites"
	rm -f b.lprof
	CC=$c $LIKELYPROF cc --hint-macro likely -O2 b.c -o b &&
		LIKELYPROF_FILE=b.lprof ./b
	echo "defined as __builtin_expect: exit $?"
	awk -F'\t' '$1 == "site" { print $7, $2, $3, $5, $10 }' b.lprof
done
for bad in 9lives 'a-b' 'likely=2' 'if' ''; do
	$LIKELYPROF cc --hint-macro="$bad" -c s.c -o bad.o 2> err
	echo "--hint-macro=$bad: exit $?, $(grep -c '^likelyprof:' err) error"
	sed -n 1p err
	test -e bad.o && echo "bad.o written"
done
$LIKELYPROF cc -c s.c --hint-macro 2> err
echo "no name: exit $?"
sed -n 1p err
# the profile of the last build (clang -O2, or gcc's where there is none)
$LIKELYPROF check --min-hits 100 --src . p.lprof
echo "check without HOT: exit $?"
$LIKELYPROF check --min-hits 100 --hint-macro HOT --src . p.lprof
echo "check: exit $?"
$LIKELYPROF fix --min-hits 100 --hint-macro HOT --src . --apply p.lprof \
	2> fix.err
echo "fix: exit $?"
cat fix.err
git diff | grep '^[-+]	'
