/*
 * json.h - JSON for the outputs of report and check, and a reader for
 * the JSON files of other tools
 */
#ifndef LP_JSON_H
#define LP_JSON_H

#include <stddef.h>

/*! lp_utf8_len() :
 *  @return : the length of the valid UTF-8 sequence at @s, or 0 when
 *            it is not one (the HTML page shares the rule).
 */
size_t lp_utf8_len(const unsigned char *s);

/*! lp_json_str() :
 *  Prints @str on stdout as a JSON string, quotes included: '"' and '\\'
 *  escaped, control bytes and DEL as \u00XX, and so is any byte that is
 *  not part of valid UTF-8 (a path in another encoding), so the output is
 *  always valid JSON.  NULL prints as "".
 */
void lp_json_str(const char *str);

/*
 * A parsed JSON value, for the files others write that likelyprof reads
 * (compile_commands.json).  Strings are decoded to UTF-8; a number keeps
 * its text.
 */
enum lp_json_type {
	LP_JSON_NULL, LP_JSON_BOOL, LP_JSON_NUMBER, LP_JSON_STRING,
	LP_JSON_ARRAY, LP_JSON_OBJECT
};

struct lp_json {
	enum lp_json_type type;
	char *str;              /* STRING: its bytes; NUMBER: its text */
	size_t len;             /* STRING: its length (it may hold NULs) */
	int boolean;
	struct lp_json *items;  /* ARRAY and OBJECT: the values */
	char **keys;            /* OBJECT: the names, one per item */
	size_t nr;
};

/*! lp_json_parse() :
 *  Parses the @len bytes at @text, which must hold one JSON value (RFC
 *  8259) and blanks around it.  Nesting deeper than 256 is refused.
 *  @return : 0 with *@out to release, or -1 with *@line (1-based) and
 *            *@why (a static string) saying where and what is wrong.
 */
int lp_json_parse(struct lp_json *out, const char *text, size_t len,
		  long *line, const char **why);
void lp_json_release(struct lp_json *j);

/*! lp_json_get() :
 *  @return : the member @key of object @obj (the last of that name), or
 *            NULL when @obj is no object or has none.
 */
const struct lp_json *lp_json_get(const struct lp_json *obj,
				  const char *key);

#endif /* LP_JSON_H */
