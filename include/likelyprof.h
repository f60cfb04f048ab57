/*
 * likelyprof.h - the one public header of likelyprof
 *
 * Two uses, chosen by one macro:
 *
 *  1. Adopted by a project (#include <likelyprof.h>): plain likely() and
 *     unlikely() macros, nothing else changes, nothing is linked.
 *
 *  2. Force-included by the profiling build, with LIKELYPROF_INSTRUMENT
 *     defined:
 *
 *         cc -DLIKELYPROF_INSTRUMENT -include likelyprof.h ... -llikelyprof
 *
 *     (`likelyprof cc` adds exactly these flags.)  Every __builtin_expect()
 *     of the translation unit becomes a counted site, whatever macro spells
 *     it (likely, LIKELY, expect(x,1), a bare __builtin_expect), with no
 *     change to the source.  The runtime writes one profile per process at
 *     exit; doc/FORMAT.md describes the file.
 *
 * Invariants of the instrumentation, each one a promise to the profiled
 * program:
 *  - the condition keeps its value and type (long, as __builtin_expect
 *    returns) and is evaluated exactly once;
 *  - the hint still reaches the compiler: the value is passed on to the real
 *    builtin, so code layout is what the plain build would get;
 *  - counting is exact in any number of threads and takes no lock and no
 *    locked instruction (doc/DESIGN.md shows the instructions);
 *  - where an expression must be constant (case labels, enum values,
 *    _Static_assert, array sizes, static initializers) the plain builtin is
 *    used and the site is not profiled.  At file scope C offers no way to
 *    declare the per-site objects, so there the plain builtin must be used
 *    too: `likelyprof cc` recompiles such a file without instrumentation
 *    and says so (doc/DESIGN.md, "Where a site cannot be counted").
 */
/*
 * A project's own #include <likelyprof.h> in an instrumented build finds
 * the header already read (force-included): it still gets likely() and
 * unlikely(), counted like every other hint.  The force-included reading
 * itself defines neither, so a project that defines its own after it
 * draws no redefinition warning.
 */
#if defined(LIKELYPROF_H) && defined(LIKELYPROF_INSTRUMENT) && \
	!defined(LP_SYSTEM_PASS_)
#ifndef likely
#define likely(x) LP_LIKELY(x)
#endif
#ifndef unlikely
#define unlikely(x) LP_UNLIKELY(x)
#endif
#endif

#if !defined(LIKELYPROF_H) && !defined(LP_SYSTEM_PASS_) && \
	defined(__GNUC__) && !defined(__ASSEMBLER__)
/* read the body again, nested, as a system header (see below) */
#define LP_SYSTEM_PASS_ 1
#include "likelyprof.h"
#undef LP_SYSTEM_PASS_
#endif

#ifndef LIKELYPROF_H
#define LIKELYPROF_H

/* The header may reach assembler files through CFLAGS (zstd passes them to
 * .S files); there it must be empty. */
#ifndef __ASSEMBLER__

/*
 * The body is read as a system header, so that what the macros expand to
 * draws no warning in the project's code: a static counter inside glibc's
 * extern inline getc_unlocked() would otherwise be a pedantic error under
 * -Werror.  Warnings about the project's own expressions stay, because
 * those tokens are spelled in its files.  The pragma sits in a second,
 * nested reading of this same file: gcc 12 lets the pragma in a
 * -include'd file silence every warning of the main file, but scopes it
 * right in a file that one includes.
 */
#ifdef LP_SYSTEM_PASS_
#pragma GCC system_header
#endif

#ifdef __cplusplus
extern "C" {
#endif

/*-************************************
 *  Version
 **************************************/
#define LP_VERSION_MAJOR    0
#define LP_VERSION_MINOR    1
#define LP_VERSION_RELEASE  0
#define LP_VERSION_NUMBER \
	(LP_VERSION_MAJOR * 10000 + LP_VERSION_MINOR * 100 + LP_VERSION_RELEASE)
#define LP_STRINGIFY_(x) #x
#define LP_STRINGIFY(x) LP_STRINGIFY_(x)
#define LP_VERSION_STRING                    \
	LP_STRINGIFY(LP_VERSION_MAJOR) "."   \
	LP_STRINGIFY(LP_VERSION_MINOR) "."   \
	LP_STRINGIFY(LP_VERSION_RELEASE)

/*
 * LP_API marks what the shared runtime exports; everything else in it is
 * built with -fvisibility=hidden.
 */
#if defined(__GNUC__) && __GNUC__ >= 4
#define LP_API __attribute__((visibility("default")))
#else
#define LP_API
#endif

/*! lp_version_number() :
 *  @return : LP_VERSION_NUMBER of the runtime that is linked in, which may
 *            differ from the header's when a shared runtime was upgraded.
 */
LP_API unsigned lp_version_number(void);

/*-************************************
 *  Plain hints
 **************************************/
/*
 * LP_LIKELY()/LP_UNLIKELY() are always available.  likely()/unlikely() are
 * defined only when the header is included without instrumentation and the
 * project has not defined them: a force-included header must never clash
 * with a project's own definitions.
 */
#define LP_LIKELY(x)   __builtin_expect(!!(x), 1)
#define LP_UNLIKELY(x) __builtin_expect(!!(x), 0)

#if !defined(LIKELYPROF_INSTRUMENT)
#ifndef likely
#define likely(x) LP_LIKELY(x)
#endif
#ifndef unlikely
#define unlikely(x) LP_UNLIKELY(x)
#endif
#endif

/*-************************************
 *  Errors
 **************************************/
/*
 * Every call of the library returns 0 or a negative -LP_E* code.  The list
 * is append-only: a code keeps its number forever.
 */
enum lp_error {
	LP_OK = 0,
	LP_ENOMEM = 1,    /* out of memory */
	LP_EIO = 2,       /* a system call failed; errno tells which */
	LP_EPARSE = 3,    /* malformed input; the diagnostic names file:line */
	LP_EVERSION = 4,  /* profile format version this build cannot read */
	LP_EINVAL = 5,    /* invalid argument */
	LP_ETRUNC = 6,    /* profile ends before its trailer */
	LP_EBUSY = 7,     /* a dump is already in progress; try again */
	LP_ERANGE = 8,    /* a number does not fit */
	LP_EEMPTY = 9,    /* input holds no site */
	LP_ENOENT = 10,   /* no such file */
	LP_EBINARY = 11,  /* input is not text */
	LP_ECONFLICT = 12 /* inputs disagree (version, layout) */
};

/*! lp_strerror() :
 *  @code : a value returned by a likelyprof call, with or without its sign.
 *  @return : a static string naming the error; never NULL.
 */
LP_API const char *lp_strerror(int code);

/*-************************************
 *  Runtime control
 **************************************/
/*! likelyprof_dump() :
 *  Writes the process's profile now: every instrumented module, every
 *  thread, sites that never ran included.  The file is written to a
 *  temporary name in the same folder and renamed, so a reader never sees a
 *  partial profile.
 *  @path : where to write; NULL means the path the runtime would use at exit
 *          (LIKELYPROF_FILE with %p, %h, %e and %% expanded, or
 *          "%e.%p.lprof").  Patterns are expanded in @path too.
 *  @return : 0, or -LP_EIO (errno is set) or -LP_EBUSY.
 *  Note : thread-safe and async-signal-safe; allocates no heap memory.
 *         errno is preserved on success.
 */
LP_API int likelyprof_dump(const char *path);

/*! likelyprof_reset() :
 *  Sets every count of every site to zero, in every thread, so that a
 *  later dump covers only what ran after the reset.
 *  @return : 0, or -LP_EBUSY if a dump was in progress.
 *  Note : thread-safe.  Evaluations that race with the reset in other
 *         threads may land before or after it.
 */
LP_API int likelyprof_reset(void);

/*-************************************
 *  Instrumentation (internal ABI)
 **************************************/
/*
 * Nothing below is for direct use.  The names carry a double underscore;
 * their layout is versioned by LP_SITE_ABI so a runtime can refuse records
 * from a header it does not know.
 */
#define LP_SITE_ABI 2
/* ABI 1 counted a folded evaluation in both correct and constant. */
#define LP_SITE_ABI_BOTH_ 1
/*
 * A record that likelyprof's assembler pass adds for a run of stubs that
 * always execute together (tools/as/group.c): the run counts once, in the
 * counter of its first alias record, and each member's field gets that
 * count when the runtime sums.  Strings NULL; expect: the member record's
 * distance in bytes from this one; line: 4 * (place in the run) + field
 * (0 correct, 1 incorrect, 2 constant).  Never a site of its own.
 */
#define LP_SITE_ABI_ALIAS 3
/*
 * The record's abi field holds the ABI in its low byte; above it, a
 * __builtin_expect_with_probability site keeps its stated probability,
 * as 1 + millionths (0: none stated), so the record keeps its size.
 */
#define LP_SITE_ABI_OF(abi) ((abi) & 0xffu)
#define LP_SITE_PROB_OF(abi) ((abi) >> 8)
#define LP_PROB_ABI_(p)                                                 \
	(LP_SITE_ABI | (1u + (unsigned int)((p) >= 1 ? 1000000.0 :      \
		(p) <= 0 ? 0.0 : (p) * 1000000.0 + 0.5)) << 8)

/*
 * A reference to a symbol that only the runtime defines, whose name is
 * the message the linker prints when the runtime is missing (a CMake
 * build with the compiler launcher alone): "undefined reference to
 * `likelyprof: ...'" then says how to add it.  gcc hands an asm name to
 * the assembler as it is, so the quotes make it one symbol; clang quotes
 * it itself.
 */
#ifdef __clang__
#define LP_RUNTIME_MARK_(s) s
#else
#define LP_RUNTIME_MARK_(s) "\"" s "\""
#endif
#define LP_RUNTIME_MARK_TEXT_                                               \
	"likelyprof: the runtime is not linked: link with 'likelyprof cc', " \
	"add -llikelyprof, or with CMake set "                               \
	"CMAKE_C_LINKER_LAUNCHER=likelyprof"
#define LP_RUNTIME_MARK LP_RUNTIME_MARK_(LP_RUNTIME_MARK_TEXT_)

/* The expected value when the second argument was not a constant. */
#define LP_EXPECT_UNKNOWN (-0x7fffffffL - 1)
/*
 * The expected value of an `if` that carries no annotation (all-branches
 * mode): correct counts the times it was false, incorrect the times it was
 * true, as the kernel's branch_all overlays miss and hit.
 */
#define LP_EXPECT_IF (LP_EXPECT_UNKNOWN + 1)

/*
 * One record per annotated site, built by the compiler, read-only.  In C
 * the records of a module sit together in the "lp_sites" section, so the
 * runtime lists sites that never ran; in C++ (no section, see below) a
 * record is filled on its first evaluation.
 */
struct __attribute__((aligned(8))) lp_site {
	const char *file;    /* __FILE__ as the compiler spelled it */
	const char *func;    /* __func__ */
	const char *cond;    /* the first argument's text, after expansion */
	const char *unit;    /* __BASE_FILE__: the translation unit */
	long expect;         /* the second argument, LP_EXPECT_UNKNOWN or _IF */
	unsigned int line;   /* __LINE__ */
	unsigned int abi;    /* LP_SITE_ABI, and a stated probability */
};

/*
 * The counts of one site in one thread.  Each thread has its own copy in
 * thread-local storage, so an evaluation is a plain increment that no other
 * thread writes.  A count is kept off by one: a field holds count - 1, so
 * it starts at LP_COUNTER_ARMED (all ones) and the increment that takes it
 * to zero is the thread's first, which the same instruction reports (the
 * zero flag of `addq $1, %fs:ctr`) and which calls the runtime to record
 * the counter.  site is NULL until then.  The runtime re-arms a counter it
 * has summed.
 */
__extension__ typedef unsigned long long lp_count_t;  /* C89 has no long long */
#define LP_COUNTER_ARMED ((lp_count_t)-1)
#if defined(__cplusplus) && __cplusplus >= 201103L
#define LP_NULL_ nullptr
#else
#define LP_NULL_ 0
#endif
#define LP_COUNTER_INIT { LP_NULL_, LP_COUNTER_ARMED, LP_COUNTER_ARMED, \
			  LP_COUNTER_ARMED }
struct lp_counter {
	const struct lp_site *site;
	lp_count_t correct;    /* value == expected, not folded */
	lp_count_t incorrect;  /* value != expected */
	lp_count_t constant;   /* condition was a constant */
};

/*
 * The expansions name the two structs by these, never as "struct TAG":
 * gcc's C front end, reading "struct TAG" in a function, moves the place
 * it gives a warning of no place of its own (input_location) into this
 * system header until the source's next line, so an unused variable of a
 * function whose closing brace shares a hint's line went unreported
 * (tests/cli/cc/lost-warnings.sh).
 */
typedef struct lp_site lp__site_t;
typedef struct lp_counter lp__counter_t;

/*! lp__enter() :
 *  Called once per thread and site, on the site's first evaluation in that
 *  thread.  Sets counter->site.
 *  @first, @last : the bounds of the caller's module "lp_sites" section, or
 *                  NULL for a C++ record.
 */
LP_API void lp__enter(struct lp_counter *counter, const struct lp_site *site,
		      const struct lp_site *first, const struct lp_site *last);

/*! lp__enter_dynamic() :
 *  C++ form of lp__enter(): fills *site from the arguments the first time
 *  any thread gets here, then registers as lp__enter() does.
 */
LP_API void lp__enter_dynamic(struct lp_counter *counter, struct lp_site *site,
			      const struct lp_site *proto);

/*! lp__module_add() / lp__module_remove() :
 *  Called from every instrumented translation unit's constructor and
 *  destructor with the bounds of the module's "lp_sites" section (NULL
 *  when the module has none, as in C++) and @anchor, an address inside the
 *  module, so the profile lists sites that never ran and keeps the counts
 *  of a module that is dlclose()d.  Repeated calls for one module are
 *  harmless.
 */
LP_API void lp__module_add(const struct lp_site *first,
			   const struct lp_site *last, const void *anchor);
LP_API void lp__module_remove(const struct lp_site *first,
			      const struct lp_site *last, const void *anchor);

/*
 * A C++ site's record as the assembler lays it out in the "lp_sites_cxx"
 * section (see lp__hit below): @key is the address lp__enter_dynamic()
 * later gets as its @site, so the two meet.
 */
struct __attribute__((aligned(8))) lp_site_listing {
	const struct lp_site *key;
	struct lp_site site;
};

/*! lp__module_list() :
 *  Called from every instrumented C++ unit's constructor with the bounds
 *  of its module's "lp_sites_cxx" section, so that C++ sites that never
 *  ran are in the profile with zero counts.  Repeated calls for one
 *  module are harmless.
 */
LP_API void lp__module_list(const struct lp_site_listing *first,
			    const struct lp_site_listing *last,
			    const void *anchor);

#ifdef __cplusplus
} /* extern "C" */
#endif

#if defined(LIKELYPROF_INSTRUMENT) && defined(__GNUC__)

/*
 * The section bounds are weak: a module without sites links too.  The
 * runtime is referenced strongly, so a link without it fails loudly
 * instead of producing a program that silently writes no profile, and
 * --as-needed keeps liblikelyprof.so.
 */
#ifdef __cplusplus
extern "C" {
#endif
extern const struct lp_site __start_lp_sites[]
	__attribute__((weak, visibility("hidden")));
extern const struct lp_site __stop_lp_sites[]
	__attribute__((weak, visibility("hidden")));
extern const struct lp_site_listing __start_lp_sites_cxx[]
	__attribute__((weak, visibility("hidden")));
extern const struct lp_site_listing __stop_lp_sites_cxx[]
	__attribute__((weak, visibility("hidden")));

/*
 * The cold call of every site: two arguments instead of four keep the
 * hot function small.  Weak and hidden: one copy per module however many
 * units define it, and no reference to an identifier with internal
 * linkage from the expansion, which C forbids in an extern inline
 * function.
 */
void lp__enter_cold(struct lp_counter *counter, const struct lp_site *site);
__attribute__((weak, visibility("hidden"), cold, noinline, used))
void lp__enter_cold(struct lp_counter *counter, const struct lp_site *site)
{
	lp__enter(counter, site, __start_lp_sites, __stop_lp_sites);
}

/*
 * The expansion calls it under a second name bound to the same symbol.
 * jemalloc renames every global symbol its objects define with macros
 * (#define lp__enter_cold je_lp__enter_cold, made from nm's output) and
 * includes them after this header: the name in the expansion would turn
 * into an undeclared function.  No object defines this name, so nothing
 * renames it.
 */
void lp__enter_cold_alias_(struct lp_counter *counter,
			   const struct lp_site *site)
	__asm__("lp__enter_cold")
	__attribute__((visibility("hidden"), cold)); /* as the definition */

/* The runtime's mark (LP_RUNTIME_MARK above): see lib/runtime/mark.c. */
extern const char lp__runtime_mark_ __asm__(LP_RUNTIME_MARK);
static const char *const lp__unit_needs_runtime_
	__attribute__((used)) = &lp__runtime_mark_;

/*
 * Every unit registers its module at load and unload.  static, so each
 * unit has its own pair; the runtime ignores repeats.  Priority 101 runs
 * the constructor before, and the destructor after, the module's own
 * (default priority) ones, so their hints are counted too.
 */
static const char lp__unit_anchor __attribute__((used)) = 0;

__attribute__((constructor(101), used, unused))
static void lp__unit_load(void)
{
	lp__module_add(__start_lp_sites, __stop_lp_sites, &lp__unit_anchor);
#ifdef __cplusplus
	lp__module_list(__start_lp_sites_cxx, __stop_lp_sites_cxx,
			&lp__unit_anchor);
#endif
}

__attribute__((destructor(101), used, unused))
static void lp__unit_unload(void)
{
	lp__module_remove(__start_lp_sites, __stop_lp_sites,
			  &lp__unit_anchor);
}
#ifdef __cplusplus
} /* extern "C" */
#endif

/*
 * Shared-library code (-fPIC) reaches a thread-local variable through
 * __tls_get_addr or a TLS descriptor call, once per variable and basic
 * block: one call per site in a function like free().  The initial-exec
 * model makes it one load from the GOT (one per function once anchored,
 * below), then the increment; the price is static TLS, which a module
 * dlopen()ed late may not get (doc/DESIGN.md, "Shared libraries").
 * likelyprof cc defines this for -fPIC code unless LIKELYPROF_TLS=dynamic.
 */
#ifdef LIKELYPROF_TLS_INITIAL_EXEC
#define LP_TLS_MODEL_ __attribute__((tls_model("initial-exec")))
#else
#define LP_TLS_MODEL_
#endif

#define LP_CAT_(a, b) a##b
#define LP_CAT(a, b) LP_CAT_(a, b)

/*
 * The counting step shared by C and C++: one increment, whose result says
 * whether this was the thread's first (see struct lp_counter).  The compare
 * against the expected value merges with the program's own branch on the
 * same value, so each arm of that branch gets its own
 * `addq $1, %fs:ctr; je cold` and no extra jump is taken.  Writing the
 * expected constant back into v where they are equal lets clang see the
 * value the program then tests and thread the two branches into one (it
 * otherwise materialises the condition with setcc: 3.9 instructions per
 * evaluation instead of 2.8 in bench/); gcc threads them without it, and
 * does marginally worse with it.
 */
#ifdef __clang__
#define LP_PIN_(v, c) ((v) = (c))
#else
#define LP_PIN_(v, c) ((void)0)
#endif
#define LP_COUNT_(ctr, v, c, is_const, enter)                           \
	do {                                                            \
		if (is_const) {                                         \
			LP_TICK_(ctr, constant, enter);                 \
		} else if ((v) == (c)) {                                \
			LP_PIN_(v, c);                                  \
			LP_TICK_(ctr, correct, enter);                  \
		} else {                                                \
			LP_TICK_(ctr, incorrect, enter);                \
		}                                                       \
	} while (0)
/* One evaluation: the increment, and the cold call on the first. */
#define LP_TICK_(ctr, field, enter)                                     \
	((__builtin_expect)(LP_BUMP_(ctr, field), 0) ? (enter) : (void)0)

/*
 * LP_INC_(x) adds one and is true when x was armed (the first count).
 * Only the owning thread writes a counter; a dump in another thread reads
 * it.  A plain increment is one instruction and an aligned 64-bit load
 * sees either the old or the new value on every 64-bit target, so the
 * production build keeps it.  ThreadSanitizer cannot know that, so under
 * it the increment is a relaxed atomic load and store: still no locked
 * instruction, still exact.
 */
#if defined(__SANITIZE_THREAD__)
#define LP_TSAN_ 1
#elif defined(__has_feature)
#if __has_feature(thread_sanitizer)
#define LP_TSAN_ 1
#endif
#endif
#ifdef LP_TSAN_
#define LP_INC_(x) __extension__ ({                                     \
	lp_count_t lp__tsan_v =                                         \
		__atomic_load_n(&(x), __ATOMIC_RELAXED) + 1;            \
	__atomic_store_n(&(x), lp__tsan_v, __ATOMIC_RELAXED);           \
	lp__tsan_v == 0;                                                \
})
#else
#define LP_INC_(x) (++(x) == 0)
#endif
#define LP_BUMP_(ctr, field) LP_INC_((ctr).field)
#define LP_CTR_(n) LP_CAT(lp__ctr_, n)
#define LP_CTR_ADDR_(n) (&LP_CAT(lp__ctr_, n))
#define LP_CTR_ATTRS_(n) LP_TLS_MODEL_

/*
 * Anchored counters, for -fPIC code on x86-64.  Initial-exec alone leaves
 * one GOT load per site: every counter is its own variable with its own
 * GOT entry, and neither compiler hoists the loads out of the blocks that
 * use them.  Here a unit's counters share one section with an anchor, so
 * the assembler knows each counter's distance from it: one GOT load of the
 * anchor per function (the compiler hoists it as any invariant), then
 * `addq $1, disp(%reg); je cold` per evaluation, as in an executable.  The
 * increment names the counter in the assembler's text only; C counters get
 * names with a dot, which no C identifier has, C++ ones keep their mangled
 * names (lp__slot<N> in the anonymous namespace).  g++ ignores
 * a section on a template's static member and puts the counters in .tdata,
 * so its anchor goes there too (likelyprof cc turns anchoring off for g++
 * with -fdata-sections).  Not with LTO (units merged into one assembler
 * file would define the names twice), nor under ThreadSanitizer, whose
 * increment must stay visible to it.
 */
#if defined(LIKELYPROF_TLS_INITIAL_EXEC) && defined(__x86_64__) &&      \
	!defined(__ILP32__) && !defined(LP_TSAN_) &&                    \
	!defined(LIKELYPROF_NO_ANCHOR) && !(defined(__cplusplus) &&       \
	!defined(__clang__) && defined(LIKELYPROF_DATA_SECTIONS))
#define LP_ANCHORED_ 1
#define LP_TLS_SECTION_ __attribute__((section(".tdata.likelyprof")))
#if defined(__cplusplus) && !defined(__clang__)
#define LP_ANCHOR_SECTION_
#else
#define LP_ANCHOR_SECTION_ LP_TLS_SECTION_
#endif
static __thread char lp__tls_anchor_ __asm__("lp__tls.anchor")
	LP_ANCHOR_SECTION_ __attribute__((used, tls_model("initial-exec")))
	= 1;
/*
 * The anchor's offset from the thread pointer: both compilers fold the
 * subtraction into the GOT load and keep the result in a register.
 */
#define LP_ANCHOR_BASE_ ((char *)&lp__tls_anchor_ -                     \
			 (char *)__builtin_thread_pointer())
#ifdef __cplusplus
#define LP_CTR_SYM_(k) "_ZN12_GLOBAL__N_18lp__slotILi" k "EE7counterE"
#else
#define LP_CTR_SYM_(k) "lp__tls.ctr" k
#endif
#undef LP_BUMP_
#define LP_BUMP_(n, field) __extension__ ({                             \
	int lp__armed;                                                  \
	__asm__ __volatile__("addq $1, %%fs:" LP_CTR_SYM_("%c2")         \
		"+%c3-lp__tls.anchor(%1)"                               \
		: "=@ccz"(lp__armed)                                    \
		: "r"(LP_ANCHOR_BASE_), "i"(n),                         \
		  "i"(__builtin_offsetof(lp__counter_t, field)));      \
	lp__armed; })
#undef LP_CTR_ATTRS_
#define LP_CTR_ATTRS_(n) __asm__(LP_CTR_SYM_(LP_STRINGIFY(n)))          \
	LP_TLS_SECTION_ __attribute__((used, tls_model("initial-exec")))
#undef LP_CTR_
#define LP_CTR_(n) n
#undef LP_CTR_ADDR_
#define LP_CTR_ADDR_(n) __extension__ ({                                \
	lp__counter_t *lp__ctr_addr;                                    \
	__asm__ __volatile__("movq %%fs:0, %0\n\taddq %1, %0\n\tleaq " \
		LP_CTR_SYM_(LP_STRINGIFY(n)) "-lp__tls.anchor(%0), %0"  \
		: "=&r"(lp__ctr_addr) : "r"(LP_ANCHOR_BASE_));          \
	lp__ctr_addr; })
#else
#define LP_TLS_SECTION_
#endif

/*
 * "asm inline" (gcc 9, clang 11): the inliner counts the statement as
 * the smallest it can be, not by its lines.  The stub's is a dozen lines,
 * nearly all of them out of line (.subsection 1), and counted by lines
 * it made gcc stop inlining the functions that hold hints: glib's
 * g_hash_table_lookup_node() and three more of ghash.c went out of line.
 */
#if defined(__clang__) ? __clang_major__ >= 11 : __GNUC__ >= 9
#define LP_ASM_INLINE_ __inline__
#else
#define LP_ASM_INLINE_
#endif
/*
 * The first count without a visible call, for C on x86-64.  A call the
 * compiler can see, taken or not, makes the function a caller: values
 * that live across it move to callee-saved registers that every entry
 * pushes and pops, and a leaf loses its red zone (jemalloc's free() went
 * from no stack frame to six pushes and pops).  Here the increment, the
 * test and the cold path are one asm statement: the cold path sits at the
 * end of the function's section (.subsection 1), steps over the red zone,
 * keeps %rax, and hands the counter, the record and the module's
 * lp__enter_cold to lp__enter_stub in the runtime, which keeps every
 * other register and the vector state (lib/runtime/stub-x86_64.c).
 * The compiler sees one instruction's worth of effects, the flags.
 * Counters are named in the assembler's text: anchored in -fPIC code, by
 * their offset from the thread pointer (local-exec) in an executable.
 * Not under LTO (the names would meet in one assembler file) nor where
 * anchoring is off.
 */
#if defined(__x86_64__) && !defined(__ILP32__) && defined(__ELF__) &&    \
	!defined(LP_TSAN_) && !defined(LIKELYPROF_NO_ANCHOR) &&         \
	!defined(LIKELYPROF_NO_STUB) &&                                 \
	(defined(LP_ANCHORED_) || !defined(__PIC__) || defined(__PIE__)) && \
	(!defined(__cplusplus) || (defined(__OPTIMIZE__) &&             \
	 !defined(LIKELYPROF_NO_CXX_LISTING)))
#define LP_STUB_ 1
#ifndef LP_CTR_SYM_
#ifdef __cplusplus
#define LP_CTR_SYM_(k) "_ZN12_GLOBAL__N_18lp__slotILi" k "EE7counterE"
#else
#define LP_CTR_SYM_(k) "lp__tls.ctr" k
#endif
#endif
#ifdef LP_ANCHORED_
/* the counter: tp + the anchor's offset (%[base]) + the distance */
#define LP_STUB_INC_ "addq $1, %%fs:" LP_CTR_SYM_("%c[n]")                \
	"+%c[off]-lp__tls.anchor(%[base])\n\t"
#define LP_STUB_ADDR_ "pushq %[base]\n\tmovq %%fs:0, %%rax\n\t"           \
	"addq %%rax, (%%rsp)\n\t"                                       \
	"addq $" LP_CTR_SYM_("%c[n]") "-lp__tls.anchor, (%%rsp)\n\t"
#define LP_STUB_BASE_ [base] "r"(LP_ANCHOR_BASE_),
#else
/* the counter: tp + its offset, known at link time (local-exec) */
#define LP_STUB_INC_ "addq $1, %%fs:" LP_CTR_SYM_("%c[n]")                \
	"@tpoff+%c[off]\n\t"
#define LP_STUB_ADDR_ "movq %%fs:0, %%rax\n\t"                            \
	"leaq " LP_CTR_SYM_("%c[n]") "@tpoff(%%rax), %%rax\n\tpushq %%rax\n\t"
#define LP_STUB_BASE_
#endif
/*
 * @record: asm that comes first (C++ lays its listing record out there);
 * @enter: the module's function that takes the counter and @rec.
 */
#define LP_STUB_ASM_(record, enter, rec, num, fld, ...)                \
	__asm__ __volatile__ LP_ASM_INLINE_(record LP_STUB_INC_          \
		"je 2f\n1:\n\t"                                         \
		".subsection 1\n2:\n\tleaq -128(%%rsp), %%rsp\n\t"        \
		"pushq %%rax\n\t" LP_STUB_ADDR_                           \
		"leaq " enter "(%%rip), %%rax\n\tpushq %%rax\n\t"         \
		"leaq " rec "(%%rip), %%rax\n\tpushq %%rax\n\t"           \
		"call *lp__enter_stub@GOTPCREL(%%rip)\n\t"              \
		"leaq 24(%%rsp), %%rsp\n\tpopq %%rax\n\t"               \
		"leaq 128(%%rsp), %%rsp\n\tjmp 1b\n\t.subsection 0"       \
		: : LP_STUB_BASE_ [n] "i"(num),                         \
		  [off] "i"(__builtin_offsetof(lp__counter_t, fld))      \
		  __VA_ARGS__ : "cc")
#ifndef __cplusplus
#define LP_STUB_TICK_(n, field)                                          \
	LP_STUB_ASM_("", "lp__enter_cold", "%c[rec]", n, field,          \
		     , [rec] "i"(&LP_CAT(lp__site_, n)))
#ifndef LP_ANCHORED_
#undef LP_CTR_ATTRS_
#define LP_CTR_ATTRS_(n) __asm__(LP_CTR_SYM_(LP_STRINGIFY(n)))          \
	__attribute__((used))
#undef LP_CTR_
#define LP_CTR_(n) n
#endif
#undef LP_TICK_
#define LP_TICK_(n, field, enter)                                       \
	__extension__ ({ LP_STUB_TICK_(n, field); (void)0; })
#endif
#endif

/*
 * The builtin takes what the grammar groups, the preprocessor only what
 * parentheses group: std::is_same<A, B>::value and (struct s){a, 2}.x
 * reach the macro as several arguments.  The last is the expected value,
 * the ones before it, joined again in parentheses, the condition.
 */
#define LP_NARGS_(...) LP_NARGS_N_(__VA_ARGS__, 16, 15, 14, 13, 12, 11, \
	10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0)
#define LP_NARGS_N_(_1, _2, _3, _4, _5, _6, _7, _8, _9, _10, _11, _12,  \
	_13, _14, _15, _16, n, ...) n
/*
 * A hint the compiler cannot take instrumented (one at file scope:
 * static long warm = likely(1), where no statement expression may be)
 * stays plain, and only it: likelyprof cc compiles the unit again with
 * -DLP_PLAIN_LINES_ -DLP_PLAIN_LINE_<n>=1 for each line the compiler
 * named, and a hint whose __LINE__ is one of them expands to the plain
 * builtin.  The test is the preprocessor's: LP_PLAIN_LINE_<n> that is
 * defined as 1 pastes into a probe that yields two arguments.  Without
 * LP_PLAIN_LINES_ none of this is seen.
 */
#define LP_SECOND_(...) LP_SECOND_I_(__VA_ARGS__, ~)
#define LP_SECOND_I_(a, b, ...) b
#define LP_PLAIN_PROBE_1 ~, 1
#define LP_PLAIN_LINE_P_(line)                                          \
	LP_SECOND_(LP_CAT(LP_PLAIN_PROBE_, LP_CAT(LP_PLAIN_LINE_, line)), 0)
#define LP_IIF_0(t, f) f
#define LP_IIF_1(t, f) t
#define LP_EXPECT_PLAIN_(lang, ...) (__builtin_expect)(__VA_ARGS__)
#define LP_EXPECT_OR_PLAIN_(lang, line, ...)                            \
	LP_CAT(LP_IIF_, LP_PLAIN_LINE_P_(line))(LP_EXPECT_PLAIN_,          \
		LP_EXPECT_SPLIT_)(lang, __VA_ARGS__)
#define LP_EXPECT_SPLIT_(lang, ...) LP_CAT(LP_SPLIT_,                    \
	LP_NARGS_(__VA_ARGS__))(LP_EXPECT_##lang##_, __VA_ARGS__)
#define LP_SPLIT_1(f, e) f(e, , __COUNTER__)
#define LP_SPLIT_2(f, e, c) f(e, c, __COUNTER__)
#define LP_SPLIT_3(f, a, b, c) f((a, b), c, __COUNTER__)
#define LP_SPLIT_4(f, a, b, d, c) f((a, b, d), c, __COUNTER__)
#define LP_SPLIT_5(f, a, b, d, e, c) f((a, b, d, e), c, __COUNTER__)
#define LP_SPLIT_6(f, a, b, d, e, g, c) f((a, b, d, e, g), c, __COUNTER__)
#define LP_SPLIT_7(f, a, b, d, e, g, h, c)                              \
	f((a, b, d, e, g, h), c, __COUNTER__)
#define LP_SPLIT_8(f, a, b, d, e, g, h, i, c)                           \
	f((a, b, d, e, g, h, i), c, __COUNTER__)
#define LP_SPLIT_9(f, a, b, d, e, g, h, i, j, c)                        \
	f((a, b, d, e, g, h, i, j), c, __COUNTER__)
#define LP_SPLIT_10(f, a, b, d, e, g, h, i, j, k, c)                    \
	f((a, b, d, e, g, h, i, j, k), c, __COUNTER__)
#define LP_SPLIT_11(f, a, b, d, e, g, h, i, j, k, l, c)                 \
	f((a, b, d, e, g, h, i, j, k, l), c, __COUNTER__)
#define LP_SPLIT_12(f, a, b, d, e, g, h, i, j, k, l, m, c)              \
	f((a, b, d, e, g, h, i, j, k, l, m), c, __COUNTER__)
#define LP_SPLIT_13(f, a, b, d, e, g, h, i, j, k, l, m, n, c)           \
	f((a, b, d, e, g, h, i, j, k, l, m, n), c, __COUNTER__)
#define LP_SPLIT_14(f, a, b, d, e, g, h, i, j, k, l, m, n, o, c)        \
	f((a, b, d, e, g, h, i, j, k, l, m, n, o), c, __COUNTER__)
#define LP_SPLIT_15(f, a, b, d, e, g, h, i, j, k, l, m, n, o, p, c)     \
	f((a, b, d, e, g, h, i, j, k, l, m, n, o, p), c, __COUNTER__)
#define LP_SPLIT_16(f, a, b, d, e, g, h, i, j, k, l, m, n, o, p, q, c)  \
	f((a, b, d, e, g, h, i, j, k, l, m, n, o, p, q), c, __COUNTER__)

/*
 * __builtin_expect_with_probability(cond, value, probability): the last
 * two arguments are the value and the stated probability, the ones
 * before them the condition (commas and all, up to eight pieces).  The
 * record's expected value is the value where the probability is at
 * least one half, the hint's direction.  Below that the hint says the
 * value is the rare one: "correct" counts the times it was not
 * (LP_COUNT_PROB_), and as that names no one expected value of the
 * condition, the record's is "unknown" (a verdict may remove such a hint,
 * never flip it to a value it did not state).  The probability itself is
 * not recorded: the site is judged by its direction, not against the
 * number.
 */
#define LP_PROB_EXPECT_(c, p)                                           \
	(__builtin_constant_p(c) && (p) >= 0.5f ? (long)(c) : LP_EXPECT_UNKNOWN)
#define LP_PROB_PLAIN_(lang, ...)                                       \
	(__builtin_expect_with_probability)(__VA_ARGS__)
#define LP_PROB_OR_PLAIN_(lang, line, ...)                              \
	LP_CAT(LP_IIF_, LP_PLAIN_LINE_P_(line))(LP_PROB_PLAIN_,            \
		LP_PROB_SPLIT_)(lang, __VA_ARGS__)
#define LP_PROB_SPLIT_(lang, ...) LP_CAT(LP_PSPLIT_,                     \
	LP_NARGS_(__VA_ARGS__))(LP_PROB_##lang##_, __VA_ARGS__)
/* fewer than three: the builtin's own error, from the plain call */
#define LP_PSPLIT_1(f, e) (__builtin_expect_with_probability)(e)
#define LP_PSPLIT_2(f, e, c) (__builtin_expect_with_probability)(e, c)
#define LP_PSPLIT_3(f, e, c, p) f(e, c, p, __COUNTER__)
#define LP_PSPLIT_4(f, a, b, c, p) f((a, b), c, p, __COUNTER__)
#define LP_PSPLIT_5(f, a, b, d, c, p) f((a, b, d), c, p, __COUNTER__)
#define LP_PSPLIT_6(f, a, b, d, e, c, p) f((a, b, d, e), c, p, __COUNTER__)
#define LP_PSPLIT_7(f, a, b, d, e, g, c, p)                             \
	f((a, b, d, e, g), c, p, __COUNTER__)
#define LP_PSPLIT_8(f, a, b, d, e, g, h, c, p)                          \
	f((a, b, d, e, g, h), c, p, __COUNTER__)
#define LP_PSPLIT_9(f, a, b, d, e, g, h, i, c, p)                       \
	f((a, b, d, e, g, h, i), c, p, __COUNTER__)
#define LP_PSPLIT_10(f, a, b, d, e, g, h, i, j, c, p)                   \
	f((a, b, d, e, g, h, i, j), c, p, __COUNTER__)

#ifndef __cplusplus

/*
 * True when x is an integer constant expression, without evaluating x: a
 * null pointer constant makes the conditional's type int *.  Unlike the
 * sizeof(*(void *)) form, it draws no -Wpointer-arith, and the
 * conditional instead of a cast takes pointers and draws no
 * -Wbad-function-cast.
 */
#define LP_IS_ICE_(x) __builtin_types_compatible_p(                      \
	__typeof__(8 ? ((void *)(((x) ? 1l : 0l) * 0l)) : (int *)8), int *)

/*
 * Names get __COUNTER__ so that nested hints (likely(a && unlikely(b)))
 * do not shadow each other.  The record and counter carry no "used"
 * attribute: a site whose code the compiler drops (or that sits in the
 * branch __builtin_choose_expr did not take) leaves no record behind.
 * @plain is what an integer constant expression becomes; @val the value
 * counted; @expect the record's expected value; @kind (EXPECT or IF) what
 * the site gives back: the value through the real builtin, or as it is.
 */
#define LP_SITE_C_(e, plain, val, c, p, expect, abi, kind, n)               \
	__builtin_choose_expr(LP_IS_ICE_(e), plain,                          \
	__extension__ ({                                                     \
		LP_C_QUIET_BEGIN_                                            \
		static const lp__site_t LP_CAT(lp__site_, n)                 \
		__attribute__((section("lp_sites"), aligned(8))) = {          \
			__FILE__, __func__, #e, __BASE_FILE__, expect,       \
			__LINE__, abi };                                     \
		static __thread lp__counter_t LP_CAT(lp__ctr_, n)            \
			LP_CTR_ATTRS_(n) = LP_COUNTER_INIT;                  \
		long LP_CAT(lp__val_, n) = (val);                            \
		LP_COUNT_##kind##_(LP_CTR_(n), LP_CAT(lp__val_, n),          \
			  (long)(c),                                         \
			  __builtin_constant_p(LP_CAT(lp__val_, n)),         \
			  lp__enter_cold_alias_(LP_CTR_ADDR_(n),             \
					 &LP_CAT(lp__site_, n)), (p));       \
		LP_C_QUIET_END_                                              \
		LP_RESULT_##kind##_(LP_CAT(lp__val_, n), (c), (p));          \
	}))
#define LP_COUNT_EXPECT_(ctr, v, c, is_const, enter, p)                 \
	LP_COUNT_(ctr, v, c, is_const, enter)
/*
 * A stated probability below one half says the value is the rare one:
 * "correct" is then the times the condition was not that value.  A copy
 * takes the compare, so clang's pin (LP_PIN_) writes the copy, never the
 * value the program goes on with.  No `if`: see all-branches mode.
 */
#define LP_COUNT_PROB_(ctr, v, c, is_const, enter, p)                   \
	{                                                               \
		long lp__prob_v = (p) >= 0.5f ? (v) : (long)((v) != (c)); \
		LP_COUNT_(ctr, lp__prob_v, (p) >= 0.5f ? (c) : 1L,      \
			  is_const, enter);                             \
	}
#define LP_RESULT_EXPECT_(v, c, p) (__builtin_expect)((v), (c))
#define LP_RESULT_PROB_(v, c, p)                                        \
	(__builtin_expect_with_probability)((v), (c), (p))
#define LP_RESULT_IF_(v, c, p) (v)

#define LP_EXPECT_C_(e, c, n)                                                \
	LP_SITE_C_(e, (__builtin_expect)((e), (c)), (e), c, 0,               \
		   __builtin_constant_p(c) ? (long)(c) : LP_EXPECT_UNKNOWN,  \
		   LP_SITE_ABI, EXPECT, n)

#define LP_PROB_C_(e, c, p, n)                                               \
	LP_SITE_C_(e, (__builtin_expect_with_probability)((e), (c), (p)),    \
		   (e), c, p, LP_PROB_EXPECT_(c, p), LP_PROB_ABI_(p), PROB, n)

/*
 * clang reports a static counter inside a C99 inline function of the
 * project (-Wstatic-local-in-inline) at the project's line, system header
 * or not; the counter is per translation unit on purpose.
 */
#ifdef __clang__
#define LP_C_QUIET_BEGIN_ _Pragma("clang diagnostic push")                  \
	_Pragma("clang diagnostic ignored \"-Wstatic-local-in-inline\"")
#define LP_C_QUIET_END_ _Pragma("clang diagnostic pop")
#else
#define LP_C_QUIET_BEGIN_
#define LP_C_QUIET_END_
#endif

/* A case label's hint (lp__expect_case in C++): C has no such labels. */
#define lp__expect_case(text, line, e, c) __builtin_expect(e, c)
#define lp__auto __auto_type

#ifdef LP_PLAIN_LINES_
#define __builtin_expect(...) LP_EXPECT_OR_PLAIN_(C, __LINE__, __VA_ARGS__)
#define __builtin_expect_with_probability(...)                          \
	LP_PROB_OR_PLAIN_(C, __LINE__, __VA_ARGS__)
#else
#define __builtin_expect(...) LP_EXPECT_SPLIT_(C, __VA_ARGS__)
#define __builtin_expect_with_probability(...)                          \
	LP_PROB_SPLIT_(C, __VA_ARGS__)
#endif

/*
 * All-branches mode (-DLIKELYPROF_ALL_BRANCHES), the kernel's
 * CONFIG_PROFILE_ALL_BRANCHES: every `if` of the unit is a site too, with
 * expect "if", and keeps its meaning (no hint is added).  `if` becomes a
 * macro, so from here on no macro of this header may use the keyword:
 * expanded outside an `if`, it would count itself.  The condition may hold
 * commas, hence the variadic form.  C only: C++'s `if (init; cond)` and
 * `if constexpr` cannot be wrapped.
 */
#ifdef LIKELYPROF_ALL_BRANCHES
#undef LP_COUNT_
#define LP_COUNT_(ctr, v, c, is_const, enter)                           \
	((is_const) ? LP_TICK_(ctr, constant, enter) :                  \
	 ((v) == (c)) ?                                                 \
	 ((void)LP_PIN_(v, c), LP_TICK_(ctr, correct, enter)) :         \
	 LP_TICK_(ctr, incorrect, enter))
/*
 * A hint's constant counts as correct, as the kernel counts it; an if has
 * no expectation, so a folded one counts as constant and by its value.
 */
#define LP_COUNT_IF_(ctr, v, c, is_const, enter, p)                     \
	((is_const) ? LP_TICK_(ctr, constant, enter) : (void)0,         \
	 LP_COUNT_(ctr, v, c, 0, enter))
#define LP_IF_C_(e, n)                                                  \
	LP_SITE_C_(e, (e), !!(e), 0, 0, LP_EXPECT_IF, LP_SITE_ABI, IF, n)
#define if(...) if (LP_IF_C_((__VA_ARGS__), __COUNTER__))
#endif

#else /* __cplusplus */

/*
 * C++: a function template per site, numbered by __COUNTER__ inside an
 * anonymous namespace so each unit has its own.  A call parses at namespace
 * scope and in templates, and __builtin_is_constant_evaluated() keeps
 * constant expressions constant while every evaluation at run time is
 * counted (as "constant" when the optimiser folded the condition).  g++
 * rejects a named section for objects of inline functions
 * and templates ("section type conflict"), and an expression can declare
 * no object anyway, so C++ records are filled on first use.  The strings
 * travel as constant arguments; once lp__hit is inlined they feed only
 * the cold call, and the listing below.
 */
#if defined(LP_ANCHORED_) || defined(LP_STUB_)
#define LP_CXX_CTR_(n) n
#else
#define LP_CXX_CTR_(n) lp__slot<n>::counter
#endif
#ifdef LP_STUB_
/* only the stub's asm text names the counter: keep it */
#define LP_CXX_USED_ __attribute__((used))

/*
 * The stub's cold call for C++ (see LP_STUB_ASM_): @r is the site's
 * record as the same asm laid it out in "lp_sites_cxx".
 */
extern "C" void lp__enter_listed_cold(struct lp_counter *counter,
				      const struct lp_site_listing *r);
extern "C" __attribute__((weak, visibility("hidden"), cold, noinline, used))
void lp__enter_listed_cold(struct lp_counter *counter,
			   const struct lp_site_listing *r)
{
	lp__enter_dynamic(counter, const_cast<struct lp_site *>(r->key),
			  &r->site);
}
#else
#define LP_CXX_USED_
#endif
namespace {
template <int N> struct lp__slot {
	static struct lp_site site;
	static __thread struct lp_counter counter LP_TLS_SECTION_
		LP_TLS_MODEL_;
};
template <int N> struct lp_site lp__slot<N>::site;
template <int N> __thread struct lp_counter lp__slot<N>::counter
	LP_TLS_SECTION_ LP_TLS_MODEL_ LP_CXX_USED_ = LP_COUNTER_INIT;

/*
 * Builds the record only on the cold path, from constant arguments.  It
 * takes the counter's address itself, so the hot path computes none.
 */
template <int N>
__attribute__((cold, noinline)) void lp__enter_cxx(long expect,
	const char *file, const char *func, const char *cond,
	const char *unit, unsigned int line, unsigned int abi)
{
	struct lp_site proto = { file, func, cond, unit, expect, line, abi };

	lp__enter_dynamic(&lp__slot<N>::counter, &lp__slot<N>::site, &proto);
}

/*
 * The listing of sites that never ran: once lp__hit is inlined its string
 * arguments are constants, so an asm statement can hand them to the
 * assembler, which writes the record into "lp_sites_cxx" (struct
 * lp_site_listing) and no instruction into the code.  The "?" flag puts
 * the record in the section group of the function it sits in: when the
 * linker keeps one copy of an inline function or template, it keeps that
 * copy's records only.  "asm inline" keeps the inliner's estimate of the
 * function as it was.  Inlined copies of one site repeat its record; the
 * runtime keeps one per key.  Only when optimising (at -O0 the arguments
 * are no constants) and on x86-64 (where an address is an immediate in
 * PIC code too); elsewhere C++ sites that never ran are missing.
 */
#if defined(__OPTIMIZE__) && defined(__x86_64__) && !defined(__ILP32__) && \
	!defined(LIKELYPROF_NO_CXX_LISTING)
#define LP_CXX_INLINE_ __attribute__((always_inline)) inline
#ifdef LP_STUB_
/*
 * With the stub, each increment's asm lays the record out itself and
 * hands it to the cold call: the record of lp__hit's own parameters,
 * which is why this macro can only be used there.
 */
#define LP_CXX_LIST_(key, expect, file, func, cond, unit, line, abi) ((void)0)
#define LP_CXX_RECORD_ ".pushsection lp_sites_cxx,\"aw?\"\n\t.balign 8\n"  \
	"3:\n\t.quad %c[key], %c[file], %c[func], %c[cond], %c[unit], "    \
	"%c[expect]\n\t.long %c[line], %c[abi]\n\t.popsection\n\t"
#undef LP_TICK_
#define LP_TICK_(num, fld, enter)                                       \
	(__extension__ ({ LP_STUB_ASM_(LP_CXX_RECORD_,                  \
		"lp__enter_listed_cold", "3b", num, fld,                \
		, [key] "i"(&lp__slot<num>::site), [file] "i"(file),    \
		[func] "i"(func), [cond] "i"(cond), [unit] "i"(unit),   \
		[expect] "i"(expect), [line] "i"(line),                 \
		[abi] "i"(abi)); }),                                    \
	 false ? (enter) : (void)0)
#else
#define LP_CXX_LIST_(key, expect, file, func, cond, unit, line, abi)      \
	__asm__ __volatile__ LP_ASM_INLINE_(                            \
		".pushsection lp_sites_cxx,\"aw?\"\n\t.balign 8\n\t"      \
		".quad %c0, %c1, %c2, %c3, %c4, %c5\n\t"                 \
		".long %c6, %c7\n\t.popsection"                          \
		: : "i"(key), "i"(file), "i"(func), "i"(cond), "i"(unit), \
		  "i"(expect), "i"(line), "i"(abi))
#endif
#else
#define LP_CXX_INLINE_ inline
#define LP_CXX_LIST_(key, expect, file, func, cond, unit, line, abi) ((void)0)
#endif

/*
 * __builtin_constant_p(v) is decided after inlining, so a condition the
 * optimiser folded is counted as "constant", as in C.
 */
template <int N>
LP_CXX_INLINE_ long lp__hit(long v, long c, long expect, const char *file,
		    const char *func, const char *cond, const char *unit,
		    unsigned int line)
{
	const unsigned int abi = LP_SITE_ABI;

	LP_CXX_LIST_(&lp__slot<N>::site, expect, file, func, cond, unit, line,
		     abi);
	LP_COUNT_(LP_CXX_CTR_(N), v, c, __builtin_constant_p(v),
		  lp__enter_cxx<N>(expect, file, func, cond, unit, line, abi));
	return v;
}

/* A stated probability: @rare when it is below one half (LP_COUNT_PROB_). */
template <int N>
LP_CXX_INLINE_ long lp__hit_prob(long v, long c, bool rare, long expect,
		    const char *file, const char *func, const char *cond,
		    const char *unit, unsigned int line, unsigned int abi)
{
	long counted = rare ? (long)(v != c) : v;

	LP_CXX_LIST_(&lp__slot<N>::site, expect, file, func, cond, unit, line,
		     abi);
	LP_COUNT_(LP_CXX_CTR_(N), counted, rare ? 1L : c,
		  __builtin_constant_p(v),
		  lp__enter_cxx<N>(expect, file, func, cond, unit, line, abi));
	return v;
}
} /* namespace */

/* clang warns that the test is always true where it is meant to be. */
#ifdef __clang__
#define LP_CXX_QUIET_BEGIN_ _Pragma("clang diagnostic push")                \
	_Pragma("clang diagnostic ignored \"-Wconstant-evaluated\"")
#define LP_CXX_QUIET_END_ _Pragma("clang diagnostic pop")
#else
#define LP_CXX_QUIET_BEGIN_
#define LP_CXX_QUIET_END_
#endif

#define LP_EXPECT_CXX_(e, c, n) LP_EXPECT_CXX_AS_(e, c, n, #e, __LINE__)
#define LP_EXPECT_CXX_AS_(e, c, n, text, line)                               \
	LP_CXX_QUIET_BEGIN_                                                  \
	(__builtin_is_constant_evaluated() ? (__builtin_expect)((e), (c))   \
	 : (__builtin_expect)(lp__hit<n>((e), (c),                           \
		__builtin_constant_p(c) ? (c) : LP_EXPECT_UNKNOWN,           \
		__FILE__, __builtin_FUNCTION(), text, __BASE_FILE__, line),  \
		(c)))                                                        \
	LP_CXX_QUIET_END_

/*
 * likelyprof cc's copy of a switch whose case labels carry [[likely]] or
 * [[unlikely]] (tools/cc/cases.c) tests the switch's value at its head,
 * against each attributed label: a hint recorded with the label's text
 * and line, where the user wrote it.  lp__auto holds the value once.
 */
#define lp__expect_case(text, line, e, c)                               \
	LP_EXPECT_CXX_AS_(e, c, __COUNTER__, text, line)
#define lp__auto auto

#define LP_PROB_CXX_(e, c, p, n)                                             \
	LP_CXX_QUIET_BEGIN_                                                  \
	(__builtin_is_constant_evaluated()                                   \
	 ? (__builtin_expect_with_probability)((e), (c), (p))                \
	 : (__builtin_expect_with_probability)(lp__hit_prob<n>((e), (c),     \
		!((p) >= 0.5f), LP_PROB_EXPECT_(c, p), __FILE__,             \
		__builtin_FUNCTION(), #e, __BASE_FILE__, __LINE__,           \
		LP_PROB_ABI_(p)),                                            \
		(c), (p)))                                                   \
	LP_CXX_QUIET_END_

#ifdef LP_PLAIN_LINES_
#define __builtin_expect(...) LP_EXPECT_OR_PLAIN_(CXX, __LINE__, __VA_ARGS__)
#define __builtin_expect_with_probability(...)                          \
	LP_PROB_OR_PLAIN_(CXX, __LINE__, __VA_ARGS__)
#else
#define __builtin_expect(...) LP_EXPECT_SPLIT_(CXX, __VA_ARGS__)
#define __builtin_expect_with_probability(...)                          \
	LP_PROB_SPLIT_(CXX, __VA_ARGS__)
#endif

#endif /* __cplusplus */

#endif /* LIKELYPROF_INSTRUMENT && __GNUC__ */

#endif /* !__ASSEMBLER__ */
#endif /* LIKELYPROF_H */
