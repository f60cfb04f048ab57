#!/bin/sh
# cc's one note a unit names every header that holds forms it cannot
# count, not only the first: h1.h's in full, the first in the unit's
# text, then h2.h's name (h2.h includes h1.h at its top; each has an
# attribute on a statement that is no branch, and one on the first
# statement of an if's block, which is counted).  A unit whose headers leave nothing says nothing.  The
# attribute macro the header defines is counted in both headers, with
# g++ and with clang++, whose line markers name them "./h1.h".
. "$(dirname "$0")/../lib.sh"
cat > h1.h <<'C'
#define U_ATTR [[unlikely]]
inline int h1(int c) { if (c) { U_ATTR return 1; } U_ATTR return 0; }
C
cat > h2.h <<'C'
#include "h1.h"
inline int h2(int c) { if (c > 2) { U_ATTR return 1; } U_ATTR return 2; }
C
cat > two.cc <<'C'
#include "h2.h"
int main(int argc, char **) { return h1(argc) + h2(argc); }
C
cat > none.cc <<'C'
int main(int argc, char **) { return argc > 1; }
C
for c in g++ clang++; do
	command -v $c > /dev/null || { echo "$c: missing, skipped"; continue; }
	CXX=$c $LIKELYPROF c++ -std=c++20 -O2 -c two.cc -o two.o 2>&1
	echo "$c two: exit $?"
	$LIKELYPROF c++ two.o -o two && rm -f p.lprof &&
		LIKELYPROF_FILE=p.lprof ./two
	echo "$c run: $?"
	own_site_counts p.lprof
	CXX=$c $LIKELYPROF c++ -std=c++20 -O2 -c none.cc -o none.o 2>&1
	echo "$c none: exit $?"
done
