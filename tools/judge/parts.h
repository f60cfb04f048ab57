/*
 * parts.h - what an if's condition is made of (tools/judge/parts.c)
 */
#ifndef LP_JUDGE_PARTS_H
#define LP_JUDGE_PARTS_H

#include <stddef.h>

/* Past the string or character literal starting at @p. */
const char *lp_judge_skip_literal(const char *p);

/*! lp_judge_whole_condition() :
 *  Is the text between an if's parentheses, [@s, @e), one hint and
 *  nothing else (bar parentheses)?
 */
int lp_judge_whole_condition(const char *s, const char *e);

/*! lp_judge_first_part() :
 *  Is [@s, @e) "HINT && REST" or "HINT || REST", the hint with no call
 *  in it and REST one test with no &&, || or ?: in it?
 *  @return : the operator ('&' or '|') with REST's start in *@rest, or 0.
 */
int lp_judge_first_part(const char *s, const char *e, const char **rest);

/*! lp_judge_cond_parts() :
 *  The parts of condition @cond that && and || join, or 0 where a ?:
 *  may choose between values with no jump.
 */
size_t lp_judge_cond_parts(const char *cond);

/*! lp_judge_after_constants() :
 *  Is [@s, @e) "K && ... && HINT", the hint last, each K "F()", F a
 *  function that @text (the unit, NUL-ended) defines before @s with no
 *  parameters as "{ return E; }", E a constant expression (zstd's
 *  MEM_64bits()), or a parameter of @func, the hint's static function,
 *  to which every call passes a constant expression (lz4's
 *  initial_check)?  Where the condition has code at all, every K held,
 *  and the statement runs exactly when the hint's condition did: the
 *  hint is the whole.
 *  @return : LP_AFTER_CALLS, LP_AFTER_PARAMETERS where a K is such a
 *            parameter (a constant only where @func is inlined into a
 *            caller), or 0.
 */
#define LP_AFTER_CALLS 1
#define LP_AFTER_PARAMETERS 2
int lp_judge_after_constants(const char *text, const char *func,
			     const char *s, const char *e);

#endif /* LP_JUDGE_PARTS_H */
