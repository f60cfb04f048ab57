/*
 * perf.c - counting the conditional jumps of a binary from branch samples
 *
 * `perf record -b` keeps with each sample the last taken branches (Intel
 * LBR: 8 to 32 of them, AMD BRS, Arm BRBE) as FROM/TO pairs, and
 * `perf script -F pid,period,ip,brstack` prints a sample as
 *
 *   PID PERIOD IP 0xFROM/0xTO/P/-/-/CYCLES 0xFROM/0xTO/M/-/-/CYCLES ...
 *
 * newest record first; the words after TO grew with perf's versions (a
 * branch type, a speculation word) and cycles may be missing.  A jump is
 * taken when it is a record's FROM, and fell through when it lies on the
 * straight line that ran between two records, from the older one's TO
 * up to the newer one's FROM: AutoFDO and BOLT count fall-throughs so.
 *
 * Of n records, the n-1 straight lines each have between 1 and n-1 of
 * the sample's taken branches after them; so that taken and fell-through
 * are seen over the same stretch, a record's own branch is counted as
 * taken only with 1 to n-1 records after it, i.e. not the newest one.
 * Each count then stands for period / (n-1) executions: exact on average
 * when the event counts taken branches, as the usual LBR event does, and
 * in proportion with any other.
 *
 * A position-independent binary runs where the kernel puts it: the
 * PERF_RECORD_MMAP2 events (--show-mmap-events) say where each process
 * mapped which part of the file, and the program headers turn a file
 * offset into the address objdump shows.
 */
#include <elf.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "usage.h"

struct map {
	long pid;
	uint64_t start, len, pgoff;
};

struct seg {
	uint64_t off, size, vaddr;
};

struct perf_ctx {
	struct lp_insns *in;
	const char *name;       /* of the input, for errors */
	size_t lineno;
	const char *base;       /* the binary's file name, to meet mmaps */
	struct map *maps;
	size_t nmaps;
	struct seg *segs;
	size_t nsegs;
	double *est_exe, *est_taken;    /* per jump of @in */
	uint64_t *from, *to;    /* one sample's records */
	size_t nrec, rec_alloc;
	size_t samples, records, hits;
	int period;
};

/* The PT_LOAD segments of @prog; none when it is not 64-bit ELF. */
static int read_segments(struct perf_ctx *c, const char *prog)
{
	FILE *f = fopen(prog, "rb");
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	size_t i;

	if (!f)
		return lp_error("cannot read '%s': %s", prog, strerror(errno));
	if (fread(&eh, sizeof(eh), 1, f) != 1 ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) ||
	    eh.e_ident[EI_CLASS] != ELFCLASS64) {
		fclose(f);
		return 0;
	}
	for (i = 0; i < eh.e_phnum; i++) {
		if (fseek(f, (long)(eh.e_phoff + i * eh.e_phentsize),
			  SEEK_SET) || fread(&ph, sizeof(ph), 1, f) != 1)
			break;
		if (ph.p_type != PT_LOAD)
			continue;
		c->segs = lp_xrealloc(c->segs, (c->nsegs + 1) *
				      sizeof(*c->segs));
		c->segs[c->nsegs].off = ph.p_offset;
		c->segs[c->nsegs].size = ph.p_filesz;
		c->segs[c->nsegs++].vaddr = ph.p_vaddr;
	}
	fclose(f);
	return 0;
}

/*
 * Where @addr of process @pid is in the binary, as objdump numbers it,
 * or UINT64_MAX where it is not the binary's.  With no mapping seen the
 * addresses are the binary's own (a fixed-address executable); a child
 * forked with no mmap of its own has its parent's mapping.
 */
static uint64_t to_binary(const struct perf_ctx *c, long pid, uint64_t addr)
{
	const struct map *m = NULL;
	uint64_t off;
	size_t i;
	int own = 0;

	if (!c->nmaps)
		return addr;
	for (i = 0; i < c->nmaps && !own; i++)
		own = c->maps[i].pid == pid;
	for (i = c->nmaps; i-- > 0 && !m;)
		if ((!own || c->maps[i].pid == pid) &&
		    addr >= c->maps[i].start &&
		    addr - c->maps[i].start < c->maps[i].len)
			m = &c->maps[i];
	if (!m)
		return UINT64_MAX;
	off = addr - m->start + m->pgoff;
	for (i = 0; i < c->nsegs; i++)
		if (off >= c->segs[i].off &&
		    off - c->segs[i].off < c->segs[i].size)
			return off - c->segs[i].off + c->segs[i].vaddr;
	return c->nsegs ? UINT64_MAX : off;
}

/* The first jump at or after @addr. */
static size_t lower_bound(const struct lp_insns *in, uint64_t addr)
{
	size_t lo = 0, hi = in->nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->v[mid].addr < addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* The symbol holding @addr: the last that starts at or before it. */
static size_t symbol_of(const struct lp_insns *in, uint64_t addr)
{
	size_t lo = 0, hi = in->fn_nr;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (in->fn_start[mid] <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Counts one sample's records (newest first).  A straight line is only
 * believed inside one function and forwards: records of another thread
 * or across an interrupt can pair into nonsense.
 */
static void count_sample(struct perf_ctx *c, long pid, uint64_t period)
{
	struct lp_insns *in = c->in;
	double w;
	size_t i, k;

	c->samples++;
	c->records += c->nrec;
	if (c->nrec < 2)
		return;
	w = period ? (double)period / (double)(c->nrec - 1) : 1.0;
	for (i = 0; i + 1 < c->nrec; i++) {
		uint64_t a = to_binary(c, pid, c->to[i + 1]);
		uint64_t b = to_binary(c, pid, c->from[i]);
		uint64_t f = to_binary(c, pid, c->from[i + 1]);

		k = lower_bound(in, f);
		if (f != UINT64_MAX && k < in->nr && in->v[k].addr == f) {
			in->v[k].s_taken++;
			in->v[k].s_exe++;
			c->est_taken[k] += w;
			c->est_exe[k] += w;
			c->hits++;
		}
		if (a == UINT64_MAX || b == UINT64_MAX || a > b ||
		    symbol_of(in, a) != symbol_of(in, b))
			continue;
		for (k = lower_bound(in, a); k < in->nr && in->v[k].addr < b;
		     k++) {
			in->v[k].s_exe++;
			c->est_exe[k] += w;
			c->hits++;
		}
	}
}

/* "0xADDR" with perhaps "(dso)" after it; @p moves past them. */
static int address(char **p, uint64_t *v)
{
	char *s = *p, *end;

	if (s[0] != '0' || s[1] != 'x' || !s[2] ||
	    !strchr("0123456789abcdefABCDEF", s[2]))
		return -1;
	errno = 0;
	*v = strtoull(s, &end, 16);
	if (errno)
		return -1;
	if (*end == '(') {
		end = strchr(end, ')');
		if (!end)
			return -1;
		end++;
	}
	*p = end;
	return 0;
}

/* "0xFROM/0xTO/P/-/-/CYCLES...": the addresses, and a sane prediction */
static int record(struct perf_ctx *c, char *tok)
{
	uint64_t from, to;
	char *p = tok;
	size_t n;

	if (address(&p, &from) < 0 || *p++ != '/' || address(&p, &to) < 0 ||
	    (*p && *p != '/'))
		return -1;
	/* the prediction: P, M, - (none), with N for not-taken on Arm */
	if (*p == '/') {
		n = strcspn(p + 1, "/");
		if (!n || strspn(p + 1, "PMN-") != n)
			return -1;
	}
	if (c->nrec == c->rec_alloc) {
		c->rec_alloc = c->rec_alloc ? 2 * c->rec_alloc : 64;
		c->from = lp_xrealloc(c->from, c->rec_alloc * sizeof(*c->from));
		c->to = lp_xrealloc(c->to, c->rec_alloc * sizeof(*c->to));
	}
	c->from[c->nrec] = from;
	c->to[c->nrec++] = to;
	return 0;
}

static int is_hex(const char *s)
{
	return *s && strspn(s, "0123456789abcdef") == strlen(s);
}

/* "PID PERIOD IP RECORD...", or "PID IP ..." or "IP ..." without them. */
static int sample_line(struct perf_ctx *c, char *line)
{
	char *lead[3], *tok, *save = NULL;
	size_t nlead = 0;
	long pid = -1;
	uint64_t period = 0;

	c->nrec = 0;
	for (tok = strtok_r(line, " \t", &save); tok;
	     tok = strtok_r(NULL, " \t", &save)) {
		if (!strncmp(tok, "0x", 2)) {
			if (record(c, tok) < 0)
				return lp_error("%s:%zu: bad branch record "
						"'%.40s'", c->name, c->lineno,
						tok);
		} else if (!c->nrec && nlead < 3 && is_hex(tok)) {
			lead[nlead++] = tok;
		} else {
			return lp_error("%s:%zu: expected PID PERIOD IP and "
					"branch records (perf script -F "
					"pid,period,ip,brstack), not '%.40s'",
					c->name, c->lineno, tok);
		}
	}
	if (!nlead && !c->nrec)
		return 0;
	if (nlead >= 2)
		pid = strtol(lead[0], NULL, 10);
	if (nlead == 3) {
		period = strtoull(lead[1], NULL, 10);
		c->period = 1;
	}
	count_sample(c, pid, period);
	return 0;
}

/*
 * " PID/TID: [0xSTART(0xLEN) @ PGOFF ...]: PROT FILE" after
 * PERF_RECORD_MMAP or _MMAP2: an executable mapping of the binary is kept.
 */
static int mmap_line(struct perf_ctx *c, const char *s)
{
	struct map m;
	const char *file, *slash;
	char *end;

	s += strcspn(s, " ");
	m.pid = strtol(s, &end, 10);
	if (end == s || *end != '/' || !(s = strchr(end, '[')))
		goto bad;
	m.start = strtoull(s + 1, &end, 0);
	if (*end != '(')
		goto bad;
	m.len = strtoull(end + 1, &end, 0);
	if (strncmp(end, ") @ ", 4))
		goto bad;
	m.pgoff = strtoull(end + 4, &end, 0);
	if (!(s = strstr(end, "]: ")) || !(file = strchr(s + 3, ' ')))
		goto bad;
	file++;
	slash = strrchr(file, '/');
	if (memchr(s + 3, 'x', (size_t)(file - s - 3)) &&
	    !strcmp(slash ? slash + 1 : file, c->base)) {
		c->maps = lp_xrealloc(c->maps, (c->nmaps + 1) *
				      sizeof(*c->maps));
		c->maps[c->nmaps++] = m;
	}
	return 0;
bad:
	return lp_error("%s:%zu: bad mmap event", c->name, c->lineno);
}

static int read_lines(struct perf_ctx *c, char *text)
{
	char *line = text, *nl;

	for (; *line; line = nl) {
		const char *ev;

		nl = line + strcspn(line, "\n");
		if (*nl)
			*nl++ = '\0';
		c->lineno++;
		if ((ev = strstr(line, "PERF_RECORD_MMAP"))) {
			if (mmap_line(c, ev) < 0)
				return -1;
		} else if (*line != '#' && !strstr(line, "PERF_RECORD_") &&
			   sample_line(c, line) < 0) {
			return -1;
		}
	}
	return 0;
}

int lp_perf_read(struct lp_insns *in, const char *prog, const char *name,
		 char *text, size_t *samples, int *period)
{
	struct perf_ctx c;
	const char *slash = strrchr(prog, '/');
	size_t k;
	int ret;

	memset(&c, 0, sizeof(c));
	c.in = in;
	c.name = name;
	c.base = slash ? slash + 1 : prog;
	c.est_exe = lp_xcalloc(in->nr + 1, sizeof(*c.est_exe));
	c.est_taken = lp_xcalloc(in->nr + 1, sizeof(*c.est_taken));
	ret = read_segments(&c, prog);
	if (!ret)
		ret = read_lines(&c, text);
	if (!ret && !c.records)
		ret = lp_error("%s: no branch records (perf record -b makes "
			       "them)", name);
	else if (!ret && !c.hits)
		ret = lp_error("%s: no branch record falls in a conditional "
			       "jump of '%s'", name, prog);
	for (k = 0; !ret && k < in->nr; k++) {
		in->v[k].exe = (uint64_t)llround(c.est_exe[k]);
		in->v[k].taken = (uint64_t)llround(c.est_taken[k]);
	}
	in->sampled = 1;
	*samples = c.samples;
	*period = c.period;
	free(c.est_exe);
	free(c.est_taken);
	free(c.maps);
	free(c.segs);
	free(c.from);
	free(c.to);
	return ret;
}

int lp_perf_script(const char *data, char **text)
{
	/* a fixed period (-c) is not in the samples, and perf then refuses
	 * to print it: read them without, as counts of samples */
	static const char *const fields[] = { "pid,period,ip,brstack",
					      "pid,ip,brstack" };
	size_t i;
	int st = -1;

	for (i = 0; i < 2; i++) {
		const char *argv[] = { "perf", "script", "-i", data, "-F",
				       fields[i], "--show-mmap-events", NULL };

		*text = NULL;
		st = lp_judge_capture(argv, i == 0, text, NULL);
		if (st <= 0)
			break;
		free(*text);
		*text = NULL;
	}
	if (st)
		return st < 0 ? -1 : lp_error("perf script cannot read '%s'",
					      data);
	return 0;
}
