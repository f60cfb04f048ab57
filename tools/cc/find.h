/*
 * find.h - finding ourselves, the header, the runtime and the compiler
 * (tools/cc/find.c)
 */
#ifndef LP_CC_FIND_H
#define LP_CC_FIND_H

#include "spawn.h"

/* Is there a file @name in @dir? */
int lp_cc_file_exists(const char *dir, const char *name);

/*
 * The folders of likelyprof.h (*@inc) and of the runtime (*@lib), from
 * the environment or beside the command; 0, or -1 when one is missing.
 */
int lp_cc_find_dirs(char **inc, char **lib);

/*
 * The compiler of `likelyprof cc`: the words of $@var (CC or CXX), or
 * @dflt where $@var leads back to likelyprof (or is set in a compiler
 * likelyprof started: @reentered), pushed onto @a; the return value
 * holds them and is freed when @a is done.
 */
char *lp_cc_compiler_from_env(struct lp_args *a, const char *var,
			      const char *dflt, int reentered);

/* Is the TLS setting of the environment one the runtime can use? */
int lp_cc_tls_setting_valid(void);

/* Do -fPIC counters take the initial-exec TLS model here? */
int lp_cc_pic_tls_initial_exec(void);

/* Does @compiler accept @option (a probe on /dev/null)? */
int lp_cc_accepts_option(const struct lp_args *compiler, const char *option);

#endif /* LP_CC_FIND_H */
