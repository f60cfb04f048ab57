/*
 * json.c - JSON strings for the outputs of report and check
 */
#include <stddef.h>
#include <stdio.h>

#include "json.h"

size_t lp_utf8_len(const unsigned char *s)
{
	size_t n, i;
	unsigned min, cp;

	if (s[0] < 0xc2 || s[0] > 0xf4)
		return 0;
	if (s[0] < 0xe0) {
		n = 2, min = 0x80, cp = s[0] & 0x1f;
	} else if (s[0] < 0xf0) {
		n = 3, min = 0x800, cp = s[0] & 0x0f;
	} else {
		n = 4, min = 0x10000, cp = s[0] & 0x07;
	}
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if (cp < min || cp > 0x10ffff || (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

/*
 * A byte that is not part of valid UTF-8 is written as \u00XX, which
 * keeps the output valid JSON at the price of reading it as Latin-1.
 */
void lp_json_str(const char *str)
{
	const unsigned char *s = (const unsigned char *)(str ? str : "");

	putchar('"');
	while (*s) {
		size_t n;

		if (*s == '"' || *s == '\\') {
			putchar('\\');
			putchar(*s++);
		} else if (*s < 0x20 || *s == 0x7f) {
			printf("\\u%04x", *s++);
		} else if (*s < 0x80) {
			putchar(*s++);
		} else if ((n = lp_utf8_len(s))) {
			fwrite(s, 1, n, stdout);
			s += n;
		} else {
			printf("\\u%04x", *s++);
		}
	}
	putchar('"');
}
