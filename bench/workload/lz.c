/*
 * lz.c - a small LZ77 compressor and its decompressor
 *
 * The layout of a block is LZ4's in spirit (a token byte whose high
 * nibble is the literal run and low nibble the match length, 255-runs
 * for longer ones, a two-byte offset), written here from that
 * description.  The compressor is greedy with one hash probe per
 * position; the decompressor checks every length against its buffers,
 * as one that reads untrusted input must.
 */
#include <string.h>

#include "workload.h"

#define MIN_MATCH  4
#define MAX_OFFSET 65535
#define LAST_LITS  8                    /* the block ends in literals */

static uint32_t read32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t hash4(uint32_t v)
{
	return (v * 2654435761u) >> (32 - WL_LZ_HASH_BITS);
}

size_t wl_lz_bound(size_t n)
{
	return n + n / 255 + 16;
}

static unsigned char *put_length(unsigned char *op, size_t len)
{
	while (unlikely(len >= 255)) {
		*op++ = 255;
		len -= 255;
	}
	*op++ = (unsigned char)len;
	return op;
}

static unsigned char *put_sequence(unsigned char *op,
				   const unsigned char *lit, size_t nlit,
				   size_t off, size_t mlen)
{
	unsigned char *token = op++;
	size_t m = mlen - MIN_MATCH;

	*token = (unsigned char)((nlit < 15 ? nlit : 15) << 4);
	if (unlikely(nlit >= 15))
		op = put_length(op, nlit - 15);
	memcpy(op, lit, nlit);
	op += nlit;
	*op++ = (unsigned char)off;
	*op++ = (unsigned char)(off >> 8);
	*token |= (unsigned char)(m < 15 ? m : 15);
	if (unlikely(m >= 15))
		op = put_length(op, m - 15);
	return op;
}

size_t wl_lz_compress(const unsigned char *src, size_t n, unsigned char *dst,
		      uint32_t *htab)
{
	const unsigned char *ip = src, *anchor = src;
	const unsigned char *end = src + n;
	const unsigned char *limit = n > LAST_LITS + MIN_MATCH ?
		end - LAST_LITS - MIN_MATCH : src;
	unsigned char *op = dst;
	size_t nlit;

	/* position + 1, so that 0 means "nothing seen yet" */
	memset(htab, 0, sizeof(*htab) << WL_LZ_HASH_BITS);
	while (likely(ip < limit)) {
		uint32_t seq = read32(ip), h = hash4(seq);
		size_t pos = (size_t)(ip - src) + 1, prev = htab[h];

		htab[h] = (uint32_t)pos;
		/*
		 * Written by someone who expected mostly matches; in text
		 * most positions have none, so this guess is mostly wrong.
		 */
		if (likely(prev && pos - prev <= MAX_OFFSET &&
			   read32(src + prev - 1) == seq)) {
			const unsigned char *ref = src + prev - 1;
			size_t len = MIN_MATCH;

			while (likely(ip + len < end - LAST_LITS &&
				      ref[len] == ip[len]))
				len++;
			op = put_sequence(op, anchor, (size_t)(ip - anchor),
					  (size_t)(ip - ref), len);
			ip += len;
			anchor = ip;
		} else {
			ip++;
		}
	}
	/* the last run: literals only, marked by the end of input */
	nlit = (size_t)(end - anchor);
	*op = (unsigned char)((nlit < 15 ? nlit : 15) << 4);
	op++;
	if (nlit >= 15)
		op = put_length(op, nlit - 15);
	memcpy(op, anchor, nlit);
	return (size_t)(op + nlit - dst);
}

/* Reads a 255-run continuation; NULL if it runs past @iend. */
static const unsigned char *get_length(const unsigned char *ip,
				       const unsigned char *iend, size_t *len)
{
	unsigned b;

	do {
		if (unlikely(ip >= iend))
			return NULL;
		b = *ip++;
		*len += b;
	} while (unlikely(b == 255));
	return ip;
}

long wl_lz_decompress(const unsigned char *src, size_t n, unsigned char *dst,
		      size_t cap)
{
	const unsigned char *ip = src, *iend = src + n;
	unsigned char *op = dst, *oend = dst + cap;

	while (likely(ip < iend)) {
		unsigned token = *ip++;
		size_t nlit = token >> 4, mlen = (token & 15) + MIN_MATCH;
		size_t off;

		if (unlikely(nlit == 15) && !(ip = get_length(ip, iend, &nlit)))
			return -1;
		if (unlikely(nlit > (size_t)(iend - ip) ||
			     nlit > (size_t)(oend - op)))
			return -1;
		memcpy(op, ip, nlit);
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
		if (unlikely(mlen == 15 + MIN_MATCH) &&
		    !(ip = get_length(ip, iend, &mlen)))
			return -1;
		if (unlikely(mlen > (size_t)(oend - op)))
			return -1;
		/* byte by byte: a match may overlap what it copies */
		while (mlen--) {
			*op = op[-(long)off];
			op++;
		}
	}
	return (long)(op - dst);
}
