/*
 * mark.c - the symbol whose name tells how to link the runtime
 *
 * Every instrumented unit refers to it (include/likelyprof.h,
 * LP_RUNTIME_MARK), so a link that lacks the runtime fails with its name
 * in the linker's "undefined reference" line: that line then says how to
 * add the runtime instead of naming an internal function.
 */
#include "likelyprof.h"

LP_API extern const char lp__runtime_mark_ __asm__(LP_RUNTIME_MARK);
LP_API const char lp__runtime_mark_ __asm__(LP_RUNTIME_MARK) = 0;
