/*
 * stub-x86_64.c - the first count of a site, called where the compiler
 * cannot see a call.
 *
 * On x86-64 a C site's increment and its test for the thread's first
 * count are one asm statement (likelyprof.h, LP_STUB_TICK_), and the cold
 * path it jumps to lives in the same asm: the compiler sees no call.  A
 * visible call, even one never taken, makes the function a caller: the
 * values it keeps across the call move to callee-saved registers, pushed
 * and popped on every entry, and a leaf loses its red zone.  jemalloc's
 * free() went from no push at all to six pushes, six pops and a stack
 * frame.  Hidden, the cold path must itself keep every register, flags
 * aside ("cc" is the asm's one clobber), and so it does: the asm steps
 * over the red zone, saves %rax, pushes its arguments and calls
 * lp__enter_stub, which saves the other caller-saved registers, tries
 * lp__stub_fast() (C built for the general registers only), and else
 * saves the x87/SSE/AVX/AVX-512 state before any other C runs.
 *
 * The compiler also believes no memory changed, so what runs from here
 * must not write any memory the program can see: the runtime's own state
 * only.  It never calls malloc (the program may be the malloc, halfway
 * through its own bookkeeping) and, with lp__stub_depth set, lp__enter
 * skips the two steps that may allocate (runtime.c).
 */
#include "likelyprof.h"
#include "stub.h"

#if defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__)

/*
 * Bytes of the save area: 0 until the first call measures it; bit 31
 * set means the CPU has no XSAVE and the 512-byte FXSAVE area serves.
 * Measured by the stub itself, before any C code could touch a vector
 * register.  Two threads measuring at once write the same value.
 */
__attribute__((used, visibility("hidden"))) unsigned lp__stub_area;

/*
 * On entry: 8(%rsp) the site, 16(%rsp) the module's lp__enter_cold,
 * 24(%rsp) the counter, pushed by the asm below the red zone.  Most first
 * counts are registered by lp__stub_fast() (threads.c), built to touch no
 * register but the general ones, so only those are saved first; the
 * others go on to lp__stub_call() and the module's lp__enter_cold with
 * the vector state saved too.  The components saved are x87, SSE, AVX
 * and AVX-512 (mask 0xe7): what a C function or glibc's string functions
 * may change.  The area is sized from CPUID leaf 0xd for those
 * components only, so a CPU with AMX does not cost 8 KiB of stack per
 * call.
 */
__asm__(
	".text\n"
	".globl lp__enter_stub\n"
	".type lp__enter_stub, @function\n"
	".p2align 4\n"
	"lp__enter_stub:\n"
	".cfi_startproc\n"
	"endbr64\n"
	"pushq %rbp\n"
	".cfi_def_cfa_offset 16\n"
	".cfi_offset %rbp, -16\n"
	"movq %rsp, %rbp\n"
	".cfi_def_cfa_register %rbp\n"
	"pushq %rax\n"
	"pushq %rbx\n"
	"pushq %rcx\n"
	"pushq %rdx\n"
	"pushq %rsi\n"
	"pushq %rdi\n"
	"pushq %r8\n"
	"pushq %r9\n"
	"pushq %r10\n"
	"pushq %r11\n"
	"andq $-16, %rsp\n"
	"movq 32(%rbp), %rdi\n"         /* counter */
	"movq 16(%rbp), %rsi\n"         /* site */
	"call lp__stub_fast\n"
	"testl %eax, %eax\n"
	"jnz 10f\n"
	"movl lp__stub_area(%rip), %eax\n"
	"testl %eax, %eax\n"
	"jnz 1f\n"
	/* measure: FXSAVE's 512 bytes without OSXSAVE */
	"movl $1, %eax\n"
	"cpuid\n"
	"movl $0x80000200, %esi\n"
	"btl $27, %ecx\n"
	"jnc 3f\n"
	"movl $576, %esi\n"             /* legacy area and header */
	"movl $2, %edi\n"
	"4:\n"
	"movl $0xd, %eax\n"
	"movl %edi, %ecx\n"
	"cpuid\n"                       /* %eax size, %ebx offset */
	"testl %eax, %eax\n"
	"jz 5f\n"
	"addl %ebx, %eax\n"
	"cmpl %esi, %eax\n"
	"cmoval %eax, %esi\n"
	"5:\n"
	"incl %edi\n"
	"cmpl $3, %edi\n"               /* 3 and 4 are MPX's: not saved */
	"jne 6f\n"
	"movl $5, %edi\n"
	"6:\n"
	"cmpl $8, %edi\n"
	"jb 4b\n"
	"3:\n"
	"movl %esi, lp__stub_area(%rip)\n"
	"movl %esi, %eax\n"
	"1:\n"
	"movl %eax, %ecx\n"
	"andl $0x7fffffff, %ecx\n"
	"subq %rcx, %rsp\n"
	"andq $-64, %rsp\n"
	"testl %eax, %eax\n"
	"js 7f\n"
	/* XRSTOR faults on a header with reserved bits set: clear it */
	"xorl %ecx, %ecx\n"
	"movq %rcx, 512(%rsp)\n"
	"movq %rcx, 520(%rsp)\n"
	"movq %rcx, 528(%rsp)\n"
	"movq %rcx, 536(%rsp)\n"
	"movq %rcx, 544(%rsp)\n"
	"movq %rcx, 552(%rsp)\n"
	"movq %rcx, 560(%rsp)\n"
	"movq %rcx, 568(%rsp)\n"
	"movl $0xe7, %eax\n"
	"xorl %edx, %edx\n"
	"xsave (%rsp)\n"
	"jmp 8f\n"
	"7:\n"
	"fxsave (%rsp)\n"
	"8:\n"
	"movq 32(%rbp), %rdi\n"         /* counter */
	"movq 16(%rbp), %rsi\n"         /* site */
	"movq 24(%rbp), %rdx\n"         /* the module's lp__enter_cold */
	"call lp__stub_call\n"
	"movl lp__stub_area(%rip), %eax\n"
	"testl %eax, %eax\n"
	"js 9f\n"
	"movl $0xe7, %eax\n"
	"xorl %edx, %edx\n"
	"xrstor (%rsp)\n"
	"jmp 10f\n"
	"9:\n"
	"fxrstor (%rsp)\n"
	"10:\n"
	"leaq -80(%rbp), %rsp\n"
	"popq %r11\n"
	"popq %r10\n"
	"popq %r9\n"
	"popq %r8\n"
	"popq %rdi\n"
	"popq %rsi\n"
	"popq %rdx\n"
	"popq %rcx\n"
	"popq %rbx\n"
	"popq %rax\n"
	"popq %rbp\n"
	".cfi_def_cfa %rsp, 8\n"
	"ret\n"
	".cfi_endproc\n"
	".size lp__enter_stub, .-lp__enter_stub\n");

#else
/* ISO C wants a declaration in every translation unit. */
typedef int lp_stub_none_;
#endif
