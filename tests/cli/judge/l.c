/* the hints whose jumps l.s lays out by hand */
#define unlikely(x) __builtin_expect(!!(x), 0)
int f(int a, int b)
{
	if (unlikely(a))
		return 1;
	if (unlikely(b))
		return 2;
	return 0;
}
