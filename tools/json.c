/*
 * json.c - JSON strings for the outputs of report and check
 */
#include <ctype.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "json.h"
#include "usage.h"

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

/* --- reading ------------------------------------------------------------ */

#define LP_JSON_MAX_DEPTH 256

struct json_in {
	const char *p, *end;
	long line;
	const char *why;
};

static int json_fail(struct json_in *in, const char *why)
{
	if (!in->why)
		in->why = why;
	return -1;
}

static void json_blanks(struct json_in *in)
{
	while (in->p < in->end && (*in->p == ' ' || *in->p == '\t' ||
				   *in->p == '\n' || *in->p == '\r')) {
		in->line += *in->p == '\n';
		in->p++;
	}
}

/* Appends code point @cp to @buf (room for 4 bytes) as UTF-8. */
static size_t utf8_put(char *buf, unsigned cp)
{
	if (cp < 0x80) {
		buf[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		buf[0] = (char)(0xc0 | cp >> 6);
		buf[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		buf[0] = (char)(0xe0 | cp >> 12);
		buf[1] = (char)(0x80 | (cp >> 6 & 0x3f));
		buf[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	buf[0] = (char)(0xf0 | cp >> 18);
	buf[1] = (char)(0x80 | (cp >> 12 & 0x3f));
	buf[2] = (char)(0x80 | (cp >> 6 & 0x3f));
	buf[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

static int hex4(struct json_in *in, unsigned *cp)
{
	int i;

	*cp = 0;
	if (in->end - in->p < 4)
		return json_fail(in, "truncated \\u escape");
	for (i = 0; i < 4; i++) {
		char c = *in->p++;
		unsigned d = c >= '0' && c <= '9' ? (unsigned)(c - '0') :
			     c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10) :
			     c >= 'A' && c <= 'F' ? (unsigned)(c - 'A' + 10) :
			     16;

		if (d > 15)
			return json_fail(in, "bad \\u escape");
		*cp = *cp << 4 | d;
	}
	return 0;
}

/* \uXXXX, with its low half when it is a high surrogate. */
static int json_unicode(struct json_in *in, unsigned *cp)
{
	unsigned lo;

	if (hex4(in, cp) < 0)
		return -1;
	if (*cp >= 0xdc00 && *cp <= 0xdfff)
		return json_fail(in, "lone low surrogate in \\u escape");
	if (*cp < 0xd800 || *cp > 0xdbff)
		return 0;
	if (in->end - in->p < 2 || in->p[0] != '\\' || in->p[1] != 'u')
		return json_fail(in, "lone high surrogate in \\u escape");
	in->p += 2;
	if (hex4(in, &lo) < 0)
		return -1;
	if (lo < 0xdc00 || lo > 0xdfff)
		return json_fail(in, "bad surrogate pair in \\u escape");
	*cp = 0x10000 + ((*cp - 0xd800) << 10) + (lo - 0xdc00);
	return 0;
}

static int json_escape(struct json_in *in, char *buf, size_t *n)
{
	static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
	const char *k;
	unsigned cp;

	if (in->p >= in->end)
		return json_fail(in, "unterminated string");
	k = strchr(from, *in->p);
	if (k && *k) {
		buf[(*n)++] = to[k - from];
		in->p++;
		return 0;
	}
	if (*in->p != 'u')
		return json_fail(in, "bad escape in string");
	in->p++;
	if (json_unicode(in, &cp) < 0)
		return -1;
	*n += utf8_put(buf + *n, cp);
	return 0;
}

/* A string at in->p (its opening quote), decoded into a malloc'd buffer. */
static int json_string(struct json_in *in, char **out, size_t *len)
{
	const char *start = ++in->p;
	char *buf;
	size_t n = 0;

	while (in->p < in->end && *in->p != '"')
		in->p += *in->p == '\\' && in->end - in->p > 1 ? 2 : 1;
	if (in->p >= in->end)
		return json_fail(in, "unterminated string");
	/* decoded, it is never longer than written */
	buf = lp_xmalloc((size_t)(in->p - start) + 1);
	in->p = start;
	while (*in->p != '"') {
		unsigned char c = (unsigned char)*in->p;

		if (c < 0x20) {
			free(buf);
			return json_fail(in, "control character in string");
		}
		if (c != '\\') {
			buf[n++] = (char)c;
			in->p++;
			continue;
		}
		in->p++;
		if (json_escape(in, buf, &n) < 0) {
			free(buf);
			return -1;
		}
	}
	in->p++;
	buf[n] = '\0';
	*out = buf;
	*len = n;
	return 0;
}

static int json_number(struct json_in *in, struct lp_json *v)
{
	const char *s = in->p;

	if (in->p < in->end && *in->p == '-')
		in->p++;
	if (in->p >= in->end || !isdigit((unsigned char)*in->p))
		return json_fail(in, "bad number");
	if (*in->p == '0')
		in->p++;
	else
		while (in->p < in->end && isdigit((unsigned char)*in->p))
			in->p++;
	if (in->p < in->end && *in->p == '.') {
		if (++in->p >= in->end || !isdigit((unsigned char)*in->p))
			return json_fail(in, "bad number");
		while (in->p < in->end && isdigit((unsigned char)*in->p))
			in->p++;
	}
	if (in->p < in->end && (*in->p == 'e' || *in->p == 'E')) {
		in->p++;
		if (in->p < in->end && (*in->p == '+' || *in->p == '-'))
			in->p++;
		if (in->p >= in->end || !isdigit((unsigned char)*in->p))
			return json_fail(in, "bad number");
		while (in->p < in->end && isdigit((unsigned char)*in->p))
			in->p++;
	}
	v->type = LP_JSON_NUMBER;
	v->len = (size_t)(in->p - s);
	v->str = lp_xmalloc(v->len + 1);
	memcpy(v->str, s, v->len);
	v->str[v->len] = '\0';
	return 0;
}

static int json_value(struct json_in *in, struct lp_json *v, int depth);

/* The items of an array or object, after its opening bracket. */
static int json_items(struct json_in *in, struct lp_json *v, int depth)
{
	int is_obj = v->type == LP_JSON_OBJECT;
	char close = is_obj ? '}' : ']';
	size_t alloc = 0;

	json_blanks(in);
	if (in->p < in->end && *in->p == close) {
		in->p++;
		return 0;
	}
	for (;;) {
		if (v->nr == alloc) {
			alloc = alloc ? 2 * alloc : 4;
			v->items = lp_xrealloc(v->items,
					       alloc * sizeof(*v->items));
			if (is_obj)
				v->keys = lp_xrealloc(v->keys,
						      alloc * sizeof(*v->keys));
		}
		memset(&v->items[v->nr], 0, sizeof(v->items[v->nr]));
		if (is_obj) {
			size_t klen;

			json_blanks(in);
			if (in->p >= in->end || *in->p != '"')
				return json_fail(in, "expected a member name");
			if (json_string(in, &v->keys[v->nr], &klen) < 0)
				return -1;
			json_blanks(in);
			if (in->p >= in->end || *in->p != ':') {
				free(v->keys[v->nr]);
				return json_fail(in, "expected ':'");
			}
			in->p++;
		}
		v->nr++;
		if (json_value(in, &v->items[v->nr - 1], depth + 1) < 0)
			return -1;
		json_blanks(in);
		if (in->p < in->end && *in->p == ',') {
			in->p++;
			continue;
		}
		if (in->p < in->end && *in->p == close) {
			in->p++;
			return 0;
		}
		return json_fail(in, is_obj ? "expected ',' or '}'" :
				 "expected ',' or ']'");
	}
}

static int json_word(struct json_in *in, const char *w)
{
	size_t n = strlen(w);

	if ((size_t)(in->end - in->p) < n || memcmp(in->p, w, n))
		return json_fail(in, "unexpected character");
	in->p += n;
	return 0;
}

static int json_value(struct json_in *in, struct lp_json *v, int depth)
{
	json_blanks(in);
	if (depth > LP_JSON_MAX_DEPTH)
		return json_fail(in, "nested too deeply");
	if (in->p >= in->end)
		return json_fail(in, "unexpected end of file");
	switch (*in->p) {
	case '{':
	case '[':
		v->type = *in->p++ == '{' ? LP_JSON_OBJECT : LP_JSON_ARRAY;
		return json_items(in, v, depth);
	case '"':
		v->type = LP_JSON_STRING;
		return json_string(in, &v->str, &v->len);
	case 't':
	case 'f':
		v->type = LP_JSON_BOOL;
		v->boolean = *in->p == 't';
		return json_word(in, v->boolean ? "true" : "false");
	case 'n':
		v->type = LP_JSON_NULL;
		return json_word(in, "null");
	default:
		if (*in->p != '-' && !isdigit((unsigned char)*in->p))
			return json_fail(in, "unexpected character");
		return json_number(in, v);
	}
}

int lp_json_parse(struct lp_json *out, const char *text, size_t len,
		  long *line, const char **why)
{
	struct json_in in = { text, text + len, 1, NULL };

	memset(out, 0, sizeof(*out));
	if (json_value(&in, out, 0) == 0) {
		json_blanks(&in);
		if (in.p == in.end)
			return 0;
		json_fail(&in, "text after the value");
	}
	lp_json_release(out);
	*line = in.line;
	*why = in.why;
	return -1;
}

void lp_json_release(struct lp_json *j)
{
	size_t i;

	if (!j)
		return;
	for (i = 0; i < j->nr; i++) {
		lp_json_release(&j->items[i]);
		if (j->keys)
			free(j->keys[i]);
	}
	free(j->items);
	free(j->keys);
	free(j->str);
	memset(j, 0, sizeof(*j));
}

const struct lp_json *lp_json_get(const struct lp_json *obj, const char *key)
{
	size_t i = obj && obj->type == LP_JSON_OBJECT ? obj->nr : 0;

	while (i-- > 0)
		if (!strcmp(obj->keys[i], key))
			return &obj->items[i];
	return NULL;
}
