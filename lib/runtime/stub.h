/*
 * stub.h - what the runtime knows of the x86-64 stub (stub-x86_64.c)
 */
#ifndef LP_STUB_H
#define LP_STUB_H

#if defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__)
/*
 * Non-zero while this thread is in a first count that the compiler could
 * not see: nothing may then write memory of the program's, nor call what
 * could come back into it (malloc).
 */
extern __thread unsigned lp__stub_depth
	__attribute__((tls_model("initial-exec")));
#define LP_IN_STUB() (lp__stub_depth != 0)
#define LP_HAVE_STUB_ 1
#else
#define LP_IN_STUB() 0
#endif

#endif
