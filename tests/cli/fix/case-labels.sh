#!/bin/sh
# fix edits [[likely]]/[[unlikely]] on case and default labels where
# likelyprof c++ counted them (tools/cc/cases.c; the profile has the
# attribute's line and the labels' text): a backwards one is flipped in
# place ([[unlikely]] on the case taken every time, on a default taken
# every time, [[likely]] on a default never taken), a wrong one is
# removed with the blank beside it (after its label, and before it), a
# right one is kept; fix's patches are one per function (two switches'
# `case 1` are not one condition).  check quotes
# each as written.  The series applies with git am; the patched program
# builds with g++ and clang++ and prints what the plain build printed;
# profiled again, check finds nothing left to change.  The clang++
# profile and series must be g++'s, byte for byte (skipped without a
# word on stdout where clang++ is missing).
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
command -v git > /dev/null || { echo "no git"; exit 77; }
mkdir repo && cd repo || exit 2
cat > a.cc <<'SRC'
#include <cstdio>
static int flips(int x)
{
	int s = 0;
	switch (x >= 0) {
	[[unlikely]] case 1: s++; break;
	case 0: break;
	}
	switch (x) {
	case 5000: s--; break;
	default: [[unlikely]] s += 2; break;
	}
	switch (x / 2000) {
	case 0: s += 3; break;
	[[likely]] default: s -= 3; break;
	}
	return s;
}
static int removes(int x)
{
	int s = 0;
	switch (x % 2) {
	case 1: [[likely]] s++; break;
	default: break;
	}
	switch (x % 4) {
	case 0: case 1:
		[[unlikely]] s += 2;
		break;
	}
	switch (x % 3) {
	[[likely]] case 2: s += 3; break;
	}
	return s;
}
static int kept(int x)
{
	int s = 0;
	switch (x % 100) {
	case 7: [[unlikely]] s++; break;
	default: [[likely]] s += 2; break;
	}
	return s;
}
static volatile int base;
int main()
{
	long s = 0;
	for (int k = 0; k < 1000; k++) {
		int x = base + k;

		s += flips(x) + removes(x) + kept(x);
	}
	std::printf("%ld\n", s);
	return 0;
}
SRC
. "$(dirname "$0")/attr-series.inc"
commit_source
make_series
apply_series
after_series
