#!/bin/sh
# A series whose patches touch lines near each other in one file: one-line
# functions in a row, each with a wrong hint and so its own patch, and an
# attribute alone on its line (removed with the line) just above another
# patch.  git am applies a series in order, so each patch's diff is made
# against the file as the patches before it left it: its context holds
# their changes and its line numbers count their removed lines (made
# against the tree as it was, patch 2's context held f1's old line and
# git am refused it).  The whole series applies, the tree builds and
# prints what the plain build prints.
. "$(dirname "$0")/../lib.sh"
cat > a.cc <<'SRC'
#include <cstdio>
#define unlikely(x) __builtin_expect(!!(x), 0)
static inline int f1(int x) { return unlikely(x % 2) ? 1 : 0; }
static inline int f2(int x) { return unlikely(x % 3) ? 1 : 0; }
static inline int f3(int x) { if (unlikely(x % 5)) return 1; return 0; }
static int f4(int x)
{
	if (x % 7)
		[[unlikely]]
		return 1;
	return 0;
}
static int f5(int x) { if (unlikely(x % 11)) return 1; return 0; }
int main()
{
	long s = 0;
	for (int i = 0; i < 30000; i++)
		s += f1(i) + f2(i) + f3(i) + f4(i) + f5(i);
	std::printf("%ld\n", s);
	return 0;
}
SRC
git init -q . && git add a.cc && git -c user.name=t -c user.email=t@t \
	commit -qm tree || echo "no git"
g++ -std=c++20 -O2 a.cc -o plain && ./plain > plain.out
CXX=g++ $LIKELYPROF c++ -std=c++20 -O2 a.cc -o p && LIKELYPROF_FILE=p.lprof ./p
$LIKELYPROF fix --src . p.lprof > fixes.mbox
echo "fix: exit $?"
grep '^Subject\|^@@\|^[-+][^-+]' fixes.mbox
git am -q fixes.mbox && echo "series applies: $(git log --oneline | wc -l)" \
	"commits" && g++ -std=c++20 -O2 a.cc -o patched && ./patched |
	cmp - plain.out && echo "the tree builds and prints what it printed"
