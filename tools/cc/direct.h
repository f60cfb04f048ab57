/*
 * direct.h - whether a file calls a builtin hint directly
 * (tools/cc/direct.c)
 */
#ifndef LP_CC_DIRECT_H
#define LP_CC_DIRECT_H

/*! lp_cc_direct_hint() :
 *  Whether the file at @path names __builtin_expect (or
 *  __builtin_expect_with_probability) on a line that is no directive: a
 *  call that the header turns into a macro's expansion, where gcc and
 *  clang keep quiet about what they would say of the condition as the
 *  plain build spells it.  A mention in a comment counts too.
 *  @return : 1 or 0; 0 for a file that cannot be read.
 */
int lp_cc_direct_hint(const char *path);

/*! lp_cc_deps_direct_hint() :
 *  lp_cc_direct_hint() for every header that the dependency file at
 *  @deps lists (its first file, the source, left out), likelyprof.h
 *  (a system header) aside.  @return : 1 or 0; 1 when @deps cannot be
 *  read.
 */
int lp_cc_deps_direct_hint(const char *deps);

#endif /* LP_CC_DIRECT_H */
