/*
 * tok.c - a byte-at-a-time tokenizer, the densest kind of annotated code
 *
 * A loop over every byte with a hint or two per byte is where counting
 * costs the most (picohttpparser's byte loops ran 1.6x slower with a
 * global increment per hint, 3.4x with thread-local arrays, before this
 * project started), so this part decides whether counting is cheap.
 */
#include "workload.h"

enum {
	C_SPACE = 1,
	C_ALPHA = 2,
	C_DIGIT = 4,
	C_IDENT = 8,                    /* may continue a word */
};

static const unsigned char cls[256] = {
	[' '] = C_SPACE, ['\t'] = C_SPACE, ['\n'] = C_SPACE, ['\r'] = C_SPACE,
	['a' ... 'z'] = C_ALPHA | C_IDENT,
	['A' ... 'Z'] = C_ALPHA | C_IDENT,
	['_'] = C_ALPHA | C_IDENT,
	['0' ... '9'] = C_DIGIT | C_IDENT,
};

#define FNV_OFFSET 2166136261u
#define FNV_PRIME  16777619u

size_t wl_tokenize(const unsigned char *text, size_t n, struct wl_token *tok,
		   size_t max, unsigned long *lines)
{
	const unsigned char *p = text, *end = text + n;
	unsigned long nl = 0;
	size_t nt = 0;

	while (likely(p < end)) {
		const unsigned char *s = p;
		uint32_t h = FNV_OFFSET;
		uint32_t type;
		unsigned c = *p;

		/*
		 * Written as if blanks were rare; prose puts one after every
		 * word, so this guess is wrong about half the time.
		 */
		if (unlikely(cls[c] & C_SPACE)) {
			if (unlikely(c == '\n'))
				nl++;
			p++;
			continue;
		}
		if (unlikely(nt == max))
			break;
		if (likely(cls[c] & C_ALPHA)) {
			do {
				h = (h ^ *p) * FNV_PRIME;
				p++;
			} while (likely(p < end && (cls[*p] & C_IDENT)));
			type = WL_WORD;
		} else if (unlikely(cls[c] & C_DIGIT)) {
			do {
				h = (h ^ *p) * FNV_PRIME;
				p++;
			} while (p < end && (cls[*p] & C_DIGIT));
			type = WL_NUMBER;
		} else if (unlikely(c == '"')) {
			/* the quotes are not part of the token */
			s = ++p;
			while (likely(p < end) && likely(*p != '"')) {
				if (unlikely(*p == '\\') && p + 1 < end)
					p++;
				h = (h ^ *p) * FNV_PRIME;
				p++;
			}
			tok[nt].start = (uint32_t)(s - text);
			tok[nt].len = (uint32_t)(p - s);
			p += p < end;
			type = WL_STRING;
			goto emit;
		} else {
			h = (h ^ c) * FNV_PRIME;
			p++;
			type = WL_PUNCT;
		}
		tok[nt].start = (uint32_t)(s - text);
		tok[nt].len = (uint32_t)(p - s);
emit:
		tok[nt].hash = h;
		tok[nt].type = type;
		nt++;
	}
	*lines = nl;
	return nt;
}
