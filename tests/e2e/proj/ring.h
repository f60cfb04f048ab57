/* ring.h - a byte ring buffer, the library part of the test project */
#ifndef RING_H
#define RING_H
#include <stddef.h>

#ifndef likely
#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

struct ring { unsigned char buf[64]; size_t head, tail; };

int ring_put(struct ring *r, unsigned char c);
int ring_get(struct ring *r, unsigned char *c);
#endif
