#include <stdio.h>

#include "hint.h"

int main(int argc, char **argv)
{
	if (unlikely(argc > 3)) {
		puts(argv[1]);
		return 1;
	}
	return 0;
}
