/*
 * warn.c - C code that draws many warnings under -Wall -Wextra
 * -Wconversion -Wsign-conversion, most of them inside or beside hints:
 * the instrumented build must print exactly what the plain one does.
 */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static int helper(int a, unsigned b, long c)
{
	int unused;
	short s = c;
	unsigned u = a;

	if (likely(a < b))
		return s;
	if (unlikely(c > b))
		return (int)u;
	if (__builtin_expect(a == b, 0))
		return 3;
	return c;
}

int f1(int x){ int unused1; if (__builtin_expect(x,0)) return 1; return 0; }

int f2(unsigned n, int k)
{
	char buf[8];
	unsigned i;

	for (i = 0; likely(i < k); i++)
		buf[i & 7] = i;
	return unlikely(n == -1) ? buf[0] : helper(k, n, n);
}

int f3(double d, float f)
{
	int r = d;
	float g = d;

	if (likely(r > f))
		return r + g;
	return unlikely(f == 0.5) ? 1 : 0;
}
