/*
 * shapes.c - the code shapes that judge once read backwards (issue 30):
 * an error path that gcc moves to a .cold part (behind the function in
 * the address order: a backward jump into another symbol), a rare
 * continue and a rare block placed above inside a loop (backward jumps
 * that are no loop's condition), and a && whose second jump never runs
 */
#include <stdio.h>
#include <stdlib.h>

#include "shapes.h"

__attribute__((cold, noinline)) static void complain(int i)
{
	if (getenv("SHAPES_LOUD"))
		fprintf(stderr, "odd %d\n", i);
}

int cold_paths(int n)
{
	int i, s = 0;
	char *p;

	for (i = 0; i < n; i++) {
		p = malloc(16 + (size_t)(i % 7));
		if (unlikely(!p))
			abort();
		p[0] = (char)i;
		s += p[0];
		free(p);
		if (unlikely(i % 50 == 0))
			complain(i);
		s += clamp_small(i);
	}
	return s;
}

int rare_continue(const int *v, int n)
{
	int i, s = 0, bad = 0;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] < 0)) {
			bad++;
			continue;
		}
		s += v[i] / 3;
	}
	return s + bad;
}

int rare_above(const int *v, int n)
{
	unsigned h = 0;
	int i = 0;

	while (likely(i < n)) {
		if (unlikely(v[i] < 0)) {
			h = h * 31 + (unsigned)-v[i];
			h ^= h >> 7;
		} else {
			h += (unsigned)v[i];
		}
		i++;
	}
	return (int)(h & 0xffff);
}

int and_never(const int *v, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] > 1000000 && v[i] % 3 == 1))
			s -= 5;
		s += v[i] & 1;
	}
	return s;
}

int never_run(int n)
{
	if (unlikely(n > 100))
		abort();
	return n * 2;
}

/* optimised for size: gcc puts the guarded block in the fall-through */
__attribute__((cold, noinline)) int cold_function(int n)
{
	int s = 0;

	if (unlikely(n > 1000)) {
		s = n * 3;
		s ^= n >> 2;
		printf("%d\n", s);
	}
	return s + 1;
}

/*
 * a condition of two parts that both run, guarding a block with no jump
 * of its own: its tests read as a chain, every evaluation ending in the
 * block or after it
 */
int both_parts(const int *v, int n)
{
	int i, s = 0;

	for (i = 0; i < n; i++) {
		if (likely(v[i] > 10 && (v[i] & 3) != 0)) {
			s += v[i] % 7;
			s ^= i;
		}
		s++;
	}
	return s;
}

/*
 * error checks whose "return -1;" the compiler merges into one block,
 * given one return's line (or the closing brace's): read by where each
 * side goes, the merged return or the code after the if
 */
__attribute__((noinline)) int parse_pair(const int *v, int n, int i)
{
	int a, b;

	if (unlikely(i >= n))
		return -1;
	a = v[i];
	if (unlikely(a < 0))
		return -1;
	b = v[(i * 7) % n];
	if (unlikely(b < 0))
		return -1;
	return a + b;
}

/*
 * more shapes of the same kinds, none of which may read exact and be
 * wrong: a two-part condition whose statement is a continue at the end
 * of the loop (no work: never a chain), a || guarding a return merged
 * with the function's other return, a || guarding work and a continue,
 * a two-part loop condition, returns of two values interleaved, a goto
 * out of a loop, returns on both branches, and a return at the end of a
 * void function
 */
__attribute__((noinline)) long cont_end(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		s += v[i];
		if (likely(v[i] > 3 && v[i] % 5 != 0))
			continue;
	}
	return s;
}

__attribute__((noinline)) int or_ret(int x, int y)
{
	if (unlikely(x < 0 || y < 0))
		return 0;
	return x * 3 + y;
}

__attribute__((noinline)) long bad_cont(const int *v, int n)
{
	long s = 0, bad = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] < 0 || v[i] > 90)) {
			bad++;
			continue;
		}
		s += v[i];
	}
	return s + bad;
}

__attribute__((noinline)) int scan_to(const int *v, int n)
{
	int i = 0;

	while (likely(i < n && v[i] != 7))
		i++;
	return i;
}

__attribute__((noinline)) int two_errs(const int *v, int n, int i)
{
	if (unlikely(n <= 0))
		return -1;
	if (unlikely(i < 0))
		return 0;
	if (unlikely(v[i % n] == 13))
		return -1;
	if (unlikely(v[(i + 1) % n] == 17))
		return 0;
	return v[i % n];
}

static volatile long seen;

__attribute__((noinline)) int with_goto(const int *v, int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] == 42))
			goto fail;
		s += v[i];
	}
	return s;
fail:
	seen++;
	return -s;
}

__attribute__((noinline)) int both_ret(int x)
{
	if (unlikely(x % 3 == 0))
		return x / 3;
	else
		return x * 2;
}

__attribute__((noinline)) void void_end(int x)
{
	seen += x;
	if (unlikely(x % 4 == 1))
		return;
}

/*
 * a loop's condition in an inline function that one caller inlines
 * twice, once on a path that never runs: each copy's entry test falls
 * through into code of the condition's own line before the body, and
 * the copies that ran add up
 */
static inline int run_back(const int *p, const int *low, int pat)
{
	int s = 0;

	while (likely(p >= low + 4)) {
		if (p[-1] != pat)
			break;
		p--;
		s += *p * 3;
	}
	return s;
}

__attribute__((noinline)) int runs_back(const int *v, int n, int pat)
{
	int s = run_back(v + n, v, pat);

	if (pat == 12345)
		s += run_back(v + n / 2, v + 1, pat + 1);
	return s;
}

/*
 * a float compare of one part that is two jumps (jp, then jne): one
 * evaluation runs both, so they are no copies to add up
 */
__attribute__((noinline)) double float_ne(const double *d, int n)
{
	double s = 0;
	int i;

	for (i = 1; i < n; i++) {
		if (unlikely(d[i] != d[i - 1])) {
			s += d[i] * 0.5;
			s -= d[i - 1];
		}
		s += 1.0;
	}
	return s;
}

/*
 * an if whose statement returns from an inline function inlined into
 * another inline one: past the return, the code of the function it was
 * inlined into is a join that other paths enter too, and no part of the
 * statement
 */
static inline int lead_same(const int *a, const int *b, int n)
{
	if (likely(n > 1)) {
		if (a[0] != b[0])
			return 0;
		return 1 + (a[1] == b[1]);
	}
	return n;
}

static inline long lead_step(const int *v, int i, long s)
{
	if (v[i] & 1)
		s += lead_same(v + i, v + i + 2, i % 6) * 5;
	else
		s -= v[i] >> 3;
	return s ^ i;
}

__attribute__((noinline)) long lead_sum(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i + 8 < n; i++)
		s = lead_step(v, i, s);
	return s;
}

/*
 * an if whose statement is a call of an inline function with a loop: the
 * loop's last test, the callee's line, jumps to the code after the if,
 * which is the statement ending, not a jump from elsewhere
 */
static inline void spread(int *d, int x, int n)
{
	do {
		d[0] = x;
		d[1] = x + 1;
		d += 2;
		n -= 2;
	} while (n > 0);
}

__attribute__((noinline)) long spread_rare(const int *v, int n)
{
	static int buf[64];
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] % 11 == 3))
			spread(buf, v[i], (v[i] & 31) + 4);
		s += buf[i & 63];
	}
	return s;
}

/*
 * a condition of two parts whose statement does some work, and whose
 * not-held side falls straight into a call of an inline function after
 * the if: code of the callee's lines, placed by the line it was called
 * from
 */
static inline void put2(int *d, const int *s)
{
	d[0] = s[0] * 3;
	d[1] = s[1] ^ 5;
}

__attribute__((noinline)) long odd_pair(const int *v, int n)
{
	static int out[64];
	const int *p, *end = v + n - 1;
	long s = 0, bad = 0;

	for (p = v; p < end; p++) {
		if (unlikely(p[0] < 0 ||
			     p[1] > 11990)) {
			bad += p[0] & 7;
			s ^= bad;
		}
		put2(out, p);
		s += out[1];
	}
	return s + bad;
}

/*
 * ... and one whose second part calls an inline function with tests of
 * its own: a side into the callee's code is still inside the condition,
 * which no line of the callee tells
 */
static inline int big_odd(int x)
{
	if (x > 9000)
		return x % 3 == 1;
	return x < -3;
}

__attribute__((noinline)) long odd_call(const int *v, int n)
{
	const int *p, *end = v + n - 1;
	long s = 0, bad = 0;

	for (p = v; p < end; p++) {
		if (unlikely(p[0] == 7 ||
			     big_odd(p[1]))) {
			bad += p[0] & 7;
			s ^= bad;
		}
		s += p[1] >> 2;
	}
	return s + bad;
}

/*
 * a goto to a label that the loop's own exit and a break reach too: the
 * jumps into the label's code from them look like a test threaded past
 * the hint's, so it is no reading
 */
__attribute__((noinline)) int goto_shared(const int *v, int n)
{
	int s = 0, i;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] == 42))
			goto out;
		if (v[i] == 11997)
			break;
		s += v[i] & 3;
	}
out:
	seen += s;
	return s;
}

/*
 * a hint that is the first part of its condition, the rest a call of an
 * inline function with a loop of its own (as lz4's and zstd's length
 * readers): the side of the hint's one jump that runs the callee's code
 * is the hint holding for &&, ...
 */
static inline const int *skip_run(const int *p, const int *end, int *k)
{
	do {
		if (p >= end)
			return NULL;
		*k += *p & 3;
	} while (*p++ % 3 == 0);
	return p;
}

__attribute__((noinline)) long first_and(const int *v, int n)
{
	const int *p = v, *end = v + n;
	long s = 0, bad = 0;
	int k;

	while (p < end) {
		k = *p++ & 15;
		if (unlikely(k == 15) && !(p = skip_run(p, end, &k))) {
			bad++;
			break;
		}
		s += k;
	}
	return s + bad * 7;
}

/* ... not holding for ||, wrong two times in five here ... */
static inline int settle(int *x, int lim)
{
	int n = 0;

	while (*x > lim) {
		*x -= lim;
		n++;
	}
	return n;
}

__attribute__((noinline)) long first_or(const int *v, int n)
{
	long s = 0;
	int i, x;

	for (i = 0; i < n; i++) {
		x = v[i];
		if (likely(x % 5 < 3) || settle(&x, 700) > 2) {
			s += x;
			s ^= i;
		}
		s += x & 1;
	}
	return s;
}

/*
 * ... and where the rest calls nothing, no code of it says which jump is
 * the hint's (a compiler may test the parts in either order, or as one)
 */
__attribute__((noinline)) long first_plain(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] % 4 == 1) && v[i] > 600) {
			s += v[i];
			s ^= i;
		}
		s += v[i] & 1;
	}
	return s;
}

/*
 * an error check of two parts whose "return -1;" the compiler merges
 * with the function's others, on another line: read as a chain through
 * that block, one jump per part ...
 */
__attribute__((noinline)) int errs_two(const int *v, int n, int i)
{
	if (unlikely(n <= 0))
		return -1;
	if (unlikely(v[i % n] < 0 || v[(i + 7) % n] % 11 == 4))
		return -1;
	if (unlikely(v[(i + 3) % n] == 5))
		return -1;
	return v[i % n] & 7;
}

/* ... where a part may be no jump at all but a flag of the value */
__attribute__((noinline)) int err_flag(int x, int y)
{
	if (unlikely(x % 7 == 3 || y < x))
		return -1;
	return 0;
}

/*
 * a check of two parts that never held, whose statement does some work
 * before its continue: no code of the statement ran, so the condition
 * never held, and it reads exactly as a chain (a loop of a step the data
 * decides, which clang does not unroll) ...
 */
__attribute__((noinline)) long never_cont(const int *v, int n)
{
	const int *p, *end = v + n;
	long s = 0, bad = 0;

	for (p = v; p < end; p += 1 + (*p & 1)) {
		if (unlikely(*p > 1000000 || *p == -3)) {
			bad += *p >> 1;
			continue;
		}
		s += *p & 5;
	}
	return s + bad;
}

/* (a call: no cmov can stand for the code after the if) */
static __attribute__((noinline)) long weigh(int x)
{
	return x & 6;
}

/* ... not where the statement is the continue alone, which a test may skip */
__attribute__((noinline)) long never_skip(const int *v, int n)
{
	const int *p, *end = v + n;
	long s = 0;

	for (p = v; p < end; p += 1 + (*p & 1)) {
		if (unlikely(*p > 1000000 || *p == -5))
			continue;
		s += weigh(*p);
	}
	return s;
}

/*
 * a check whose second part gcc turns into a cmov in the code after the
 * if: the line's one jump is the first part's, which no reading can tell
 * from the whole (read by the layout, it was wrong 8% of the time where
 * the condition held 26%)
 */
__attribute__((noinline)) long cmov_part(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (unlikely(v[i] > 11000 || v[i] % 5 == 2))
			continue;
		s += v[i] & 6;
	}
	return s;
}

/*
 * an if whose statement, on its own line from a macro, gcc moves to a
 * .cold part that ends by jumping back to the code after the if, a value
 * of the next line reloaded there after the call (libev's
 * array_needsize): that jump is the statement ending, its every run past
 * the hint's jump, so the site reads exactly ...
 */
struct slot {
	const int *w;
	int ev;
};

struct queue {
	int cnt[4], max[4];
	struct slot *s[4];
};

static struct slot slot_pool[8][4096];
static int slot_next;

static __attribute__((noinline, cold)) void slots_grow(struct slot **s,
						       int *max, int n)
{
	*max = n + 16;
	*s = slot_pool[slot_next++ & 7];
}

#define NEEDSIZE(base, cur, cnt) if (unlikely((cnt) > (cur))) { slots_grow(&(base), &(cur), (cnt)); }

void queue_put(struct queue *q, int *pend, int pri, int ev);
void queue_force(struct queue *q, int *pend, int pri, int ev);

__attribute__((noinline)) void queue_put(struct queue *q, int *pend, int pri,
					 int ev)
{
	*pend = ++q->cnt[pri];
	NEEDSIZE(q->s[pri], q->max[pri], *pend);
	q->s[pri][*pend - 1].w = pend;
	q->s[pri][*pend - 1].ev = ev;
}

/*
 * ... not where a goto enters that statement past its start: the jump
 * back then ends runs that never passed the hint's jump
 */
__attribute__((noinline)) void queue_force(struct queue *q, int *pend,
					   int pri, int ev)
{
	*pend = ++q->cnt[pri];
	if (ev % 7 == 3)
		goto grow;
	if (unlikely(*pend > q->max[pri])) { seen++; grow: slots_grow(&q->s[pri], &q->max[pri], *pend); }
	q->s[pri][*pend - 1].w = pend;
	q->s[pri][*pend - 1].ev = ev;
}

__attribute__((noinline)) long queue_run(const int *v, int n)
{
	static struct queue q;
	static int pend[8];
	long s = 0;
	int i;

	for (i = 0; i < 4; i++)
		q.cnt[i] = 0;
	for (i = 0; i < n; i++) {
		queue_put(&q, &pend[i & 7], i & 3, v[i]);
		queue_force(&q, &pend[(i + 1) & 7], (i + 1) & 3, v[i]);
		s += pend[i & 7];
	}
	return s;
}

/*
 * a hint after a call of a function that returns a constant (zstd's
 * "MEM_64bits() && UNLIKELY(...)"): where the condition has code at all,
 * the call held, and the hint is the whole condition ...
 */
static inline unsigned wide_words(void)
{
	return sizeof(long) == 8;
}

static int knob_on = 1;

/* ... not after a call whose value the run decides */
static inline int knob(void)
{
	return knob_on;
}

__attribute__((noinline)) long after_const(const int *v, int n)
{
	long s = 0, odd = 0;
	int i;

	for (i = 0; i < n; i++) {
		if (wide_words() && unlikely(v[i] % 7 == 4)) {
			odd += v[i];
			s ^= odd;
		}
		knob_on = (v[i] & 3) != 1;
		if (knob() && unlikely(v[i] % 11 == 3)) {
			odd -= v[i];
			s ^= odd >> 2;
		}
		s += v[i] & 3;
	}
	return s + odd;
}

/*
 * a hint after a parameter that every call passes a constant (lz4's
 * read_variable_length(..., 1) and its "initial_check && unlikely(x)"),
 * inlined twice into one caller: each copy's one jump is the hint's ...
 */
static int bad_lens;

static __attribute__((noinline, cold)) void bad_len(int i)
{
	bad_lens += i & 1;
}

static inline __attribute__((always_inline)) int read_len(const int *v,
							  int i, int check)
{
	if (check && unlikely(v[i] % 7 == 2)) {
		bad_len(i);
		return 0;
	}
	return v[i] & 7;
}

/* ... not where a call passes a value the run decides */
static inline __attribute__((always_inline)) int read_run(const int *v,
							  int i, int check)
{
	if (check && unlikely(v[i] % 13 == 5)) {
		bad_len(i + 1);
		return 0;
	}
	return v[i] & 3;
}

__attribute__((noinline)) long after_param(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i + 1 < n; i++) {
		s += read_len(v, i, 1) * 3 + read_len(v, i + 1, 1);
		s += read_run(v, i, v[i] & 1);
	}
	return s + bad_lens;
}

/*
 * error checks in a loop whose "return -1;" gcc merges into one block,
 * giving the -1 the loop head's line (the workload's decoder): the side
 * that runs that block on to the function's end is the return, the one
 * that runs the code after the if is not ...
 */
__attribute__((noinline)) long unpack(const unsigned char *src, size_t n,
				      unsigned char *dst, size_t cap)
{
	const unsigned char *ip = src, *iend = src + n;
	unsigned char *op = dst, *oend = dst + cap;

	while (likely(ip < iend)) {
		unsigned token = *ip++;
		size_t nlit = token >> 4, mlen = (token & 15) + 4, off;

		if (unlikely(nlit > (size_t)(iend - ip) ||
			     nlit > (size_t)(oend - op)))
			return -1;
		__builtin_memcpy(op, ip, nlit);
		op += nlit;
		ip += nlit;
		if (unlikely(ip == iend))
			break;
		if (unlikely(iend - ip < 2))
			return -1;
		off = ip[0] | (size_t)ip[1] << 8;
		ip += 2;
		if (unlikely(off == 0 || off > (size_t)(op - dst)))
			return -1;
		if (unlikely(mlen > (size_t)(oend - op)))
			return -1;
		while (mlen--) {
			*op = op[-(long)off];
			op++;
		}
	}
	return (long)(op - dst);
}

/* ... not where a goto from another statement enters that block too */
__attribute__((noinline)) long unpack_bad(const unsigned char *src,
					  size_t n, size_t cap)
{
	const unsigned char *ip = src, *iend = src + n;
	size_t out = 0;

	while (likely(ip < iend)) {
		unsigned token = *ip++;
		size_t nlit = token >> 4;

		if (token == 0x2c)
			goto bad;
		if (unlikely(nlit > (size_t)(iend - ip) || out + nlit > cap))
			return -1;
		out += nlit + (token & 15);
		ip += nlit + 2;
	}
	return (long)out;
bad:
	return -1;
}

/*
 * ... a while's condition clang tests before the loop and again at its
 * head (unpack()'s, above), each falling straight into the body: the
 * copies add up; not one that expects false, whose layout says nothing
 */
__attribute__((noinline)) long skip_runs(const unsigned char *src, size_t n)
{
	size_t i = 0;
	long s = 0;

	while (unlikely(i < n)) {
		s += src[i];
		i += 1 + src[i] % 3;
	}
	return s;
}

/*
 * an if in an inline function whose side runs on where its caller's loop
 * goes on, the call guarded by another hint's if whose other side jumps
 * there too (libev's fd_event under "if (expect_true (events))"): that
 * jump skips the call, no test threaded past the inlined one ...
 */
static unsigned char fd_busy[64];
static long fd_fed;

static __attribute__((noinline)) void fd_feed(int fd, int ev)
{
	fd_fed += fd + ev;
}

static inline __attribute__((always_inline)) void fd_note(int fd, int ev)
{
	if (likely(!fd_busy[fd]))
		fd_feed(fd, ev);
}

/* ... not where that if has no hint: no lines say which side skips */
static inline __attribute__((always_inline)) void fd_plain(int fd, int ev)
{
	if (likely(!fd_busy[fd]))
		fd_feed(fd, ev * 2);
}

__attribute__((noinline)) long feed_bits(const int *v, int n)
{
	int i;

	for (i = 0; i < 64; i++)
		fd_busy[i] = i % 29 == 3;
	for (i = 0; i < n; i++) {
		int ev = v[i] & 3;

		if (likely(ev))
			fd_note(v[i] & 63, ev);
	}
	for (i = 0; i < n; i++) {
		int ev = v[i] & 5;

		if (ev)
			fd_plain((v[i] >> 2) & 63, ev);
	}
	return fd_fed;
}

/*
 * a hint whose condition is one call, its arguments tested on its line
 * before the call (libev's "expect_true (!epoll_ctl (fd, oev && oldmask
 * != nev ? MOD : ADD, ...))"): every way from those tests leads into the
 * call, and the one jump straight after it tests its value ...
 */
static long ctl_sum;

static __attribute__((noinline)) int ctl(int fd, int op)
{
	ctl_sum += op;
	return fd % 11 == 4 ? -1 : 0;
}

static __attribute__((noinline)) void ctl_fix(int fd)
{
	ctl_sum += fd;
}

__attribute__((noinline)) void ctl_set(int fd, int old, int mask, int now)
{
	if (likely(!ctl(fd, old && mask != now ? 3 : 1)))
		return;
	ctl_fix(fd);
}

/* ... not where the call is inlined: no call says which test is after */
static inline __attribute__((always_inline)) int ctl_in(int fd, int op)
{
	ctl_sum += op * 2;
	return fd % 13 == 5 ? -1 : 0;
}

__attribute__((noinline)) void ctl_set_in(int fd, int old, int mask,
					  int now)
{
	if (likely(!ctl_in(fd, old && mask != now ? 3 : 1)))
		return;
	ctl_fix(fd + 1);
}

__attribute__((noinline)) long ctl_all(const int *v, int n)
{
	int i;

	for (i = 0; i < n; i++) {
		ctl_set(v[i] & 63, i & 1, v[i] & 3, i & 3);
		ctl_set_in(v[i] & 63, i & 1, v[i] & 3, i & 3);
	}
	return ctl_sum;
}

/*
 * a rare return in the loop of an inline function inlined twice: gcc
 * sends the return into its caller's code, placed above (the workload's
 * get_length); the other side runs on in that copy to a test, which no
 * return does ...
 */
static inline __attribute__((always_inline)) const unsigned char *
run_len(const unsigned char *ip, const unsigned char *iend, size_t *len)
{
	unsigned b;

	do {
		if (unlikely(ip >= iend))
			return NULL;
		b = *ip++;
		*len += b;
	} while (b == 255);
	return ip;
}

/* ... not a condition of two parts, whose jumps may be either part's */
static inline __attribute__((always_inline)) const unsigned char *
run_len2(const unsigned char *ip, const unsigned char *iend, size_t *len)
{
	unsigned b;

	do {
		if (unlikely(ip >= iend || *ip == 7))
			return NULL;
		b = *ip++;
		*len += b;
	} while (b == 255);
	return ip;
}

/* ... and so in braces, "{ return NULL; }" (lz4's read_variable_length) */
static inline __attribute__((always_inline)) const unsigned char *
run_len3(const unsigned char *ip, const unsigned char *iend, size_t *len)
{
	unsigned b;

	do {
		if (unlikely(ip >= iend)) {
			return NULL;
		}
		b = *ip++;
		*len += b;
	} while (b == 255);
	return ip;
}

static __attribute__((noinline)) long run_lens(const unsigned char *src,
					       size_t n)
{
	const unsigned char *ip = src, *iend = src + n;
	size_t len = 0;

	while (ip < iend) {
		unsigned t = *ip++;
		size_t a = t & 15, b = t >> 4;

		if (a == 15 && !(ip = run_len(ip, iend, &a)))
			return -1;
		if (b == 15 && !(ip = run_len2(ip, iend, &b)))
			return -2;
		if (t == 0xf3 && !(ip = run_len3(ip, iend, &a)))
			return -3;
		len += a + b;
	}
	return (long)len;
}

/* ... not one of two parts in braces */
static inline __attribute__((always_inline)) const unsigned char *
run_len4(const unsigned char *ip, const unsigned char *iend, size_t *len)
{
	unsigned b;

	do {
		if (unlikely(ip >= iend || *ip == 9)) {
			return NULL;
		}
		b = *ip++;
		*len += b;
	} while (b == 255);
	return ip;
}

static __attribute__((noinline)) long run_lens4(const unsigned char *src,
						size_t n)
{
	const unsigned char *ip = src, *iend = src + n;
	size_t len = 0;

	while (ip < iend) {
		size_t a = *ip++ & 15;

		if (a == 15 && !(ip = run_len4(ip, iend, &a)))
			return -1;
		len += a;
	}
	return (long)len;
}

__attribute__((noinline)) long run_all(const int *v, int n)
{
	static unsigned char buf[4096];
	long s = 0;
	int i;

	for (i = 0; i < n && i < 4096; i++)
		buf[i] = (unsigned char)(v[i] % 5 == 0 ? 255 : v[i] % 3 ? 0xff :
					 v[i] % 7 ? 0xf3 : 0x3f);
	for (i = 0; i < 64; i++)
		s += run_lens(buf + i * 3, (size_t)(40 + i * 50));
	return s + run_lens4(buf, 4000);
}

/*
 * a rare error return in the loop of an inline function whose copy's
 * returns all go to its caller's code after the call (zstd's
 * ZSTD_decompressSequences_body): the jmp of its last "return s * 2;"
 * into that code is the function leaving, no test threaded past ...
 */
static long steps;

static __attribute__((noinline)) long step_of(int x)
{
	steps++;
	return x % 211 == 5 ? -3 : x & 7;
}

static inline __attribute__((always_inline)) int is_err(long r)
{
	return (unsigned long)r > (unsigned long)-100;
}

static inline __attribute__((always_inline)) long seq_body(const int *v,
							   int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		long r = step_of(v[i]);

		if (unlikely(is_err(r)))
			return r;
		s += r;
	}
	return s * 2 + steps;
}

static __attribute__((noinline)) long seq_one(const int *v, int n)
{
	return seq_body(v, n);
}

/*
 * ... not where the caller tests the value, the side of its test that
 * holds joining the code the return goes to (gcc threads the return
 * past that test: it knows the value)
 */
static inline __attribute__((always_inline)) long seq_body2(const int *v,
							    int n)
{
	long s = 0;
	int i;

	for (i = 0; i < n; i++) {
		long r = step_of(v[i] + 1);

		if (unlikely(is_err(r)))
			return r;
		s += r;
	}
	return s * 2 - steps;
}

static long seq_bad;

static __attribute__((noinline)) long seq_two(const int *v, int n)
{
	long x = seq_body2(v, n);

	if (x < 0)
		seq_bad++;
	return x;
}

__attribute__((noinline)) long seq_all(const int *v, int n)
{
	long s = 0;
	int i;

	for (i = 0; i + 40 < n; i += 40)
		s += seq_one(v + i, 40) + seq_two(v + i, 40);
	return s;
}

/*
 * a rare block in a loop, calling an inline function with a loop of its
 * own, the loop's test after it jumping back to the loop's next round,
 * where the block's other side goes too (libev's poll_poll): every run
 * of that test came after the block, through tests of the callee ...
 */
struct pfd {
	int fd;
	short revents;
};

static long polled;

static inline __attribute__((always_inline)) void poll_feed(int fd, int ev)
{
	int k;

	for (k = 0; k <= (fd & 3); k++)
		polled += ev + k;
}

static __attribute__((noinline)) long poll_scan(const struct pfd *p,
						int res)
{
	for (; res; ++p) {
		if (unlikely(p->revents)) {
			--res;
			poll_feed(p->fd, p->revents);
		}
	}
	return polled;
}

/*
 * ... not a test before the loop that jumps past it (gcc knows nothing
 * changed the count where the loop never ran: libev's fd_reify)
 */
static int chg_total, chg_round;

static __attribute__((noinline)) long chg_one(int x)
{
	chg_total += x % 53 == 7;
	return x & 3;
}

static __attribute__((noinline)) long chg_run(const int *v)
{
	int i, n = chg_total;
	long s = 0;

	for (i = 0; i < n; i++)
		s += chg_one(v[i]);
	if (unlikely(chg_total != n))
		s += 1000;
	chg_total = (int)(++chg_round % 3);
	return s;
}

__attribute__((noinline)) long poll_all(const int *v, int n)
{
	static struct pfd fds[512];
	long s = 0;
	int i, res = 0;

	for (i = 0; i < 512 && i < n; i++) {
		fds[i].fd = v[i] & 63;
		fds[i].revents = (short)(v[i] % 7 == 0);
		res += fds[i].revents != 0;
	}
	for (i = 0; i < 40; i++)
		s += poll_scan(fds, res) + chg_run(v + i);
	return s;
}
