#!/bin/sh
# C++20 [[likely]]/[[unlikely]] on case and default labels are sites of
# their switch's dispatch: each evaluation of the switch counts once,
# correct when it went (for [[likely]]) or did not go (for [[unlikely]])
# to the attributed statement by its labels; falling into it from the
# case above is not going there.  The forms: an attribute after a
# label, one before it, a statement with several labels, a default
# (no case of its switch matched), fallthrough into an attributed case,
# a switch nested in a default, a label inside an if of its switch, a
# char switch with a GNU case range, an enum class switch with
# [[unlikely]] default.  The program works out where each switch will
# go before it runs it and prints its own counts; the profile's correct
# and incorrect columns must be those numbers, on the line of each
# attribute, with the labels' text as the condition.  A switch on a
# declaration switches on its name, tested after it (`switch (int r = e;
# r)`), one with an init-statement on the expression after it; one on a
# declaration after an init-statement in a switch of its own (`if (i;
# true) switch (T r = e; r)`).  The output and exit status are the
# plain build's; check quotes each site as written.  g++ and clang++,
# -O0 and -O2.
command -v g++ > /dev/null || { echo "no g++"; exit 77; }
cat > a.cc <<'SRC'
#include <cstdio>
enum class Op { add, sub, mul, halt };
static long went[16], evals[16];
static int line[16], likely_[16];
static void want(int k, bool likely, bool goes)
{
	evals[k]++;
	went[k] += goes;
	likely_[k] = likely;
}
static int f(int x, char c, Op op)
{
	int s = 0, v = x % 6;

	want(0, true, v == 0);
	want(1, false, v == 1);
	want(2, false, v == 2 || v == 3);
	want(3, true, v == 5);
	switch (v) {
	case 0: [[likely]] line[0] = __LINE__;
		s++;
		break;
	[[unlikely]] case 1: line[1] = __LINE__;
		s += 10;
		[[fallthrough]];
	case 2:
	case 3: [[unlikely]] line[2] = __LINE__;
		s += 2;
		break;
	case 4:
		s += 4;
		break;
	default: [[likely]] line[3] = __LINE__;
		want(4, true, x % 4 == 1);
		switch (x % 4) {
		case 1: [[likely]] line[4] = __LINE__; s--; break;
		}
		break;
	}
	want(5, false, c >= 'a' && c <= 'f');
	want(6, true, c == 'y' || c == 'z');
	switch (c) {
	case 'a' ... 'f': [[unlikely]] line[5] = __LINE__; s += 3; break;
	case 'g':
		if (x & 2) {
			s++;
	case 'y': case 'z': [[likely]] line[6] = __LINE__;
			s += 5;
		}
		break;
	}
	want(7, true, op == Op::add);
	want(8, false, op != Op::add && op != Op::halt);
	switch (op) {
	case Op::add: [[likely]] line[7] = __LINE__; s += 7; break;
	case Op::halt: break;
	[[unlikely]] default: line[8] = __LINE__; s *= 2; break;
	}
	want(9, true, x % 3 == 0);
	switch (int r = x % 3) {
	case 0: [[likely]] line[9] = __LINE__; s += r; break;
	}
	want(10, false, x % 2 == 1);
	switch (int k = x; k % 2) {
	[[unlikely]] case 1: line[10] = __LINE__; s += k & 1;
	}
	want(11, false, x % 5 == 4);
	switch (int k = x; int r = k % 5) {
	case 4: [[unlikely]] line[11] = __LINE__; s += r; break;
	}
	return s;
}
int main()
{
	long s = 0;
	for (int i = 0; i < 6000; i++)
		s += f(i, "abgyz?q"[i % 7], Op(i % 4));
	std::printf("%ld\n", s);
	for (int k = 0; k < 12; k++)
		std::printf("%d %ld %ld\n", line[k],
			    likely_[k] ? went[k] : evals[k] - went[k],
			    likely_[k] ? evals[k] - went[k] : went[k]);
	return 3;
}
SRC
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	for o in -O0 -O2; do
		$c -std=c++20 $o a.cc -o plain 2> /dev/null
		./plain > plain.out
		echo "plain $?"
		CXX=$c $LIKELYPROF c++ -std=c++20 $o a.cc -o p 2> err
		echo "$c $o: exit $?"
		grep '^likelyprof' err
		LIKELYPROF_FILE=p.lprof ./p > p.out
		echo "run $?"
		cmp plain.out p.out && sed 1q p.out
		sed 1d p.out | sort -n > expected
		awk -F'\t' '$1 == "site" { print $7, $2, $3 }' p.lprof |
			sort -n | diff expected - && echo "counts as counted"
		awk -F'\t' '$1 == "site" { print $7, $4, $5, $10 }' \
			p.lprof | sort -n
	done
done
$LIKELYPROF check --min-hits 10 --src . p.lprof
echo "check: exit $?"
