#!/bin/sh
# A hint that went one way all through each of several processes follows
# a setting of the process (a mode read from the environment), not the
# data: check names it a setting, with the process counts, as a note that
# does not fail the check; fix leaves it and says so, and changes it only
# with --settings, saying why in the patch.  Hints that follow the data
# in the same processes are removed or flipped as always.  One process is
# not enough to call anything a setting: the flip stands, with a note.
cat > mode.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static int gc_friendly;

int main(void)
{
	long i, s = 0;

	gc_friendly = getenv("MODE") != NULL;
	for (i = 0; i < 200000; i++) {
		if (unlikely(gc_friendly))
			s += 2;
		if (unlikely(i % 3 == 0))
			s++;
		if (likely(i % 1000 == 0))
			s--;
	}
	printf("%ld\n", s);
	return 0;
}
SRC
git init -q . && git add mode.c &&
	git -c user.name=t -c user.email=t@example.com commit -qm init || exit 2
"$LIKELYPROF" cc -O2 mode.c -o mode || exit 1
printf '#!/bin/sh\nfor i in 1 2 3 4; do MODE=1 ./mode; done > /dev/null\n' > all-set
printf '#!/bin/sh\nMODE=1 ./mode; MODE=1 ./mode; ./mode; ./mode\n' > half-set
chmod +x all-set half-set
"$LIKELYPROF" run -o all.lprof ./all-set 2> /dev/null
"$LIKELYPROF" check all.lprof
echo "check: exit $?"
"$LIKELYPROF" fix --src . all.lprof > plain.mbox
grep -c '^Subject' plain.mbox
grep '^[-+]	' plain.mbox
"$LIKELYPROF" fix --settings --src . all.lprof > settings.mbox
grep '^[-+]	' settings.mbox
sed -n '/went against the hint all/,/ran\.$/p' settings.mbox
grep '^Found by' settings.mbox
"$LIKELYPROF" run -o half.lprof ./half-set > /dev/null 2>&1
"$LIKELYPROF" check half.lprof | grep mode.c:15
# one process, and the setting check turned off
MODE=1 "$LIKELYPROF" run -o one.lprof ./mode > /dev/null 2>&1
"$LIKELYPROF" check one.lprof | grep mode.c:15
"$LIKELYPROF" check --setting-processes 0 all.lprof | grep mode.c:15
"$LIKELYPROF" check --format json all.lprof | grep '"line": 15' |
	sed 's/.*"verdict": \("[a-z]*"\).*\("processes_right.*\)}.*/\1 \2/'
