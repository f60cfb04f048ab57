#!/bin/sh
# The shape of scnlib's visit_impl() in its scan.h: a function template
# in an own header whose return type is `decltype(auto)`, a switch with
# #if groups among its labels, pragma macros with arguments, then an
# attribute macro (defined in another header) before `case X: default:`.
# The profile counts the label as the program tallies it (g++ and
# clang++); check quotes the macro's spelling; fix finds the function
# (a return type in parentheses was read as a parameter list before the
# name, and no function was found) and names the macro as a word, not
# as a call ("Remove UNL_ATTR from"); the series applies and builds.
. "$(dirname "$0")/../lib.sh"
mkdir include src
cat > include/macros.h <<'SRC'
#if defined(__has_cpp_attribute) && __has_cpp_attribute(unlikely)
#define UNL_ATTR [[unlikely]]
#else
#define UNL_ATTR /* unlikely */
#endif
#define PUSH _Pragma("GCC diagnostic push")
#define IGNORE(w) _Pragma("GCC diagnostic ignored \"-Wswitch\"")
#define POP _Pragma("GCC diagnostic pop")
SRC
cat > include/visit.h <<'SRC'
#include "macros.h"
extern long right[4], wrong[4];
enum class kind { a, b, c, none };
template <typename V, typename K>
constexpr decltype(auto) visit_impl(V&& vis, K k)
{
#define VISIT(x) do { return vis(x); } while (false)
	bool cased = k == kind::a || k == kind::b || k == kind::c;
	(cased ? right : wrong)[0]++;
	switch (k) {
	case kind::a:
#if HAVE_A
		VISIT(1);
#else
		VISIT(0);
#endif
	case kind::b:
		VISIT(2);
	case kind::c: {
		if constexpr (sizeof(V) > 0) {
			VISIT(3);
		} else {
			VISIT(4);
		}
	}

		PUSH
		IGNORE("-Wcovered-switch-default")

		UNL_ATTR
	case kind::none:
	default: {
		return vis(9);
	}

		POP
	}
#undef VISIT
}
SRC
cat > src/main.cc <<'SRC'
#include <cstdio>
#include "visit.h"
long right[4], wrong[4];
int main()
{
	long s = 0;
	for (int i = 0; i < 30000; i++)
		s += visit_impl([](int x) { return x; }, (kind)(i % 6));
	std::printf("%ld\n", s);
	std::printf("include/visit.h:30 %ld %ld\n", right[0], wrong[0]);
	return 0;
}
SRC
git init -q . && git add include src && git -c user.name=t \
	-c user.email=t@t commit -qm tree || echo "no git"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	counted_as_tallied $c -O2 -std=c++20 -Iinclude -DHAVE_A=1 src/main.cc
done
check_fix_builds '^Subject\|^[-+][^-+]' \
	g++ -std=c++20 -Iinclude -DHAVE_A=1 src/main.cc
