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

/* The end of the word @n long at @p, where @p is a whole word; else NULL. */
static const char *whole_word(const char *text, const char *p, size_t n)
{
	if ((p > text && lp_judge_ident_char(p[-1])) ||
	    lp_judge_ident_char(p[n]))
		return NULL;
	return p + n;
}

/* Past white space. */
static const char *blank(const char *p)
{
	while (*p && strchr(" \t\n", *p))
		p++;
	return p;
}

/*
 * The end of argument @k (from 0) of the call whose '(' is at @p, its
 * start in *@at; NULL where it has fewer, or the text ends.
 */
static const char *argument(const char *p, size_t k, const char **at)
{
	int depth = 0;

	for (*at = ++p; *p; p++) {
		if (*p == '"' || *p == '\'') {
			p = lp_judge_skip_literal(p) - 1;
		} else if (*p == '(' || *p == '[' || *p == '{') {
			depth++;
		} else if ((*p == ')' || *p == ']' || *p == '}') && depth) {
			depth--;
		} else if (!depth && (*p == ',' || *p == ')')) {
			if (!k--)
				return p;
			if (*p == ')')
				return NULL;
			*at = p + 1;
		}
	}
	return NULL;
}

/* Does the operator at @w assign to what stands before it? */
static int assigns(const char *w)
{
	if (w[0] == '=')
		return w[1] != '=';
	if (w[0] && strchr("+-*/%&|^", w[0]) && w[1] == '=')
		return 1;
	if ((w[0] == '<' || w[0] == '>') && w[1] == w[0] && w[2] == '=')
		return 1;
	return (w[0] == '+' || w[0] == '-') && w[1] == w[0];
}

/*
 * Is @name (@n long) the parameter of the function defined at @def (its
 * name, then the parameters' '(') whose number goes to *@k, never
 * assigned, incremented or addressed in its body?  Its value is then the
 * one each call passes.
 */
static int fixed_parameter(const char *def, const char *name, size_t n,
			   size_t *k)
{
	const char *a, *z, *p, *w;
	int depth = 0;

	for (*k = 0; (z = argument(def, *k, &a)); ++*k) {
		for (w = NULL, p = a; p < z; p++)
			if (lp_judge_ident_char(*p) &&
			    (p == a || !lp_judge_ident_char(p[-1])))
				w = p;
		if (w && z - w == (long)n && !strncmp(w, name, n))
			break;
	}
	/* past the parameters' ')', the body */
	for (p = def; z && *p && (*p != ')' || --depth); p++)
		depth += *p == '(';
	if (!z || !*p || *(p = blank(p + 1)) != '{')
		return 0;
	for (; *p; p++) {
		depth += *p == '{';
		if (*p == '}' && !--depth)
			return 1;
		if (*p == '"' || *p == '\'')
			p = lp_judge_skip_literal(p) - 1;
		else if (!strncmp(p, name, n) && (w = whole_word(def, p, n)) &&
			 assigns(blank(w)))
			return 0;
		else if (*p == '&' && p[1] != '&' && p[-1] != '&' &&
			 !strncmp(blank(p + 1), name, n))
			return 0;
		else if ((*p == '+' || *p == '-') && p[1] == *p &&
			 !strncmp(blank(p + 2), name, n))
			return 0;
	}
	return 0;
}

/*
 * Is [@s, @e) a parameter of @func, a static function of @text that
 * every call passes a constant expression there, and whose name is used
 * by nothing else (no address taken)?  Where the function is inlined
 * into a caller, the part is then a constant there (lz4's
 * read_variable_length(..., 1) and its "initial_check && unlikely(x)").
 */
static int constant_parameter(const char *text, const char *func,
			      const char *s, const char *e)
{
	size_t n = strlen(func), k = 0;
	const char *p, *w, *a, *z, *def = NULL;
	int depth = 0, calls = 0;

	trim(&s, &e);
	for (p = s; p < e && lp_judge_ident_char(*p); p++)
		;
	if (!n || p != e || p == s || (*s >= '0' && *s <= '9'))
		return 0;
	for (p = text; *p; p++) {
		if (*p == '"' || *p == '\'') {
			p = lp_judge_skip_literal(p) - 1;
			continue;
		}
		depth += (*p == '{') - (*p == '}');
		if (strncmp(p, func, n) || !(w = whole_word(text, p, n)))
			continue;
		if (*(w = blank(w)) != '(')
			return 0;       /* its address taken */
		if (depth) {
			z = argument(w, k, &a);
			if (!def || !z || !constant_expr(a, z))
				return 0;
			calls++;
		} else if (!def && fixed_parameter(w, s, (size_t)(e - s), &k)) {
			def = w;
			/* static, as the specifiers before its name say */
			for (a = p; a > text && !strchr(";}", a[-1]); a--)
				;
			for (; a < p && (strncmp(a, "static", 6) ||
					 !whole_word(text, a, 6)); a++)
				;
			if (a == p)
				return 0;
		}
		p = w;
	}
	return def && calls;
}

int lp_judge_after_constants(const char *text, const char *func,
			     const char *s, const char *e)
{
	const char *part = s, *p;
	int depth = 0, params = 0;

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
			if (!constant_call(text, s, part, p) &&
			    !(params = constant_parameter(text, func, part,
							  p)))
				return 0;
			part = ++p + 1;
		}
	}
	if (part == s || !lp_judge_whole_condition(part, e))
		return 0;
	return params ? LP_AFTER_PARAMETERS : LP_AFTER_CALLS;
}
