/*
 * where.h - where an address of the binary is (tools/judge/where.c)
 */
#ifndef LP_JUDGE_WHERE_H
#define LP_JUDGE_WHERE_H

#include <stddef.h>
#include <stdint.h>

#include "judge/judge.h"

/*
 * The real path of each instruction's file, computed once per name: the
 * names in the order met, and a table of their indexes by pointer, asked
 * once per instruction.
 */
struct lp_real_cache {
	const char **name;
	char **real;
	size_t nr;
	size_t *slot;           /* index + 1, 0 for none; a power of two */
	size_t nslot;
};
#define LP_REAL_CACHE_INIT { NULL, NULL, 0, NULL, 0 }

/*! lp_real_of() :
 *  The real path of @name (compared by pointer: names are interned), or
 *  NULL where it does not resolve; kept in @c until
 *  lp_real_cache_release().
 */
const char *lp_real_of(struct lp_real_cache *c, const char *name);
void lp_real_cache_release(struct lp_real_cache *c);

/*
 * The runs of instructions of the line tables by object and address, to
 * say which line an address is on: @line_real holds their real paths.
 */
struct lp_runs {
	const struct lp_insns *in;
	const char **line_real;
	struct lp_real_cache *cache;    /* for the callers' files */
	const struct lp_hints *hints;   /* every hint judged (NULL: none) */
	size_t *by_addr;
	size_t nr;
};

/* Sorts the runs of @in (by_addr to free). */
void lp_runs_init(struct lp_runs *r, const struct lp_insns *in,
		  const char **line_real, struct lp_real_cache *cache);

/*
 * The run of the line tables that @addr of @obj is in: its index in
 * r->in->lines, or -1.
 */
long lp_run_at(const struct lp_runs *r, const char *obj, uint64_t addr);

/*
 * Is @addr of @obj on a line of the statement @hint's if guards, or code
 * inlined from a call there?
 */
int lp_in_then(const struct lp_runs *r, const struct lp_hint *hint,
	       const char *obj, uint64_t addr);

/*
 * Code inlined into @hint's function at @addr of @obj: the line of the
 * call there it came from (the innermost, objdump's inlined-by chain
 * naming the function), or 0.
 */
long lp_call_line(const struct lp_runs *r, const struct lp_hint *hint,
		  const char *obj, uint64_t addr);

/* ... and the function called there, into *@callee (NULL: unknown). */
long lp_call_from(const struct lp_runs *r, const struct lp_hint *hint,
		  const char *obj, uint64_t addr, const char **callee);

/* "f" of "f.cold" and of "f": the parts of one function are one. */
int lp_same_function(const char *a, const char *b);

/* The index of @obj's instruction at @addr in in->code, or -1. */
long lp_code_at(const struct lp_insns *in, const char *obj, uint64_t addr);

/*
 * Where straight code goes on after instruction @i of in->code: a jmp's
 * target, else the next instruction of its object; 0 where it ends.
 */
uint64_t lp_code_next(const struct lp_insns *in, long i);

#endif /* LP_JUDGE_WHERE_H */
