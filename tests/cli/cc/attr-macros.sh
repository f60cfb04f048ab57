#!/bin/sh
# [[likely]]/[[unlikely]] spelled by a macro are counted where the build
# spells them so, and only there.  A header defines the names under a
# test of the compiler and the project (HAVE_ATTR): a word after the
# condition (`if (c) MY_UNLIKELY {`, an else's, a while's, a case
# label's) and a name that takes the condition (`if COND_LIKELY(c)`,
# `while COND_UNLIKELY(c)`); without HAVE_ATTR they spell nothing.
# Another pair of headers defines a name before a header's code and
# #undefs it after (libpqxx's header-pre/header-post), and that header's
# inline function uses it; another name comes from a header found
# through -isystem, which cc does not read: the compiler's text names it.
# The program counts the branches itself and prints them; the profile's correct and incorrect columns must be those
# numbers, on the user's own file and line, with g++ and clang++ at -O0
# and -O2.  Without HAVE_ATTR, the profile holds no site from them at
# all (the plain build hints nothing there), and cc says nothing.  A use
# in another macro's body is noted, not counted.  fix flips a backwards
# one to the name of the other way (MY_UNLIKELY -> MY_LIKELY,
# COND_UNLIKELY -> COND_LIKELY) and removes a poor one; check and fix
# name the macros, not the attribute; git am applies the series, and the
# tree it leaves builds.
. "$(dirname "$0")/../lib.sh"
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
mkdir -p src include
cat > include/attrs.h <<'SRC'
#ifndef ATTRS_H
#define ATTRS_H
#if defined(HAVE_ATTR) && defined(__has_cpp_attribute)
#if __has_cpp_attribute(likely)
#define MY_LIKELY [[likely]]
#define MY_UNLIKELY [[unlikely]]
#define COND_LIKELY(...) (__VA_ARGS__) [[likely]]
#define COND_UNLIKELY(...) (__VA_ARGS__) [[unlikely]]
#endif
#endif
#ifndef MY_LIKELY
#define MY_LIKELY
#define MY_UNLIKELY
#define COND_LIKELY(...) (__VA_ARGS__)
#define COND_UNLIKELY(...) (__VA_ARGS__)
#endif
extern long right[16], wrong[16];
static inline void tally(int k, bool hint_held)
{
	if (hint_held)
		right[k]++;
	else
		wrong[k]++;
}
#endif
SRC
cat > include/pre.h <<'SRC'
#define PQ_UNLIKELY [[unlikely]]
SRC
cat > include/post.h <<'SRC'
#undef PQ_UNLIKELY
SRC
cat > include/table.h <<'SRC'
#include "attrs.h"
#include "pre.h"
static inline int cell(int x)
{
	tally(6, !(x % 11 == 0));
	if (x % 11 == 0) PQ_UNLIKELY {
		return 2;
	}
	return 1;
}
#include "post.h"
#include <sysattr.h>
static inline int row(int x)
{
	tally(7, !(x % 13 == 0));
	if (x % 13 == 0) SYS_UNLIKELY {
		return 3;
	}
	return 1;
}
SRC
mkdir sys
cat > sys/sysattr.h <<'SRC'
#define SYS_UNLIKELY [[unlikely]]
SRC
cat > src/a.cc <<'SRC'
#include <cstdio>
#include "attrs.h"
#include "table.h"
long right[16], wrong[16];
#define CHECK(c) if (c) MY_UNLIKELY return -1
static int step(int i)
{
	int r = 0;
	tally(1, !(i % 1000 != 0));
	if (i % 1000 != 0) MY_UNLIKELY {
		r += 1;
	} else MY_LIKELY {
		r += 2;
	}
	tally(2, i % 5 != 0);
	if COND_LIKELY (i % 5 != 0)
		r += 3;
	int n = i % 4;
	tally(3, !(n > 2));
	while COND_UNLIKELY(n > 2) {
		n -= 2;
		tally(3, !(n > 2));
	}
	tally(4, !(i % 10 < 4));
	if (i % 10 < 4) MY_UNLIKELY {
		r += n;
	}
	switch (i % 3) {
	case 0: MY_LIKELY
		tally(5, true);
		r += 4;
		break;
	default:
		tally(5, false);
		break;
	}
	CHECK(i < 0);
	return r + cell(i) + row(i);
}
int main()
{
	long s = 0;
	for (int i = 0; i < 20000; i++)
		s += step(i);
	std::printf("%ld\n", s);
	std::printf("src/a.cc:10 %ld %ld\n", right[1], wrong[1]);
	std::printf("src/a.cc:16 %ld %ld\n", right[2], wrong[2]);
	std::printf("src/a.cc:20 %ld %ld\n", right[3], wrong[3]);
	std::printf("src/a.cc:25 %ld %ld\n", right[4], wrong[4]);
	std::printf("src/a.cc:29 %ld %ld\n", right[5], wrong[5]);
	std::printf("include/table.h:6 %ld %ld\n", right[6], wrong[6]);
	std::printf("include/table.h:16 %ld %ld\n", right[7], wrong[7]);
	return 0;
}
SRC
git init -q . && git add src include &&
	git -c user.name=t -c user.email=t@t commit -qm tree || echo "no git"
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		rm -f a.o p.lprof
		CXX=$c $LIKELYPROF c++ -std=c++20 -DHAVE_ATTR -Iinclude -isystem sys $o \
			-c src/a.cc -o a.o 2> err
		echo "$c $o: exit $?"
		cat err
		$LIKELYPROF c++ a.o -o p
		LIKELYPROF_FILE=p.lprof ./p > p.out
		echo "run $?"
		sed 1d p.out | sort > expected
		own_site_counts p.lprof | diff expected - &&
			echo "counts as counted"
	done
	# without HAVE_ATTR the names spell nothing: no site, no note
	rm -f q.lprof
	CXX=$c $LIKELYPROF c++ -std=c++20 -Iinclude -isystem sys -O2 src/a.cc -o q 2>&1
	LIKELYPROF_FILE=q.lprof ./q > /dev/null
	echo "plain names: $(awk -F'\t' '$1 == "site" && $6 !~ /^\// &&
		$6 !~ /table/' q.lprof 2> /dev/null | wc -l) sites"
done
check_fix_builds '^Subject\|^[-+][^-+]' \
	g++ -std=c++20 -DHAVE_ATTR -Iinclude -isystem sys src/a.cc
