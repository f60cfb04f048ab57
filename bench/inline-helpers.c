/*
 * inline-helpers.c - small hinted helpers that the compiler inlines into
 * one hot loop: a buffer's bounds test, a peek, character classes and an
 * overflow guard, four or five hints a byte, as parsers are written.  A
 * counter that made any helper too big to inline, or that kept values in
 * memory across it, shows here as a function count above the plain
 * build's and as more than two instructions per evaluation.
 *
 *	inline-helpers [ROUNDS]      parses 1 MiB of digits ROUNDS times
 */
#include <stdio.h>
#include <stdlib.h>

#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

struct buf {
	const unsigned char *p, *end;
};

static inline int more(const struct buf *b)
{
	return likely(b->p < b->end);
}

static inline int peek(const struct buf *b)
{
	if (unlikely(b->p >= b->end))
		return -1;
	return *b->p;
}

static inline int is_digit(int c)
{
	return likely(c >= '0' && c <= '9');
}

static inline int is_space(int c)
{
	return unlikely(c == ' ' || c == '\n');
}

static inline unsigned long add_digit(unsigned long v, int c)
{
	if (unlikely(v > 1000000000UL))
		return v;
	return v * 10 + (unsigned long)(c - '0');
}

static unsigned long parse(struct buf *b)
{
	unsigned long sum = 0, v = 0;

	while (more(b)) {
		int c = peek(b);

		if (is_digit(c)) {
			v = add_digit(v, c);
		} else if (is_space(c)) {
			sum += v;
			v = 0;
		}
		b->p++;
	}
	return sum + v;
}

int main(int argc, char **argv)
{
	size_t n = (size_t)1 << 20, i;
	unsigned char *text = malloc(n);
	unsigned long sum = 0;
	int r, rounds = argc > 1 ? atoi(argv[1]) : 20;

	if (!text)
		return 1;
	for (i = 0; i < n; i++)
		text[i] = i % 7 == 6 ? ' ' : (unsigned char)('0' + i % 10);
	for (r = 0; r < rounds; r++) {
		struct buf b = { text, text + n };

		sum += parse(&b);
	}
	printf("%lu\n", sum);
	free(text);
	return 0;
}
