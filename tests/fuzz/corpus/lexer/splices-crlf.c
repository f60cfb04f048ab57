int h(int a)
{
	if (lik\
ely(a > 0))
		return 1;
	if (unlikely(a\
 < -1)) /* rare */
		return 2;
	return __builtin_expect(a, 0\
L);
}
