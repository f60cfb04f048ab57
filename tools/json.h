/*
 * json.h - JSON strings for the outputs of report and check
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

#endif /* LP_JSON_H */
