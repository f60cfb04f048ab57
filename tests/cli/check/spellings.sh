#!/bin/sh
# check --src places hints in the spellings real trees use, none of which
# it placed before: libecb's ecb_expect_true (x), a chain of macros with
# a space before each parenthesis and the value in parentheses; a
# definition that starts with an attribute (__attribute__((noinline))
# static, static inline __attribute__((always_inline))); the kernel's
# noinline macro first; a member template defined out of its class with
# a trailing return type.  The profile is written by hand, as the
# runtime would write it; every site must be placed (no "not found"
# note) and quoted as the source spells it.
cat > ecb.c <<'SRC'
#define ecb_expect(expr,value) __builtin_expect ((expr),(value))
#define ecb_expect_false(expr) ecb_expect (!!(expr), 0)
#define ecb_expect_true(expr)  ecb_expect (!!(expr), 1)
#define noinline __attribute__((__noinline__))

static void
downheap (long *heap, long n)
{
	long i;
	for (i = 0; i < n; i++)
		if (ecb_expect_true (heap[i] % 3 == 0))
			heap[i]++;
}

__attribute__((__noinline__)) static long scan(long n)
{
	long i, s = 0;
	for (i = 0; i < n; i++)
		if (__builtin_expect(i % 5 == 0, 1))
			s++;
	return s;
}

static inline __attribute__((always_inline)) long twice(long n)
{
	if (__builtin_expect(n > 100000, 1))
		return 2 * n;
	return n;
}

noinline static long kern(long n)
{
	if (ecb_expect_false (n < 0))
		return 0;
	return n;
}
SRC
cat > mt.cc <<'SRC'
template <class T> struct S {
	T v;
	template <class... A> auto put(A... a) -> int;
};

template <class T>
template <class... A>
auto S<T>::put(A... a) -> int
{
	if (__builtin_expect(v > 1000, 0))
		v = 0;
	return (int)v;
}
SRC
{
	printf 'likelyprof-profile\t1\n'
	printf 'site\t100000\t900000\t0\t1\tecb.c\t11\tdownheap\tecb.c\t!!(heap[i] %% 3 == 0)\n'
	printf 'site\t200000\t800000\t0\t1\tecb.c\t19\tscan\tecb.c\ti %% 5 == 0\n'
	printf 'site\t100\t90000\t0\t1\tecb.c\t26\ttwice\tecb.c\tn > 100000\n'
	printf 'site\t10\t90000\t0\t0\tecb.c\t33\tkern\tecb.c\t!!(n < 0)\n'
	printf 'site\t10\t90000\t0\t0\tmt.cc\t10\tput<int>\tmt.cc\tv > 1000\n'
	printf 'end\t5\n'
} > p.lprof
"$LIKELYPROF" check --src . p.lprof
echo "exit $?"
