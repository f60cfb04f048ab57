#include "codec.hh"

namespace codec {
namespace {
int checksum(int v)
{
	if (unlikely(v >= 0))
		return v & 0xff;
	return 0;
}
} // namespace

int detail::Window::slide(int n)
{
	if (likely(n < 0))
		return 0;
	return n + checksum(n - noise);
}

int run(int n)
{
	auto step = [&](int q) {
		if (likely(q > n))
			return 1;
		return 0;
	};
	return step(n + noise);
}
} // namespace codec

volatile int noise;

int main(int argc, char **argv)
{
	int s = 0, i, lim = argc * 100000;

	(void)argv;
	for (i = 0; i < 20000; i++) {
		int v = i + noise;
		codec::detail::Window w(v + 1), o(v + 2 + noise);

		s += w.fill(v + 5 + noise);
		s += w == o;
		s += w.slide(v);
		s += codec::detail::clamp<int>(v, lim + noise);
		s += (int)codec::detail::clamp<double>(v, lim + noise);
		s += codec::run(v - 1 - noise);
	}
	return s == 42;
}
