#!/bin/sh
# What a verdict rests on names the workload: `run --label` keeps it in
# the profile (meta label), merge keeps every input's label once (or
# replaces them with its own --label), and check's warnings, notes and
# JSON, and fix's patch messages, say which workloads and how many
# processes the verdict rests on.  A profile without a label reads as
# before.  A label that would break the record is refused, writing nothing.
cat > mode.c <<'SRC'
#include <stdio.h>
#include <stdlib.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static long step(long i, int mode) { long d = 0; if (i < 0) return 0;
	if (unlikely(mode))
		d += 2;
	if (likely(i % 1000 == 0))
		d--;
	return d;
}

int main(void)
{
	long i = 0, s = 0;
	int mode = getenv("MODE") != NULL;

	while (i < 100000)
		s += step(i++, mode);
	printf("%ld\n", s);
	return 0;
}
SRC
"$LIKELYPROF" cc -O2 mode.c -o mode || exit 1
printf '#!/bin/sh\nfor i in 1 2 3; do MODE=1 ./mode; done > /dev/null\n' > nightly
chmod +x nightly
"$LIKELYPROF" run --label nightly -o a.lprof ./nightly 2> /dev/null
"$LIKELYPROF" run --label 'unit tests' -o b.lprof ./mode > /dev/null 2>&1
"$LIKELYPROF" run -o plain.lprof ./mode > /dev/null 2>&1
grep '^meta	label' a.lprof b.lprof
echo "--- check, one workload"
"$LIKELYPROF" check a.lprof
echo "--- check, two"
"$LIKELYPROF" check a.lprof b.lprof
echo "--- merged: each label once, in the order of their names"
"$LIKELYPROF" merge -o m.lprof a.lprof b.lprof a.lprof
grep '^meta	label' m.lprof
"$LIKELYPROF" merge -o ab.lprof a.lprof b.lprof
"$LIKELYPROF" merge -o ba.lprof b.lprof a.lprof
cmp ab.lprof ba.lprof || grep label ab.lprof ba.lprof
"$LIKELYPROF" check m.lprof | grep mode.c:10
"$LIKELYPROF" check --format json m.lprof | grep workloads
echo "--- merge --label replaces them"
"$LIKELYPROF" merge --label release -o r.lprof a.lprof b.lprof
grep '^meta	label' r.lprof
echo "--- no label: as before"
"$LIKELYPROF" check plain.lprof | grep mode.c:10
"$LIKELYPROF" check --format json plain.lprof | grep -c workloads
echo "--- fix"
"$LIKELYPROF" fix --src . a.lprof | grep -A1 'profile (3'
"$LIKELYPROF" fix --src . a.lprof b.lprof | grep '^In '
echo "--- bad labels"
"$LIKELYPROF" merge --label "$(printf 'a\tb')" -o bad.lprof a.lprof
echo "exit $?"
"$LIKELYPROF" run --label '' -o bad.lprof ./mode
echo "exit $?"
test -e bad.lprof && echo "bad.lprof written"
exit 0
