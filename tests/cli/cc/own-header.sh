#!/bin/sh
# A project that includes <likelyprof.h> itself for likely() and
# unlikely(), with no -I for it (it builds plain where the header is
# installed), builds under likelyprof cc and its hints are counted; a
# header of the project's own named like one of the system's still wins.
mkdir inc
printf '#define OWN 7\n' > inc/stdio.h
cat > own.c <<'SRC'
#include <likelyprof.h>
#include "stdio.h"
int main(int argc, char **argv)
{
	(void)argv;
	if (unlikely(argc > 5))
		return 1;
	if (likely(argc == 1))
		return OWN;
	return 0;
}
SRC
CC=gcc $LIKELYPROF cc -Iinc -O2 own.c -o own || echo "build failed"
LIKELYPROF_FILE=own.lprof ./own
echo "exit $?"
$LIKELYPROF report own.lprof
