#define HOT(x) likely(x)
#define CHECK(c) do { if (unlikely(c)) \
		bug(); } while (0)
#define XXH_likely(x) __builtin_expect(x, 1)
#define XXH_unlikely(x) __builtin_expect(x, 0)
#define expect(e, v) __builtin_expect(e, v)
int g(int a)
{
	CHECK(a < 0);
	if (HOT(a))
		return XXH_unlikely(a > 9);
	return expect(a, 1) + XXH_likely(!a);
}
