#!/bin/sh
# A project that renames every global symbol its objects define by macros
# made from nm's output, included after the force-included header (as
# jemalloc's private_namespace.h does), renames the header's lp__enter_cold
# too: the expansion must not use that name.  The unit builds with -Werror,
# links, and counts its site; the cold path keeps gcc's "cold" layout.
cat > a.c <<'SRC'
#define lp__enter_cold je_lp__enter_cold
#include <stdio.h>
int main(int argc, char **argv)
{
	(void)argv;
	if (__builtin_expect(argc > 3, 0))
		return 1;
	puts("ran");
	return 0;
}
SRC
$LIKELYPROF cc -O2 -Wall -Wextra -Werror a.c -o a && echo built
LIKELYPROF_FILE=a.lprof ./a
awk -F'\t' '$1 == "site" { print "site", $2, $3 }' a.lprof
