/* the spellings of a compression library, and its name prefix */
#ifndef HINTS_H
#define HINTS_H
#define LIKELY(x)   __builtin_expect(!!(x), 1)
#define UNLIKELY(x) __builtin_expect(!!(x), 0)
#define ATTR_HOT __attribute__((hot))
#define ATTR_NONNULL(n) __attribute__((nonnull(n)))
#ifdef NO_PREFIX
#  define PREFIX(x) x
#else
#  define PREFIX(x) zng_ ## x
#endif
int PREFIX(adler)(int a);
int PREFIX(crc)(const int *p, int n);
int match_slow_avx2(int x);
int match_slow_sse2(int x);
int hot_path(int a);
#endif
