#!/bin/sh
# A function renamed by a macro -- jemalloc's private_namespace.h makes
# free_default je_free_default, and __func__ says the new name -- is found
# under the name it has in the source, when one function's name ends the
# profile's after a '_'.  A name that ends two ways (a_b_c: b_c and c)
# says nothing alone; the line does: line 12 is b_c's annotation.
mkdir src
cat > src/jemalloc.c <<'C'
#define JEMALLOC_N(n) je_##n
#define free_default JEMALLOC_N(free_default)
#define b_c JEMALLOC_N(b_c)

void free_default(void *ptr)
{
	if (unlikely(ptr == 0))
		return;
	release(ptr);
}

static int b_c(int x) { return likely(x) ? 1 : 2; }
static int c(int x) { return likely(x) ? 3 : 4; }
C
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t100000\t900000\t0\t0\tsrc/jemalloc.c\t7\tje_free_default\t\t\n'
	printf 'site\t0\t900000\t0\t1\tsrc/jemalloc.c\t12\ta_b_c\t\t\n'
	printf 'end\t2\n'
} > a.lprof
"$LIKELYPROF" fix --apply --src src a.lprof
echo "exit $?"
sed -n '7p;12,13p' src/jemalloc.c
