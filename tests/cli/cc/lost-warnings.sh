#!/bin/sh
# A unit whose instrumented compile succeeds and says nothing is compiled
# once (tools/cc/unit.c): that is right only if the instrumented compile
# speaks wherever the plain one does.  Each probe below draws exactly one
# kind of diagnostic beside or inside a hint, in the shapes where the
# header's expansion could hide it (gcc's C front end put an unused
# variable of a function whose closing brace shares a hint's line in the
# header, a system header, and dropped it); with gcc and clang, at -O0
# and -O2, likelyprof cc's stderr and exit status must be the plain
# compile's byte for byte.  Prints whether plain spoke, so a probe that
# stops drawing its warning shows.  Then the options around the one
# compile: -Werror, -MMD (the user's dependency file, none where none is
# asked), -save-temps, -S, -fsyntax-only, three sources in one command,
# C++ and the German locale.  NEEDSWORK: clang -save-temps shows its
# caret line from the saved .i, which likelyprof's plain compile (no
# side files) does not: that one line differs, as before the one
# compile.
# Through a project's likely() (the one compile's case), and a few
# direct calls of the builtin, which are compiled twice (direct.c).
p() {
	printf '#define likely(x) __builtin_expect(!!(x), 1)\n' > "$1.c"
	printf '#define unlikely(x) __builtin_expect(!!(x), 0)\n' >> "$1.c"
	printf '%s\n' "$2" >> "$1.c"
}
p unused-oneline 'int f(int x){ int u; if (unlikely(x)) return 1; return 0; }'
p unused-brace 'int f(int x){ int u;
 if (unlikely(x)) return 1; return 0; }'
p unused-after 'int f(int x){ if (unlikely(x)) return 1; int u; return 0; }'
p unused-param 'int f(int x, int y){ return unlikely(x); }'
p unused-function 'static int g(int x){ return likely(x); }
int f(void){ return 0; }'
p unused-label 'int f(int x){ l: return likely(x); }'
p set-not-used 'int f(int x){ int s; s = likely(x); return 0; }'
p set-not-used-brace 'void f(int x){ int a[2]; if (unlikely(x)) a[0]=1; }'
p maybe-uninit 'int g(int); int f(int c){ int v; if (unlikely(c)) v = g(1); return g(v); }'
p uninit 'int f(int c){ int v; if (unlikely(c)) return 1; return v; }'
p return-type 'int f(int x){ if (likely(x)) return 1; }'
p no-return 'int f(int x){ (void)likely(x); }'
p sign-compare 'int f(int a, unsigned b){ if (likely(a < b)) return 1; return 0; }'
p empty-body 'int f(int x){ if (unlikely(x)); return 0; }'
p parentheses 'int f(int a, int b){ if (unlikely(a = b)) return 1; return 0; }'
p fallthrough 'int g(int); int f(int x){ switch (x) { case 1: if (unlikely(x)) g(1);
 case 2: return 2; } return 0; }'
p shadow 'int f(int x){ if (unlikely(x)) { int x = 2; return x; } return 0; }'
p int-conversion 'int f(int *p){ int v = p; return unlikely(v); }'
p pointer-compare 'int f(int *p, long n){ return unlikely(p == n); }'
p implicit-decl 'int f(int x){ return unlikely(undeclared_fn(x)); }'
p error 'int f(int x){ return unlikely(x) + nothing; }'
p clean 'int f(int x){ if (unlikely(x)) return 1; return 0; }'
p direct-self-compare 'int f(int a){ return __builtin_expect(a == a, 1); }'
p direct-unused 'int f(int x){ int u; if (__builtin_expect(x,0)) return 1; return 0; }'
p direct-prob 'int f(int a){ return __builtin_expect_with_probability(a == a, 1, 0.9); }'
p macro-self-compare 'int f(int a){ return likely(a == a); }'
try() {
	$cc "$@" -o plain.o 2> plain.err
	ps=$?
	CC=$cc $LIKELYPROF cc "$@" -o lp.o 2> lp.err
	ls=$?
	cmp -s plain.err lp.err && same=same || same=DIFFERS
	[ -s plain.err ] && spoke=spoke || spoke=silent
	echo "$cc $*: $spoke, exit $ps/$ls, stderr $same"
}
for cc in gcc clang; do
	for o in -O0 -O2; do
		for f in *.c; do
			try $o -Wall -Wextra -c $f
		done
	done
done
for cc in gcc clang; do
	try -O2 -Wall -Werror -c unused-oneline.c
	try -O2 -Wall -Wextra -Wshadow -Wconversion -c shadow.c
	try -Wall -MMD -MF dep.d -c unused-oneline.c
	tr -s ' \\\n' '  ' < dep.d | sed 's/ [^ ]*likelyprof\.h//g'
	echo
	rm dep.d
	try -Wall -c clean.c
	ls *.d 2>/dev/null || echo "no dependency file"
	try -Wall -save-temps -c unused-oneline.c
	ls *.i *.s 2>/dev/null | tr '\n' ' '
	echo
	rm -f *.i *.s *.bc
	$cc -Wall -S unused-oneline.c -o plain.s 2> plain.err
	CC=$cc $LIKELYPROF cc -Wall -S unused-oneline.c -o lp.s 2> lp.err
	cmp -s plain.err lp.err && echo "$cc -S: stderr same" ||
		echo "$cc -S: stderr DIFFERS"
	grep -q lp__ lp.s && echo "$cc -S: instrumented"
	try -Wall -fsyntax-only unused-oneline.c
	$cc -Wall -c clean.c unused-oneline.c shadow.c 2> plain.err
	CC=$cc $LIKELYPROF cc -Wall -c clean.c unused-oneline.c shadow.c \
		2> lp.err
	cmp -s plain.err lp.err && echo "$cc three sources: stderr same" ||
		echo "$cc three sources: stderr DIFFERS"
	LC_ALL=de_DE.UTF-8 try -Wall -Wextra -c sign-compare.c
done
for f in unused-oneline set-not-used return-type shadow; do
	cp $f.c $f.cc
done
for cc in g++ clang++; do
	for f in *.cc; do
		$cc -Wall -Wextra -Wshadow -c $f -o plain.o 2> plain.err
		ps=$?
		CXX=$cc $LIKELYPROF c++ -Wall -Wextra -Wshadow -c $f -o lp.o \
			2> lp.err
		ls=$?
		cmp -s plain.err lp.err && same=same || same=DIFFERS
		[ -s plain.err ] && spoke=spoke || spoke=silent
		echo "$cc ${f%.cc}: $spoke, exit $ps/$ls, stderr $same"
	done
done
