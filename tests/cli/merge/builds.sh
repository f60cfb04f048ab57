#!/bin/sh
# Profiles of different builds of one program are refused, naming both
# build-ids; --allow-different-builds merges them by key and keeps every
# build.  Builds of other objects, and profiles that say nothing of their
# build, merge as before; each build record is kept once.
prof() {
	printf 'likelyprof-profile\t1\n'
	for b in "$@"; do printf 'meta\tbuild\t%s\n' "$b"; done
	printf 'site\t10\t2\t0\t1\tprog.c\t7\tmain\tprog.c\t!!(x)\nend\t1\n'
}
prof "aaaa /opt/prog" > a.lprof
prof "aaaa /opt/prog" "cccc /opt/libx.so" > b.lprof
prof "bbbb /opt/prog" > c.lprof
prof > none.lprof
$LIKELYPROF merge -o ab.lprof a.lprof b.lprof none.lprof && echo "a b none: merged"
grep '^meta	build' ab.lprof
$LIKELYPROF merge -o ac.lprof a.lprof c.lprof
echo "a c: exit $?"
[ -e ac.lprof ] && echo "a c: written anyway"
$LIKELYPROF merge --allow-different-builds -o ac.lprof a.lprof c.lprof &&
	echo "a c allowed: merged"
grep '^meta	build\|^site' ac.lprof
# through a tree of merges: ab (two objects) against c at the top
$LIKELYPROF merge -o abc.lprof ab.lprof c.lprof 2>&1 | sed 's/^/  /'

# two real builds of one source, -O1 and -O2: two build-ids, one path
printf 'int main(int c, char **v) { (void)v; return __builtin_expect(c > 3, 0); }\n' > p.c
$LIKELYPROF cc -O1 p.c -o p && LIKELYPROF_FILE=one.lprof ./p
$LIKELYPROF cc -O2 -g p.c -o p && LIKELYPROF_FILE=two.lprof ./p
$LIKELYPROF merge -o both.lprof one.lprof two.lprof 2> err
echo "two builds: exit $?"
grep -c 'profiles of different builds of .*/p.: [0-9a-f]* in one.lprof, [0-9a-f]* in two.lprof' err
$LIKELYPROF merge -o same.lprof one.lprof one.lprof && echo "one build twice: merged"
