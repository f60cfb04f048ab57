/*
 * extra.c - a source of the tree that no program of the shape probes
 * links: judge must leave its hint out, not call it unjudgeable
 */
#include "shapes.h"

int unused_extra(int x)
{
	if (unlikely(x < 0))
		return 0;
	return x;
}
