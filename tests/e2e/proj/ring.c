#include "ring.h"

int ring_put(struct ring *r, unsigned char c)
{
	if (unlikely(r->head - r->tail == sizeof(r->buf)))
		return -1;
	r->buf[r->head++ % sizeof(r->buf)] = c;
	return 0;
}

int ring_get(struct ring *r, unsigned char *c)
{
	if (unlikely(r->head == r->tail))
		return -1;
	*c = r->buf[r->tail++ % sizeof(r->buf)];
	return 0;
}
