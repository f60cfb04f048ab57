// warn.cc - templates instantiated several times, each instantiation
// drawing its own copy of a warning inside or beside a hint: the
// instrumented build must print every copy, as the plain one does.
#define likely(x) __builtin_expect(!!(x), 1)

template <class T> int narrow(T v, unsigned n)
{
	int r = v;
	short s = n;

	if (likely(r < n))
		return s;
	if (__builtin_expect(v > n, 0))
		return r;
	return 0;
}

template <class T> struct box {
	T v;
	int get(int k) const
	{
		unsigned u = k;

		return likely(v > u) ? v : u;
	}
};

int use(int k)
{
	box<long> a{1};
	box<double> b{2.0};
	box<unsigned long> c{3};

	return narrow(1L, 2) + narrow(2.5, 3) + narrow(3UL, 4) +
	       narrow('c', 5) + a.get(k) + b.get(k) + c.get(k);
}
