int f(int a, int b, long *p)
{
	if (likely((a == b)))
		return !likely(a) + unlikely(b) * 2;
	else if (unlikely((unsigned long)p & 1))
		return 0;
	if (likely(a && unlikely(b)))
		a = c ? likely(a) : b;
	while (__builtin_expect(!!(a--), 1L))
		g(x, unlikely(y), (likely((a, b))));
	if (__builtin_expect(p != 0, true) || __builtin_expect(a, v))
		return 1;
	if (likely( /* hot */ a ))
		return 2;
	return LIKELY(a) + UNLIKELY(
		b);
}
