/*
 * workload.h - the benchmark's program: a tokenizer, a hash table of the
 * tokens and a small LZ77 compressor, annotated as real code is
 *
 * The hints are the program's own likely()/unlikely(), spelled the usual
 * way.  Some guess right, some guess wrong, some are loop conditions:
 * the mix a profile of real code shows.  Every variant of the benchmark
 * builds these files unchanged; only what __builtin_expect means differs.
 *
 * WL_COUNT builds the reference: each hint also counts itself in a
 * thread-local variable, so the program knows how many annotated
 * evaluations it made and the counting variants can be checked against
 * it.  The count is a property of the program and its input, not of the
 * build, so one reference run serves every variant.
 */
#ifndef WORKLOAD_H
#define WORKLOAD_H

#include <stddef.h>
#include <stdint.h>

#ifdef WL_COUNT
extern __thread unsigned long long wl_evals;
#define likely(x)   (wl_evals++, __builtin_expect(!!(x), 1))
#define unlikely(x) (wl_evals++, __builtin_expect(!!(x), 0))
#else
#define likely(x)   __builtin_expect(!!(x), 1)
#define unlikely(x) __builtin_expect(!!(x), 0)
#endif

/* --- tokenizer (tok.c) --------------------------------------------------- */

enum wl_tok_type { WL_WORD, WL_NUMBER, WL_STRING, WL_PUNCT };

struct wl_token {
	uint32_t start, len;
	uint32_t hash;                  /* FNV-1a of the token's bytes */
	uint32_t type;
};

/*
 * Splits @n bytes of text into at most @max tokens.  @lines receives the
 * number of newlines seen.  Returns the number of tokens.
 */
size_t wl_tokenize(const unsigned char *text, size_t n, struct wl_token *tok,
		   size_t max, unsigned long *lines);

/* --- hash table (htab.c) ------------------------------------------------- */

struct wl_entry {
	const unsigned char *key;       /* into the text; NULL: empty slot */
	uint32_t len, hash;
	uint64_t count;
};

struct wl_table {
	struct wl_entry *slot;
	size_t cap, used;               /* cap is a power of two */
};

int wl_table_init(struct wl_table *t, size_t cap);
void wl_table_clear(struct wl_table *t);
void wl_table_release(struct wl_table *t);
/* Counts one occurrence of @key; returns 1 if it was new, -1 on ENOMEM. */
int wl_table_add(struct wl_table *t, const unsigned char *key, uint32_t len,
		 uint32_t hash);
/* A digest of the table's contents that does not depend on its layout. */
uint64_t wl_table_digest(const struct wl_table *t);

/* --- compressor (lz.c) --------------------------------------------------- */

#define WL_LZ_HASH_BITS 14

size_t wl_lz_bound(size_t n);
/* @htab: 1 << WL_LZ_HASH_BITS entries of scratch.  Returns the size. */
size_t wl_lz_compress(const unsigned char *src, size_t n, unsigned char *dst,
		      uint32_t *htab);
/* Returns the decompressed size, or -1 if @src is malformed. */
long wl_lz_decompress(const unsigned char *src, size_t n, unsigned char *dst,
		      size_t cap);

#endif /* WORKLOAD_H */
