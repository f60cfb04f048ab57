/*
 * mark.c - the symbol whose name tells how to link the runtime
 *
 * Every instrumented unit refers to it (include/likelyprof.h,
 * LP_RUNTIME_MARK), so a link that lacks the runtime fails with its name
 * in the linker's "undefined reference" line: that line then says how to
 * add the runtime instead of naming an internal function.  Defined in
 * assembler: a C definition would make AddressSanitizer derive symbol
 * names from it that the assembler cannot read.
 */
#include "likelyprof.h"

__asm__(".pushsection .rodata\n"
	".globl \"" LP_RUNTIME_MARK_TEXT_ "\"\n"
	".type \"" LP_RUNTIME_MARK_TEXT_ "\", @object\n"
	".size \"" LP_RUNTIME_MARK_TEXT_ "\", 1\n"
	"\"" LP_RUNTIME_MARK_TEXT_ "\":\n"
	".byte 0\n"
	".popsection\n");
