/*
 * main.c - the benchmark's program: generate text, then in each thread
 * tokenize it, count its tokens in a hash table, and compress and
 * decompress it, checking the round trip
 *
 *	workload THREADS KIB PASSES
 *
 * The text is generated once from a fixed seed and shared read-only;
 * everything a thread writes is its own.  Every thread does the same
 * work, so the annotated sites are hot in all of them at once: the case
 * where shared counters lose counts and bounce cache lines.
 *
 * Prints "checksum X", equal for every build of this source, and, in the
 * WL_COUNT build, "evaluations N", the number of annotated evaluations
 * of all threads together.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "workload.h"

#ifdef WL_COUNT
__thread unsigned long long wl_evals;
#endif

#define BLOCK (64 * 1024)               /* compressor block size */

/* xorshift64*: deterministic everywhere, no libc state */
static uint64_t next(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

#define NWORDS 2048

/* Words of one to four syllables, so the text looks like a language. */
static void make_vocabulary(char words[NWORDS][16], uint64_t *s)
{
	static const char cons[] = "bcdfghklmnprstvz";
	static const char vow[] = "aeiou";
	int i;

	for (i = 0; i < NWORDS; i++) {
		int syl = 1 + (int)(next(s) % 4), k = 0;

		while (syl--) {
			words[i][k++] = cons[next(s) % 16];
			words[i][k++] = vow[next(s) % 5];
			if (next(s) % 3 == 0)
				words[i][k++] = cons[next(s) % 16];
		}
		words[i][k] = '\0';
	}
}

/*
 * Prose with some code in it: skewed word frequencies (the product of
 * two uniform numbers favours small indices), numbers, quoted strings,
 * punctuation and lines of about a dozen tokens.
 */
static unsigned char *make_text(size_t n)
{
	static char words[NWORDS][16];
	unsigned char *t = malloc(n + 64), *p = t, *end = t + n;
	uint64_t s = 0x9e3779b97f4a7c15ull;

	if (!t)
		return NULL;
	make_vocabulary(words, &s);
	while (p < end) {
		uint64_t r = next(&s);
		unsigned kind = (unsigned)(r % 100);
		size_t w = (size_t)((r >> 8 & 0xffff) * (r >> 24 & 0xffff)) >>
			   (32 - 11);
		size_t len;

		if (kind < 8) {
			p += sprintf((char *)p, "%u", (unsigned)(r >> 40) %
				     (kind < 4 ? 100 : 1000000));
		} else if (kind < 11) {
			p += sprintf((char *)p, "\"%s %s\"", words[w],
				     words[(w * 7 + 3) % NWORDS]);
		} else {
			len = strlen(words[w]);
			memcpy(p, words[w], len);
			p += len;
			if (kind < 15)
				*p++ = "(),.;:=+"[r >> 56 & 7];
		}
		*p++ = r >> 60 == 0 ? '\n' : ' ';
	}
	return t;
}

struct worker {
	pthread_t tid;
	const unsigned char *text;
	size_t n;
	unsigned passes;
	uint64_t sum;
	unsigned long long evals;       /* WL_COUNT only */
	int err;
};

static uint64_t mix(uint64_t h, uint64_t v)
{
	return (h ^ v) * 0x100000001b3ull + (h >> 29);
}

/* One pass over the text; returns its checksum, or 0 with *err set. */
static uint64_t one_pass(const unsigned char *text, size_t n,
			 struct wl_token *tok, struct wl_table *tab,
			 unsigned char *cbuf, unsigned char *dbuf,
			 uint32_t *htab, int *err)
{
	unsigned long lines;
	size_t nt, i, off, csize = 0;
	uint64_t h = 0;

	nt = wl_tokenize(text, n, tok, n, &lines);
	wl_table_clear(tab);
	for (i = 0; i < nt; i++) {
		if (unlikely(tok[i].type == WL_PUNCT))
			continue;
		if (wl_table_add(tab, text + tok[i].start, tok[i].len,
				 tok[i].hash) < 0) {
			*err = 1;
			return 0;
		}
	}
	for (off = 0; off < n; off += BLOCK) {
		size_t len = n - off < BLOCK ? n - off : BLOCK;
		size_t c = wl_lz_compress(text + off, len, cbuf, htab);
		long d = wl_lz_decompress(cbuf, c, dbuf, BLOCK);

		if (d != (long)len || memcmp(dbuf, text + off, len)) {
			*err = 2;
			return 0;
		}
		csize += c;
	}
	h = mix(h, nt);
	h = mix(h, lines);
	h = mix(h, tab->used);
	h = mix(h, wl_table_digest(tab));
	return mix(h, csize);
}

/* Kept out of line so a profiler can be told to count only this. */
__attribute__((noinline)) static void *work(void *arg)
{
	struct worker *w = arg;
	struct wl_token *tok = malloc(w->n * sizeof(*tok));
	unsigned char *cbuf = malloc(wl_lz_bound(BLOCK));
	unsigned char *dbuf = malloc(BLOCK);
	uint32_t *htab = malloc(sizeof(*htab) << WL_LZ_HASH_BITS);
	struct wl_table tab;
	unsigned p;

	if (!tok || !cbuf || !dbuf || !htab || wl_table_init(&tab, 4096)) {
		w->err = 1;
		goto out;
	}
	for (p = 0; p < w->passes && !w->err; p++)
		w->sum = mix(w->sum, one_pass(w->text, w->n, tok, &tab, cbuf,
					      dbuf, htab, &w->err));
	wl_table_release(&tab);
out:
#ifdef WL_COUNT
	w->evals = wl_evals;
#endif
	free(tok);
	free(cbuf);
	free(dbuf);
	free(htab);
	return NULL;
}

int main(int argc, char **argv)
{
	struct worker *w;
	unsigned char *text;
#ifdef WL_COUNT
	unsigned long long evals = 0;
#endif
	int threads, i, err = 0;
	size_t n;

	if (argc != 4 || (threads = atoi(argv[1])) < 1 || atol(argv[2]) < 1 ||
	    atoi(argv[3]) < 1) {
		fprintf(stderr, "usage: workload THREADS KIB PASSES\n");
		return 2;
	}
	n = (size_t)atol(argv[2]) * 1024;
	text = make_text(n);
	w = calloc((size_t)threads, sizeof(*w));
	if (!text || !w) {
		fprintf(stderr, "workload: out of memory\n");
		return 1;
	}
	for (i = 0; i < threads; i++) {
		w[i].text = text;
		w[i].n = n;
		w[i].passes = (unsigned)atoi(argv[3]);
		if (pthread_create(&w[i].tid, NULL, work, &w[i])) {
			fprintf(stderr, "workload: cannot create a thread\n");
			return 1;
		}
	}
	for (i = 0; i < threads; i++) {
		pthread_join(w[i].tid, NULL);
		err |= w[i].err;
#ifdef WL_COUNT
		evals += w[i].evals;
#endif
		if (w[i].sum != w[0].sum)
			err |= 4;
	}
	if (err) {
		fprintf(stderr, "workload: failed (%d)\n", err);
		return 1;
	}
	printf("checksum %016" PRIx64 "\n", w[0].sum);
#ifdef WL_COUNT
	printf("evaluations %llu\n", evals);
#endif
	free(w);
	free(text);
	return 0;
}
