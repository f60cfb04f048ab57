/*
 * progress.h - signs of life on stderr for work that takes a while
 *
 * A command that may take seconds (merge and check of big profiles, run
 * gathering many processes) says what it is doing, as git does: on a
 * terminal one line rewritten in place and cleared at the end, or with
 * --progress a line per step wherever stderr goes.  Nothing is shown
 * for work that ends within LIKELYPROF_PROGRESS_DELAY seconds (default 2)
 * of the first step, unless a step is known to be big (a large file);
 * then a line at most every second (a terminal's ten times a second), or
 * every step with a delay of 0.  Results never go there: stdout is
 * unchanged.
 */
#ifndef LP_PROGRESS_H
#define LP_PROGRESS_H

#include <stddef.h>

#include "usage.h"

/*! lp_progress_setup() :
 *  @forced : --progress was given.  Otherwise progress shows only when
 *  stderr is a terminal.
 */
void lp_progress_setup(int forced);

/*! lp_progress() :
 *  One step: "likelyprof: reading a.lprof (3 of 8)".  Shown when enough
 *  time has passed since the first step, or at once when @big.
 */
LP_PRINTF(2, 3) void lp_progress(int big, const char *fmt, ...);

/*! lp_progress_big() :
 *  True for a file of @bytes that is worth a sign of life at once.
 */
int lp_progress_big(unsigned long long bytes);

/*! lp_progress_option() :
 *  True (and progress forced on) when @arg is "--progress": a command's
 *  option parser asks it first.
 */
int lp_progress_option(const char *arg);

/* The size of file @path, 0 for "-" or one that cannot be read. */
unsigned long long lp_progress_file_size(const char *path);

/*! lp_progress_end() :
 *  The work is done: a terminal's progress line is cleared.
 */
void lp_progress_end(void);

#endif /* LP_PROGRESS_H */
