/*
 * judge.h - judging the hints of an unmodified binary (likelyprof judge)
 *
 * The route, one file each: valgrind.c runs the program under callgrind
 * and reads back what it wrote (every executed instruction with its
 * source line, and the taken count of every conditional jump that was
 * taken); jumps.c asks objdump where the conditional jumps are, so one
 * that was never taken still counts; hints.c preprocesses the sources to
 * find each __builtin_expect, whatever macro spells it; decide.c puts
 * them together into an ordinary profile whose sites say how sure they
 * are.  The other route, perf.c, counts the same jumps from branch
 * samples (perf record -b) instead, the jumps and their lines from the
 * binary itself (lp_jumps_list()); decide.c serves both.
 * doc/likelyprof-judge.md says what each can and cannot see.
 *
 * Everything here returns 0 or -1 after printing its error with
 * lp_error(); nothing exits.
 */
#ifndef LP_JUDGE_H
#define LP_JUDGE_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "profile.h"

/* One executed instruction, summed over every dump of the run. */
struct lp_insn {
	const char *obj;        /* the object file, as callgrind names it */
	const char *file;       /* its source file, resolved where possible */
	const char *fn;         /* the function callgrind charged it to */
	uint64_t addr;          /* in the object's own addresses */
	long line;
	uint64_t exe;           /* times executed */
	uint64_t taken;         /* as a conditional jump: times taken */
	uint64_t called;        /* times callgrind booked it as a call */
	int cond;               /* a conditional jump (objdump says) */
	int test;               /* a cmov or set: a test that is no jump */
	uint64_t target;        /* ... and where it goes */
	/*
	 * ... the symbol objdump puts it in, where that starts, and the
	 * instruction after it: a jump to before its symbol's start goes to
	 * another part (f.cold), never a loop's back edge.
	 */
	const char *sym;
	uint64_t sym_start;
	uint64_t next;
	/*
	 * ... its taken count and the executions of the instruction after it
	 * (reached by falling through only) do not add up: ambiguous.
	 */
	int doubt;
	/*
	 * ... its taken count is its executions less those of the
	 * instruction after it, no record having counted it (so too for
	 * each process's counts: tools/judge/ways.c).
	 */
	int inferred;
	/*
	 * ... and its fall-through is a jump into a cold part (gcc's
	 * "f.cold") while its target is not: the compiler put the side the
	 * jump does not take out of line, against the reading that taken
	 * means the hint was wrong.
	 */
	int against;
	/*
	 * From branch samples: exe and taken above are the estimates, and
	 * these the sampled executions they were scaled from.
	 */
	uint64_t s_exe, s_taken;
};

#define LP_INLINED_BY 6

/*
 * A run of instructions of one line of a line table: the line has code
 * in the binary.  Its first instruction, in symbol @sym of object @obj,
 * ran where lp_insns_find() finds it with executions.
 */
struct lp_code_line {
	const char *file;
	long line;
	const char *obj;
	const char *sym;
	uint64_t addr;
	/*
	 * Code inlined from another function: where it was called, from
	 * the innermost call outwards (objdump --inlines' "inlined by"),
	 * a NULL file past the last.  A call in the statement an if guards
	 * is code of that statement.
	 */
	const char *by_file[LP_INLINED_BY];
	long by_line[LP_INLINED_BY];
	const char *by_fn[LP_INLINED_BY];      /* ... the function there */
};

/* A direct jump, conditional or not, as objdump lists it. */
struct lp_edge {
	const char *obj;
	const char *file;       /* its line's */
	long line;
	uint64_t addr, target;
};

/* One instruction of a disassembly, for walking the code from a jump. */
enum lp_flow { LP_FLOW_ON, LP_FLOW_COND, LP_FLOW_JMP, LP_FLOW_END };

struct lp_code_insn {
	const char *obj;
	const char *file;       /* its line's */
	const char *ifn;        /* the function objdump says it is of */
	long line;
	uint64_t addr, target;
	enum lp_flow flow;      /* falls through, branches, jumps, ends */
	int call;               /* ... a call (one that falls through) */
};

struct lp_insns {
	struct lp_insn *v;
	size_t nr, alloc;
	char **names;           /* owns every string above */
	size_t names_nr, names_alloc;
	const char **interned;  /* lp_insns_intern()'s hash table */
	size_t interned_nr, interned_alloc;
	/* the lines with code in the objects disassembled (jumps.c) */
	struct lp_code_line *lines;
	size_t lines_nr, lines_alloc;
	/* every direct jump of those objects, by target (lp_jumps_mark()) */
	struct lp_edge *edges;
	size_t edges_nr, edges_alloc;
	/* every instruction of those objects, by object and address */
	struct lp_code_insn *code;
	size_t code_nr, code_alloc;
	uint64_t *fn_start;     /* lp_jumps_list(): each symbol's address */
	size_t fn_nr, fn_alloc;
	int sampled;            /* counts from branch samples (perf.c) */
	char **dumps;           /* the callgrind files read, one a process */
	size_t dumps_nr;
};

/*
 * One side of a jump that a site's counts sum, and which way it counts:
 * what tools/judge/ways.c sums again with each process's counts.
 */
struct lp_term {
	size_t insn;            /* the jump, an index into lp_insns.v */
	unsigned char taken;    /* its taken side; 0: its fall-through */
	unsigned char right;    /* counted as the hint right; 0: wrong */
};

/* The terms of one site; none where it is not exact. */
struct lp_terms {
	struct lp_term *v;
	size_t nr, alloc;
};

void lp_terms_add(struct lp_terms *t, size_t insn, int taken, int right);

/* One hint found in the preprocessed sources. */
struct lp_hint {
	char *file;             /* relative to the source folder */
	char *real;             /* its real path, to meet the binary's */
	char *unit;             /* the translation unit */
	char *unit_real;        /* ... its real path */
	char *func;
	char *cond;
	long line;
	long expect;            /* 0, 1, or LP_EXPECT_UNKNOWN */
	/*
	 * A __builtin_expect_with_probability's number (1 + millionths, as
	 * lp_prof_site.prob; 0: none).  @rare: it was below one half, so
	 * @expect is the other value, the way the jumps are read, while
	 * the record says "?" as the instrumented build's does.
	 */
	unsigned int prob;
	int rare;
	/*
	 * In the controlling expression of a while, for or do-while: the
	 * only place where a backward jump of its line is the loop's, taken
	 * when the condition holds.
	 */
	int loop;
	/*
	 * In an if's or a while's condition: the lines of the statement it
	 * guards (0: none apart from the if's own line).  A jump into them is
	 * taken when the condition held; one that falls through into them,
	 * when it did not, whatever the layout.
	 */
	long then_first, then_last;
	/*
	 * ... the lines of the condition, from the if's '(' to its ')';
	 * whether the statement starts on a line after them; and whether it
	 * holds a return, break, continue or goto, which the compiler may
	 * take straight from the condition's jumps, leaving the statement's
	 * own lines no code.
	 */
	long cond_first, cond_last;
	int then_apart, then_jumps;
	/*
	 * ... a statement that is "return E;" alone: where its code may be.
	 * Compilers merge the returns of one value into one block, given
	 * the line of the first: @ret_line lists the lines of every
	 * "return E;" of the function with E spelled the same, and the
	 * function's closing brace; @if_first/@if_last the conditions of
	 * the ifs whose statement is such a return (this one's too), whose
	 * jumps may enter that block.  NULL / 0: not such a statement.
	 */
	long *ret_line;
	size_t nret;
	long *if_first, *if_last;
	size_t nif;
	/*
	 * ... and the lines of every return of the function, whatever its
	 * value: a jmp from one is the function leaving, no test.
	 */
	long *exit_line;
	size_t nexit;
	/*
	 * ... a statement that is "goto L;" alone, L after the if: the
	 * lines from L's to the function's closing brace, where its jump
	 * goes first (0: not such a statement), and the lines of every goto
	 * to L (of its if's condition, for one that is an if's whole
	 * statement), whose jumps may enter that code too.
	 */
	long goto_line, goto_end;
	long *goto_first, *goto_last;
	size_t ngoto;
	/*
	 * A part of an if's or a loop's condition (a && likely(b)): the
	 * compiler may put the other parts' tests on its line (clang does,
	 * for a condition over several lines), so its jumps are not surely
	 * its own.
	 */
	int part;
	/*
	 * ... the first part of an if's condition "HINT && REST" ('&') or
	 * "HINT || REST" ('|'), with no call in the hint and REST one test
	 * holding a call: REST's code runs exactly when the hint's value
	 * did not decide the condition (0: not such a part).
	 */
	char first;
	char *rest;
	/*
	 * The parts before the hint are constants only where its function
	 * is inlined into a caller: parameters that every call passes a
	 * constant (lp_judge_after_constants()).  Not in a copy of its own.
	 */
	int params;
	/*
	 * The other functions the same hint is in: a header included once
	 * per variant, its function's name a macro (libdeflate's
	 * decompress_template.h).  The site is named by the one that ran.
	 */
	char **other_funcs;
	size_t nother_funcs;
};

struct lp_hints {
	struct lp_hint *v;
	size_t nr, alloc;
	size_t failed;          /* sources that did not preprocess */
};

/*
 * Whether @c may stand in a C identifier (hints.c's scan, gotos.c): inline
 * here, so that neither file needs the other for it.
 */
static inline int lp_judge_ident_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_';
}

/*! lp_judge_capture() :
 *  Runs @argv (argv[0] looked up on PATH) with its stdout in a malloc'd
 *  buffer (*out, NUL-terminated, the caller frees it) and stderr passed
 *  through, or to /dev/null when @quiet; with @quiet LP_CAPTURE_ERRORS,
 *  stderr is what *out gets and stdout goes to /dev/null.
 *  @return : its exit status, or -1 when it could not run.
 */
#define LP_CAPTURE_ERRORS 2
int lp_judge_capture(const char *const *argv, int quiet, char **out,
		     size_t *len);

/*! lp_judge_capture_in() :
 *  lp_judge_capture() with the command run in folder @dir (NULL: here).
 */
int lp_judge_capture_in(const char *dir, const char *const *argv, int quiet,
			char **out, size_t *len);

/*! struct lp_capture :
 *  One command for lp_judge_capture_all(): @dir, @argv and @quiet as for
 *  lp_judge_capture_in(); @out, @len and @status (its exit status, or -1
 *  when it could not run, said) are what it gave.
 */
struct lp_capture {
	const char *dir;
	const char *const *argv;
	int quiet;
	char *out;
	size_t len;
	int status;
	void *arg;                      /* the caller's */
	int fd_;                        /* while it runs */
	size_t cap_;
	pid_t pid_;
};

/*! lp_judge_capture_all() :
 *  Runs the @n commands of @c, as many at once as there are processors,
 *  and hands each to @done in their order, as soon as it and those
 *  before it have ended; @out is freed when @done returns.  A compiler
 *  preprocessing one unit after another leaves the other processors
 *  idle, and judge's own work should cost less than the run it reads.
 *  @return : 0, or -1 (said) as soon as @done or the pool fails.
 */
int lp_judge_capture_all(struct lp_capture *c, size_t n,
			 int (*done)(struct lp_capture *c, void *ctx),
			 void *ctx);

/*! lp_judge_why_not() :
 *  Says why unit @path does not preprocess with @argv run in @dir (NULL:
 *  here): the compiler's first error, and what judge needs to be given.
 */
void lp_judge_why_not(const char *path, const char *dir,
		      const char *const *argv);

/*! lp_judge_slurp() :
 *  The contents of file @path, NUL-terminated, malloc'd (the caller
 *  frees it), its length in *@len; NULL with errno set when unreadable.
 */
char *lp_judge_slurp(const char *path, size_t *len);

/*! lp_judge_on_path() :
 *  @return : true when @name is an executable on PATH (or a path to one).
 */
int lp_judge_on_path(const char *name);

/*! lp_judge_valgrind() :
 *  Runs @argv under callgrind with jump collection, following children,
 *  writing into folder @dir.  @status gets the program's exit status.
 */
int lp_judge_valgrind(const char *const *argv, const char *dir,
		      int *status);

/*! lp_judge_dwarf5() :
 *  True when the debug information of @prog is DWARF 5 (readelf says),
 *  which valgrind 3.19 cannot always read: clang 14's default.
 */
int lp_judge_dwarf5(const char *prog);

/*! lp_callgrind_read() :
 *  Adds the instructions of callgrind output @path to @in.
 */
int lp_callgrind_read(struct lp_insns *in, const char *path);

/*! lp_callgrind_each() :
 *  Reads callgrind output @path again, handing each record (an
 *  instruction's executions, or a jump's taken or call count at its
 *  position) to @sink, nothing kept: one process's counts.
 *  @return : 0, or -1 (said).
 */
int lp_callgrind_each(const char *path,
		      void (*sink)(void *ctx, const struct lp_insn *ins),
		      void *ctx);

/*! lp_jumps_mark() :
 *  Marks the conditional jumps among @in's instructions by the
 *  disassembly of each object (objdump), for the objects that hold code
 *  of a file in @want (real paths, @nwant of them).
 */
int lp_jumps_mark(struct lp_insns *in, char *const *want, size_t nwant);

/*! lp_jumps_list() :
 *  Adds every conditional jump of @prog to @in (which holds nothing of
 *  it yet) with its file, line and symbol from the disassembly and line
 *  table (objdump -d -l), counts zero, sorted by address; notes where
 *  each symbol starts in @in->fn_start.
 */
int lp_jumps_list(struct lp_insns *in, const char *prog);

/*! lp_perf_script() :
 *  Runs perf script on @data (a perf.data) for what lp_perf_read()
 *  reads, into the malloc'd *@text the caller frees.
 */
int lp_perf_script(const char *data, char **text);

/*! lp_perf_read() :
 *  Counts the jumps of @in (from lp_jumps_list() of @prog) from the
 *  branch records of perf script output @text (NUL-terminated, changed
 *  in place), named @name in errors.  @samples gets the number of
 *  samples, @period whether they had a sampling period to scale by.
 */
int lp_perf_read(struct lp_insns *in, const char *prog, const char *name,
		 char *text, size_t *samples, int *period);

/*! lp_hints_scan_units() :
 *  Preprocesses the @n units of @c (each one's path in ->arg), several at
 *  once, and scans each one's text for hints into @out; @root, ending in
 *  '/', is the source folder the hints' paths are relative to
 *  (hints.c; sources.c says which units).
 *  @return : 0, or -1 on an error already said.
 */
int lp_hints_scan_units(struct lp_hints *out, const char *root,
			struct lp_capture *c, size_t n);

/*! lp_hints_find() :
 *  Preprocesses every .c file under @src with @cc and @flags (NULL-ended)
 *  and appends each hint of a file under @src to @out, once per place.
 */
int lp_hints_find(struct lp_hints *out, const char *src, const char *cc,
		  const char *const *flags);
void lp_hints_release(struct lp_hints *h);

/* One compile command of a build's compile_commands.json. */
struct lp_compile_cmd {
	char *dir;              /* where it ran */
	char *file;             /* the source, absolute */
	char **argv;            /* the compiler and its arguments */
	size_t argc;
};

struct lp_compile_db {
	struct lp_compile_cmd *v;
	size_t nr;
};

/*! lp_compile_db_read() :
 *  Reads the JSON compilation database @path ("arguments" or "command"
 *  entries) into @db, to release with lp_compile_db_release().
 */
int lp_compile_db_read(struct lp_compile_db *db, const char *path);
void lp_compile_db_release(struct lp_compile_db *db);

/*! lp_compile_cmd_preprocess() :
 *  The command @c as a preprocessing one: its options without those that
 *  compile or write files (-c, -o, -M...), then -E and the source.
 *  @return : a malloc'd NULL-ended array of @c's strings; free the array
 *            only.
 */
const char **lp_compile_cmd_preprocess(const struct lp_compile_cmd *c);

/*! lp_hints_find_db() :
 *  As lp_hints_find(), with each C file of @db under @src preprocessed by
 *  its own command, run in its own folder.
 */
int lp_hints_find_db(struct lp_hints *out, const char *src,
		     const struct lp_compile_db *db);

/*! lp_judge_decide() :
 *  One site per hint in @out, its counts from the jumps of its line.  A
 *  site with a jump whose layout is against the hint (lp_insn.against) is
 *  ambiguous, and said on stderr; @against gets how many there were.
 *  With @explain, every site that is not exact is said on stderr with
 *  the first reason for it (judge --explain).  @terms, if not NULL,
 *  gets one malloc'd entry per site of @out (the caller frees each v
 *  and the array): the jumps' sides each exact site sums.
 */
int lp_judge_decide(struct lp_profile *out, const struct lp_hints *h,
		    const struct lp_insns *in, int explain, size_t *against,
		    struct lp_terms **terms);

/*! lp_judge_ways() :
 *  Reads each process's callgrind file again (in->dumps) and gives each
 *  exact site of @prof the votes and ways of its processes, summed over
 *  its @terms (one entry per site) as run's merge gives them; a site
 *  whose processes' sums are not its own gets none.
 *  @return : 0, or -1 (said).
 */
int lp_judge_ways(struct lp_profile *prof, const struct lp_insns *in,
		  const struct lp_terms *terms);

void lp_insns_release(struct lp_insns *in);
/* The instruction of @obj at @addr, once lp_jumps_mark() sorted them. */
const struct lp_insn *lp_insns_find(const struct lp_insns *in,
				    const char *obj, uint64_t addr);
/* The edges of @obj that jump to @target (*@nr of them), once
 * lp_jumps_mark() sorted them. */
const struct lp_edge *lp_insns_edges_into(const struct lp_insns *in,
					  const char *obj, uint64_t target,
					  size_t *nr);
void lp_insns_push(struct lp_insns *in, const struct lp_insn *ins);
/* A copy of @s kept by @in until lp_insns_release(). */
const char *lp_insns_name(struct lp_insns *in, const char *s, size_t n);
/* The same, one copy for every equal @s: equal names, equal pointers. */
const char *lp_insns_intern(struct lp_insns *in, const char *s, size_t n);

#endif /* LP_JUDGE_H */
