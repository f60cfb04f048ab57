/*
 * parts.c - what an if's condition is made of, as the preprocessed text
 * says: the hint alone, or the hint and then the rest (for hints.c), and
 * how many parts && and || join (for chain.c)
 */
#include <string.h>

#include "judge/judge.h"
#include "judge/parts.h"

const char *lp_judge_skip_literal(const char *p)
{
	char q = *p++;

	while (*p && *p != q && *p != '\n') {
		if (*p == '\\' && p[1])
			p++;
		p++;
	}
	return *p == q ? p + 1 : p;
}

/*
 * Past the __builtin_expect call that starts [@s, @e) (bar white space),
 * its closing parenthesis included; NULL where it does not start so.
 */
static const char *past_hint(const char *s, const char *e)
{
	int depth = 0;

	if (e - s < 16 || memcmp(s, "__builtin_expect", 16))
		return NULL;
	s += 16;
	if (e - s >= 17 && !memcmp(s, "_with_probability", 17))
		s += 17;
	for (; s < e && *s != '('; s++)
		if (!strchr(" \t\n", *s))
			return NULL;
	for (; s < e; s++) {
		if (*s == '"' || *s == '\'') {
			s = lp_judge_skip_literal(s) - 1;
		} else if (*s == '(') {
			depth++;
		} else if (*s == ')' && !--depth) {
			return s + 1;
		}
	}
	return NULL;
}

/*
 * Is the text between an if's parentheses, [@s, @e), one hint and nothing
 * else (bar parentheses)?  Only then does the statement it guards run
 * exactly when the hint's condition held: in "a && likely(b)" it runs
 * when both did.
 */
int lp_judge_whole_condition(const char *s, const char *e)
{
	while (s < e && strchr(" \t\n(", *s))
		s++;
	if (!(s = past_hint(s, e)))
		return 0;
	for (; s < e; s++)
		if (!strchr(" \t\n)", *s))
			return 0;
	return 1;
}

/*
 * Does [@s, @e) hold a test that may be no jump of its own (&&, ||, ?:),
 * or, with @calls, a call (a name and then a parenthesis)?
 */
static int has_tests(const char *s, const char *e, int calls)
{
	int named = 0;		/* the last token was a name */

	for (; s < e; s++) {
		if (*s == '"' || *s == '\'') {
			s = lp_judge_skip_literal(s) - 1;
			named = 0;
		} else if (*s == '?' || (s + 1 < e && ((s[0] == '&' &&
							  s[1] == '&') ||
							 (s[0] == '|' &&
							  s[1] == '|')))) {
			return 1;
		} else if (lp_judge_ident_char(*s)) {
			named = 1;
		} else if (*s == '(' && calls && named) {
			return 1;
		} else if (!strchr(" \t\n", *s)) {
			named = 0;
		}
	}
	return 0;
}

/*
 * An if's condition [@s, @e) that is "HINT && REST" or "HINT || REST",
 * the hint with no call in it and REST of one test with no && or || or
 * ?: in it: the hint is tested first, and REST, its call included, runs
 * exactly when the hint's value did not decide the condition.  The
 * operator ('&' or '|'), REST into *@rest; 0 where it is not so.
 */
int lp_judge_first_part(const char *s, const char *e, const char **rest)
{
	const char *p;
	char op;

	while (s < e && strchr(" \t\n", *s))
		s++;
	if (!(p = past_hint(s, e)) || has_tests(s + 16, p, 1))
		return 0;
	while (p < e && strchr(" \t\n", *p))
		p++;
	if (e - p < 2 || (memcmp(p, "&&", 2) && memcmp(p, "||", 2)))
		return 0;
	op = *p;
	p += 2;
	if (has_tests(p, e, 0))
		return 0;
	*rest = p;
	return op;
}

/*
 * The parts of condition @cond that && and || join, or 0 where a ?: may
 * choose between values with no jump.
 */
size_t lp_judge_cond_parts(const char *cond)
{
	size_t n = 1;
	const char *p = cond;

	while (*p) {
		if (*p == '"' || *p == '\'') {
			p = lp_judge_skip_literal(p);
			continue;
		}
		if (*p == '?')
			return 0;
		if ((p[0] == '&' && p[1] == '&') ||
		    (p[0] == '|' && p[1] == '|')) {
			n++;
			p++;
		}
		p++;
	}
	return n;
}

/* [@s, @e) without white space and enclosing parentheses at both ends. */
static void trim(const char **s, const char **e)
{
	for (;;) {
		const char *a = *s, *b = *e;
		int depth = 0;

		while (a < b && strchr(" \t\n", *a))
			a++;
		while (b > a && strchr(" \t\n", b[-1]))
			b--;
		*s = a;
		*e = b;
		if (b - a < 2 || *a != '(' || b[-1] != ')')
			return;
		/* "(x) && (y)": the first '(' closes before the end */
		for (; a < b - 1; a++) {
			if (*a == '"' || *a == '\'') {
				a = lp_judge_skip_literal(a) - 1;
				continue;
			}
			depth += *a == '(';
			depth -= *a == ')';
			if (!depth)
				return;
		}
		(*s)++;
		(*e)--;
	}
}

/*
 * Is [@s, @e) a constant expression: numbers, operators, parentheses
 * and sizeof(...) (of a type or not, its value fixed by the target)?
 */
static int constant_expr(const char *s, const char *e)
{
	while (s < e) {
		if (e - s > 6 && !memcmp(s, "sizeof", 6) &&
		    !lp_judge_ident_char(s[6])) {
			int depth = 0;

			for (s += 6; s < e && strchr(" \t\n", *s); s++)
				;
			if (s == e || *s != '(')
				return 0;
			for (; s < e; s++) {
				depth += *s == '(';
				if (*s == ')' && !--depth)
					break;
			}
			if (s++ == e)
				return 0;
		} else if (*s >= '0' && *s <= '9') {
			while (s < e && lp_judge_ident_char(*s))
				s++;       /* 8, 0x7f, 8UL */
		} else if (lp_judge_ident_char(*s) ||
			   !strchr(" \t\n()=<>!&|^~+-*/%", *s)) {
			return 0;
		} else {
			s++;
		}
	}
	return 1;
}

/*
 * Does @text define function @name, of no parameters, as "{ return E; }"
 * with E a constant expression?
 */
static int constant_function(const char *text, const char *end,
			     const char *name, size_t n)
{
	const char *p, *q, *r;

	for (p = text; p < end && (p = strstr(p, name)) && p < end; p += n) {
		if ((p > text && lp_judge_ident_char(p[-1])) ||
		    lp_judge_ident_char(p[n]))
			continue;
		for (q = p + n; *q == ' '; q++)
			;
		if (!strncmp(q, "(void)", 6))
			q += 6;
		else if (!strncmp(q, "()", 2))
			q += 2;
		else
			continue;
		while (strchr(" \t\n", *q) && *q)
			q++;
		if (*q++ != '{')
			continue;
		while (strchr(" \t\n", *q) && *q)
			q++;
		if (strncmp(q, "return", 6) || lp_judge_ident_char(q[6]) ||
		    !(r = strchr(q, ';')))
			continue;
		if (!constant_expr(q + 6, r))
			continue;
		for (r++; strchr(" \t\n", *r) && *r; r++)
			;
		if (*r == '}')
			return 1;
	}
	return 0;
}

/* Is [@s, @e) "name()" of such a function of @text (up to @end)? */
static int constant_call(const char *text, const char *end, const char *s,
			 const char *e)
{
	const char *p = s;
	char name[128];

	trim(&s, &e);
	for (p = s; p < e && lp_judge_ident_char(*p); p++)
		;
	if (p == s || (size_t)(p - s) >= sizeof(name) ||
	    (*s >= '0' && *s <= '9'))
		return 0;
	memcpy(name, s, (size_t)(p - s));
	name[p - s] = '\0';
	while (p < e && *p == ' ')
		p++;
	if (e - p < 2 || p[0] != '(')
		return 0;
	for (p++; p < e && strchr(" \t\n", *p); p++)
		;
	if (p != e - 1 || *p != ')')
		return 0;
	return constant_function(text, end, name, strlen(name));
}

int lp_judge_after_constants(const char *text, const char *s, const char *e)
{
	const char *part = s, *p;
	int depth = 0;

	trim(&s, &e);
	for (p = part = s; p < e; p++) {
		if (*p == '"' || *p == '\'') {
			p = lp_judge_skip_literal(p) - 1;
		} else if (*p == '(') {
			depth++;
		} else if (*p == ')') {
			depth--;
		} else if (*p == '?' || (!depth && p[0] == '|' &&
					       p + 1 < e && p[1] == '|')) {
			return 0;
		} else if (!depth && p[0] == '&' && p + 1 < e && p[1] == '&') {
			if (!constant_call(text, s, part, p))
				return 0;
			part = ++p + 1;
		}
	}
	return part != s && lp_judge_whole_condition(part, e);
}
