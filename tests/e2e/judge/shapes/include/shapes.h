/*
 * shapes.h - the hints of the judge shape probes (tests/e2e/judge-shapes.sh),
 * and one hint of their own: a header found through -Iinclude
 */
#ifndef SHAPES_H
#define SHAPES_H

#include <stddef.h>

#define likely(x) __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)

int cold_paths(int n);
int rare_continue(const int *v, int n);
int rare_above(const int *v, int n);
int and_never(const int *v, int n);
int never_run(int n);
int cold_function(int n);
int both_parts(const int *v, int n);
int parse_pair(const int *v, int n, int i);
long cont_end(const int *v, int n);
int or_ret(int x, int y);
long bad_cont(const int *v, int n);
int scan_to(const int *v, int n);
int two_errs(const int *v, int n, int i);
int with_goto(const int *v, int n);
int both_ret(int x);
void void_end(int x);
int runs_back(const int *v, int n, int pat);
double float_ne(const double *d, int n);
long lead_sum(const int *v, int n);
long spread_rare(const int *v, int n);
long odd_pair(const int *v, int n);
long odd_call(const int *v, int n);
int goto_shared(const int *v, int n);
long first_and(const int *v, int n);
long first_or(const int *v, int n);
long first_plain(const int *v, int n);
int errs_two(const int *v, int n, int i);
int err_flag(int x, int y);
long never_cont(const int *v, int n);
long never_skip(const int *v, int n);
long cmov_part(const int *v, int n);
long queue_run(const int *v, int n);
long after_const(const int *v, int n);
long after_param(const int *v, int n);
long unpack(const unsigned char *src, size_t n, unsigned char *dst,
	    size_t cap);
long unpack_bad(const unsigned char *src, size_t n, size_t cap);
long skip_runs(const unsigned char *src, size_t n);
long feed_bits(const int *v, int n);
long ctl_all(const int *v, int n);
long run_all(const int *v, int n);
long seq_all(const int *v, int n);
long poll_all(const int *v, int n);

static inline int clamp_small(int x)
{
	if (unlikely(x > 1000))
		return 1000;
	return x;
}

#endif
