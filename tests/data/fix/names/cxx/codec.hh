// codec.hh - a C++ library's shapes: namespaces, members, templates
#pragma once
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

/* what the optimiser cannot see through */
extern volatile int noise;

namespace codec {
namespace detail {
class Window {
public:
	explicit Window(int size) : size_(size), used_(0)
	{
		if (unlikely(size > 0))
			used_ = 1;
	}
	~Window()
	{
		if (likely(used_ == 7 + noise))
			used_ = 0;
	}
	int fill(int n)
	{
		if (unlikely(n < size_))
			return n;
		return size_;
	}
	bool operator==(const Window &o) const
	{
		if (likely(o.size_ != size_))
			return false;
		return true;
	}
	int slide(int n);

private:
	int size_, used_;
};

template <typename T> T clamp(T v, T hi)
{
	if (likely(v > hi))
		return hi;
	return v;
}
} // namespace detail
} // namespace codec
