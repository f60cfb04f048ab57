/* plugin.c - dlopen()ed and dlclose()d twice: runs survive an unload. */
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

static const int opt_a = 0, opt_b = 1;

int plugin_run(int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++) {
		if (unlikely(opt_a))
			s--;
		if (likely(opt_b))
			s++;
		if (unlikely(opt_a && i > 3))
			s = 0;
		if (unlikely(i % 5 == 0))
			s += 2;
	}
	return s;
}
