/*
 * gen-profile.c - a synthetic likelyprof profile of N sites, as one
 * machine of a fleet writes it
 *
 *	gen-profile N [MACHINE]
 *
 * For timing report, merge and check at 10k, 100k and 1M sites (bench/
 * tools.sh; bench/gen-profile.sh builds and runs this).  The profile looks
 * like one `likelyprof run` writes for a large C project:
 *
 *  - sites spread over .c files in two or three levels of folders, a few
 *    dozen to a file, in functions of a few each, some with the same name
 *    in many files (probe, init) and some longer than the kernel's 30
 *    columns;
 *  - an eighth of them in headers: each annotation of a static inline is
 *    one record per translation unit that uses it, from 1 to 40 of them,
 *    and a tenth of the headers are spelled ./include/... (./ and their
 *    path) in some units, so --group line has paths to canonicalise;
 *  - conditions as the preprocessor leaves them: !!(...), NULL as
 *    ((void *)0), nested hints, string and character literals whose
 *    backslashes the format escapes, now and then a raw TAB or ESC byte,
 *    and one in seventeen over 100 bytes long;
 *  - a key that occurs twice (one line expanding a hint twice), now and
 *    then;
 *  - counts from one to billions, log-uniform; about a fifth of the sites
 *    never run, some only constant, most annotations right, some wrong
 *    enough for check to say remove or flip, and some right on one
 *    machine and wrong on another (seed 007).
 *
 * The sites depend on N only, the counts on MACHINE (default 1) too, so
 * profiles of one N are one program on several machines.  Machine 1 runs
 * the full build: exactly N sites.  Every other one lacks some optional
 * files (a driver it was built without; a header's copies in them go
 * too) and, for some files, runs a version whose lines moved: their
 * profiles overlap mostly, not fully.  Sites come in the canonical order
 * of doc/FORMAT.md, as the runtime and `likelyprof merge` write them, and
 * the same arguments always give the same bytes.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SITES_PER_FILE	24	/* mean of 1 + rand(47) */
#define HEADER_SHARE	12	/* percent of the records in headers */
#define MAX_COPIES	40

/*-************************************
 *  Random numbers
 **************************************/
struct rng {
	uint64_t s;
};

/* splitmix64's finaliser: a good hash of one 64-bit word */
static uint64_t mix(uint64_t x)
{
	x ^= x >> 30;
	x *= 0xbf58476d1ce4e5b9ULL;
	x ^= x >> 27;
	x *= 0x94d049bb133111ebULL;
	return x ^ (x >> 31);
}

static uint64_t hash3(uint64_t a, uint64_t b, uint64_t c)
{
	return mix(a ^ mix(b ^ mix(c + 0x9e3779b97f4a7c15ULL)));
}

/* A stream of its own for each thing, so that one's draws move no other. */
static struct rng stream(uint64_t a, uint64_t b, uint64_t c)
{
	struct rng r = { hash3(a, b, c) };

	return r;
}

static uint64_t next(struct rng *r)
{
	r->s += 0x9e3779b97f4a7c15ULL;
	return mix(r->s);
}

/* 0 to m - 1 */
static uint32_t below(struct rng *r, uint32_t m)
{
	return (uint32_t)(((next(r) >> 32) * m) >> 32);
}

/* [0, 1) */
static double unit(struct rng *r)
{
	return (double)(next(r) >> 11) / 9007199254740992.0;
}

static const char *pick(struct rng *r, const char *const *v, size_t n)
{
	return v[below(r, (uint32_t)n)];
}

#define PICK(r, v) pick(r, v, sizeof(v) / sizeof(v[0]))

/*-************************************
 *  Memory
 **************************************/
static void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p) {
		fprintf(stderr, "gen-profile: out of memory\n");
		exit(1);
	}
	return p;
}

/* Strings that live as long as their arena; reset drops them all. */
struct arena {
	char **blocks;
	size_t nr, used, avail;
	char *cur;
};

#define BLOCK (1 << 16)

static char *arena_put(struct arena *a, const char *s, size_t n)
{
	char *p;

	if (n + 1 > a->avail) {
		size_t size = n + 1 > BLOCK ? n + 1 : BLOCK;

		if (a->used == a->nr) {
			a->blocks = xrealloc(a->blocks,
					     (a->nr + 1) * sizeof(*a->blocks));
			a->blocks[a->nr++] = NULL;
		}
		free(a->blocks[a->used]);
		a->cur = a->blocks[a->used++] = xrealloc(NULL, size);
		a->avail = size;
	}
	p = a->cur;
	memcpy(p, s, n);
	p[n] = '\0';
	a->cur += n + 1;
	a->avail -= n + 1;
	return p;
}

static void arena_reset(struct arena *a)
{
	a->used = 0;
	a->avail = 0;
}

/* A string being built. */
struct buf {
	char *s;
	size_t len, cap;
};

static void buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		b->cap = (b->len + n + 1) * 2;
		b->s = xrealloc(b->s, b->cap);
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

static void buf_str(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

static void buf_num(struct buf *b, unsigned long v)
{
	char tmp[24];

	buf_add(b, tmp, (size_t)snprintf(tmp, sizeof(tmp), "%lu", v));
}

static void buf_hex(struct buf *b, unsigned long v)
{
	char tmp[24];

	buf_add(b, tmp, (size_t)snprintf(tmp, sizeof(tmp), "%lx", v));
}

/*-************************************
 *  Names
 **************************************/
static const char *const top_dirs[] = {
	"arch", "block", "core", "crypto", "db", "drivers", "fs", "http",
	"io", "ipc", "kernel", "lib", "mm", "net", "proto", "sched",
	"security", "sound", "storage", "util", "vm", "codec", "compress",
	"tools",
};

static const char *const sub_dirs[] = {
	"acpi", "ata", "bpf", "cache", "cgroup", "char", "clk", "dma",
	"ext4", "gpu", "hid", "i2c", "input", "ipv4", "ipv6", "irq", "md",
	"mmc", "netfilter", "nfs", "pci", "power", "rdma", "scsi", "serial",
	"spi", "tcp", "thermal", "tty", "usb", "video", "virtio", "wireless",
	"xfs", "zstd", "json", "sql", "tls", "quic", "lz4",
};

static const char *const stems[] = {
	"alloc", "buf", "cache", "chan", "conn", "ctx", "dev", "dir",
	"entry", "event", "file", "frame", "hash", "inode", "io", "irq",
	"key", "list", "lock", "map", "msg", "node", "page", "parse", "pipe",
	"poll", "queue", "req", "ring", "sched", "sock", "state", "stream",
	"sync", "table", "task", "timer", "tree", "vec", "work",
};

static const char *const verbs[] = {
	"add", "alloc", "attach", "begin", "check", "clear", "commit",
	"copy", "create", "del", "destroy", "detach", "do", "drain", "end",
	"find", "flush", "free", "get", "grab", "handle", "init", "insert",
	"lookup", "map", "merge", "open", "parse", "probe", "put", "read",
	"release", "remove", "reset", "resize", "scan", "send", "set",
	"setup", "split", "start", "stop", "submit", "sync", "try", "unmap",
	"update", "validate", "wait", "wake", "write",
};

/* static functions that many files have */
static const char *const common_funcs[] = {
	"init", "probe", "cleanup", "main", "open", "release", "show",
	"store", "read", "write", "ioctl", "poll",
};

static const char *const vars[] = {
	"ret", "err", "n", "len", "flags", "count", "size", "idx", "cpu",
	"nr_pages", "timeout", "state", "mode", "pos", "off", "c",
};

static const char *const ptrs[] = {
	"p", "s", "ctx", "dev", "req", "page", "buf", "sk", "entry", "node",
	"map", "q", "file", "inode", "skb",
};

static const char *const members[] = {
	"state", "flags", "refcnt", "len", "next", "owner", "count", "ops",
	"data", "head", "tail", "priv", "mapping", "lock", "name", "size",
};

/* a file's base name: one or two stems */
static void base_name(struct rng *r, struct buf *b)
{
	buf_str(b, PICK(r, stems));
	if (below(r, 3)) {
		buf_str(b, "_");
		buf_str(b, PICK(r, stems));
	}
}

static void c_path(struct rng *r, struct buf *b)
{
	uint32_t depth = below(r, 4);

	buf_str(b, PICK(r, top_dirs));
	buf_str(b, "/");
	if (depth) {
		buf_str(b, PICK(r, sub_dirs));
		buf_str(b, "/");
	}
	if (depth > 2) {
		buf_str(b, PICK(r, sub_dirs));
		buf_str(b, "/");
	}
	base_name(r, b);
}

static void h_path(struct rng *r, struct buf *b)
{
	if (below(r, 10) < 7) {
		buf_str(b, "include/");
		buf_str(b, below(r, 2) ? PICK(r, top_dirs) : "proj");
	} else {
		buf_str(b, PICK(r, top_dirs));
		buf_str(b, "/");
		buf_str(b, PICK(r, sub_dirs));
	}
	buf_str(b, "/");
	base_name(r, b);
}

/* A function of file @stem: ext4_read_inode, probe, and some long ones. */
static void func_name(struct rng *r, struct buf *b, const char *stem)
{
	uint32_t k = below(r, 100);

	if (k < 8) {
		buf_str(b, PICK(r, common_funcs));
		return;
	}
	buf_str(b, stem);
	buf_str(b, "_");
	buf_str(b, PICK(r, verbs));
	buf_str(b, "_");
	buf_str(b, PICK(r, stems));
	if (k >= 95) {
		/* past the 30 columns the kernel's table prints */
		buf_str(b, "_");
		buf_str(b, PICK(r, verbs));
		buf_str(b, "_");
		buf_str(b, PICK(r, members));
		buf_str(b, "_locked");
	}
}

/*-************************************
 *  Conditions, as the preprocessor leaves them
 **************************************/
/*
 * The tests conditions are made of, as templates: %p a pointer, %v a
 * variable, %m a member, %s a stem, %w a verb, %d a number, %x a bit in
 * hex; %P and %V repeat the last pointer and variable.  The backslashes
 * are the source's own ('\n' is two bytes), which the format escapes.
 * Plain tests come several times: most conditions are short.
 */
static const char *const terms[] = {
	"!%p", "!%p", "!%p", "!%v", "!%v", "!%v", "%v < 0", "%v < 0",
	"%v < 0", "!%p->%m", "!%p->%m", "!%p->%m", "%v != %v", "%v != %v",
	"%p == ((void *)0)", "%p == ((void *)0)", "%v > %d", "%v > %d",
	"%p->%m", "%p->%m", "%p->%m->%m != %p", "(%v & 0x%x) != 0",
	"(%v & 0x%x) != 0", "%s_%w(%p, %v) < 0", "%s_%w(%p, %v) < 0",
	"%v >= sizeof(%p->%m)", "test_bit(%d, &%p->%m)", "(%v) == -11",
	"%p->%m[%v] == %P", "!strcmp(%p->name, \"%s\")", "*%p == '\\n'",
	"*%p == '\\\\'", "c == '\\t' || c == ' '",
	"strchr(\"\\r\\n\\t \", c) != ((void *)0)",
};

/* What a macro made of a size check: one long expansion. */
static const char size_check[] =
	"(__builtin_constant_p(%v) ? ((%V) > (sizeof(%p->%m) - 1) || "
	"(unsigned long)(%V) >= 4096UL) : __check_object_size(%P, "
	"(unsigned long)(%V), \"%s: bad size %lu\\n\"))";

static void expand(struct rng *r, struct buf *b, const char *t)
{
	const char *p = ptrs[0], *v = vars[0];

	for (; *t; t++) {
		if (*t != '%' || !t[1]) {
			buf_add(b, t, 1);
			continue;
		}
		switch (*++t) {
		case 'p':
			buf_str(b, p = PICK(r, ptrs));
			break;
		case 'v':
			buf_str(b, v = PICK(r, vars));
			break;
		case 'P':
			buf_str(b, p);
			break;
		case 'V':
			buf_str(b, v);
			break;
		case 'm':
			buf_str(b, PICK(r, members));
			break;
		case 's':
			buf_str(b, PICK(r, stems));
			break;
		case 'w':
			buf_str(b, PICK(r, verbs));
			break;
		case 'd':
			buf_num(b, below(r, 4096));
			break;
		case 'x':
			buf_hex(b, 1UL << below(r, 16));
			break;
		default:
			/* "%lu" of a format string in the source */
			buf_add(b, t - 1, 2);
			break;
		}
	}
}

static void term(struct rng *r, struct buf *b)
{
	expand(r, b, PICK(r, terms));
}

static void cond_text(struct rng *r, struct buf *b)
{
	uint32_t k = below(r, 1000), n, i;
	int bang = below(r, 100) < 85;

	b->len = 0;
	buf_add(b, "", 0);
	if (bang)
		buf_str(b, "!!(");
	if (k < 40) {
		expand(r, b, size_check);
	} else if (k < 85) {
		/* several tests, as long conditions are */
		n = 3 + below(r, 5);
		for (i = 0; i < n; i++) {
			if (i)
				buf_str(b, below(r, 3) ? " || " : " && ");
			term(r, b);
		}
	} else if (k < 110) {
		/* a hint inside the condition, put back by the writer */
		term(r, b);
		buf_str(b, " && __builtin_expect(!!(");
		term(r, b);
		buf_str(b, below(r, 2) ? "), 0)" : "), 1)");
	} else if (k == 110) {
		/* a raw TAB in a character literal: "\t" in the profile */
		buf_str(b, "c == '\t'");
	} else if (k == 111 && below(r, 10) == 0) {
		/* a raw ESC in a string literal: "\x1b" in the profile */
		buf_str(b, "!strncmp(s, \"\033[\", 2)");
	} else if (k < 300) {
		term(r, b);
		buf_str(b, below(r, 2) ? " || " : " && ");
		term(r, b);
	} else {
		term(r, b);
	}
	if (bang)
		buf_str(b, ")");
}

/*-************************************
 *  Files and the plan of the project
 **************************************/
enum kind { KIND_C, KIND_H };

struct file {
	char *name;
	enum kind kind;
	uint32_t id;		/* KIND_C: the unit's number; KIND_H: header */
	uint32_t sites;		/* KIND_C */
	int alias;		/* KIND_H: the ./ spelling */
};

/* One record of a header: an annotation's copy in one unit. */
struct copy {
	uint32_t line;
	int expect;
	const char *func, *cond;
	uint32_t unit;		/* number of a .c file */
	uint64_t key;		/* the annotation, for its counts */
	uint64_t h;		/* this copy */
};

struct header {
	struct copy *copies;
	uint32_t nr;
	int has_alias;
};

static uint64_t salt;		/* N: the project */
static uint64_t machine;
static struct file *files;
static size_t files_nr;
static struct file **units;	/* .c files by number */
static uint32_t units_nr;
static struct header *headers;
static uint32_t headers_nr;
static struct arena names, keep;

static void add_file(const char *name, enum kind kind, uint32_t id)
{
	struct file *f;

	files = xrealloc(files, (files_nr + 1) * sizeof(*files));
	f = &files[files_nr++];
	memset(f, 0, sizeof(*f));
	f->name = arena_put(&names, name, strlen(name));
	f->kind = kind;
	f->id = id;
}

static int file_cmp(const void *pa, const void *pb)
{
	const struct file *a = pa, *b = pb;

	return strcmp(a->name, b->name);
}

/* Sorts the files by name and makes every name unique. */
static void sort_files(void)
{
	struct buf b = { NULL, 0, 0 };
	unsigned long clash = 0;
	size_t i;
	int again = 1;

	while (again) {
		again = 0;
		qsort(files, files_nr, sizeof(*files), file_cmp);
		for (i = 1; i < files_nr; i++) {
			char *dot;

			if (strcmp(files[i].name, files[i - 1].name))
				continue;
			/* base names have no digits: "-N" is new */
			b.len = 0;
			dot = strrchr(files[i].name, '.');
			buf_add(&b, files[i].name,
				(size_t)(dot - files[i].name));
			buf_str(&b, "-");
			buf_num(&b, ++clash);
			buf_str(&b, dot);
			files[i].name = arena_put(&names, b.s, b.len);
			again = 1;
		}
	}
	free(b.s);
}

/* Optional files are left out on some machines; machine 1 has all. */
static int unit_present(uint32_t u)
{
	if (hash3(salt, 1, u) % 100 >= 4 || machine == 1)
		return 1;
	return hash3(salt ^ machine, 2, u) % 3 != 0;
}

/* Unit @u includes header @h by its ./ spelling. */
static int uses_alias(uint32_t h, uint32_t u)
{
	return headers[h].has_alias && hash3(salt, h, u) % 3 == 0;
}

static void plan_header(uint32_t h, uint64_t budget)
{
	struct rng r = stream(salt, 3, h);
	struct header *hd = &headers[h];
	struct buf name = { NULL, 0, 0 }, fn = { NULL, 0, 0 };
	struct buf cond = { NULL, 0, 0 };
	uint32_t line = 20 + below(&r, 40), funcs, f, a, n, k, i, j;
	const char *stem;

	h_path(&r, &name);
	buf_str(&name, ".h");
	add_file(name.s, KIND_H, h);
	hd->has_alias = below(&r, 10) == 0;
	if (hd->has_alias) {
		name.len = 0;
		buf_str(&name, "./");
		buf_str(&name, files[files_nr - 1].name);
		add_file(name.s, KIND_H, h);
		files[files_nr - 1].alias = 1;
	}
	stem = PICK(&r, stems);
	funcs = 1 + below(&r, 5);
	for (f = 0; f < funcs && hd->nr < budget; f++) {
		fn.len = 0;
		func_name(&r, &fn, stem);
		n = 1 + below(&r, 3);
		for (a = 0; a < n && hd->nr < budget; a++) {
			struct copy c;
			uint32_t picked[MAX_COPIES];

			line += 1 + below(&r, 8);
			cond_text(&r, &cond);
			c.line = line;
			c.expect = below(&r, 100) < 35;
			c.func = arena_put(&keep, fn.s, fn.len);
			c.cond = arena_put(&keep, cond.s, cond.len);
			c.key = hash3(salt, 4, (uint64_t)h << 16 | f << 8 | a);
			k = below(&r, 4) ? 1 + below(&r, 4)
					 : 1 + below(&r, MAX_COPIES);
			if (k > units_nr)
				k = units_nr;
			if (k > budget - hd->nr)
				k = (uint32_t)(budget - hd->nr);
			/* k different units */
			for (i = 0; i < k; i++) {
				do {
					picked[i] = below(&r, units_nr);
					for (j = 0; j < i; j++)
						if (picked[j] == picked[i])
							break;
				} while (j < i);
			}
			hd->copies = xrealloc(hd->copies, (hd->nr + k) *
					      sizeof(*hd->copies));
			for (i = 0; i < k; i++) {
				c.unit = picked[i];
				c.h = hash3(c.key, 5, picked[i]);
				hd->copies[hd->nr++] = c;
			}
		}
		line += 5 + below(&r, 60);
	}
	free(name.s);
	free(fn.s);
	free(cond.s);
}

static void plan(uint64_t n)
{
	uint64_t in_headers = n * HEADER_SHARE / 100, done = 0, sum = 0;
	uint64_t rest = n - in_headers;
	struct buf name = { NULL, 0, 0 };
	uint32_t u;
	int64_t diff;

	units_nr = (uint32_t)(rest / SITES_PER_FILE);
	if (!units_nr)
		units_nr = 1;
	for (u = 0; u < units_nr; u++) {
		struct rng r = stream(salt, 6, u);

		name.len = 0;
		c_path(&r, &name);
		buf_str(&name, ".c");
		add_file(name.s, KIND_C, u);
		files[files_nr - 1].sites = 1 + below(&r, 2 * SITES_PER_FILE -
						      1);
		sum += files[files_nr - 1].sites;
	}
	/* exactly rest sites in .c files, none without */
	diff = (int64_t)rest - (int64_t)sum;
	for (u = 0; diff; u = (u + 1) % units_nr) {
		if (diff > 0) {
			files[u].sites++;
			diff--;
		} else if (files[u].sites > 1) {
			files[u].sites--;
			diff++;
		}
	}
	while (done < in_headers) {
		headers = xrealloc(headers,
				   (headers_nr + 1) * sizeof(*headers));
		memset(&headers[headers_nr], 0, sizeof(*headers));
		plan_header(headers_nr, in_headers - done);
		done += headers[headers_nr++].nr;
	}
	sort_files();
	units = xrealloc(NULL, units_nr * sizeof(*units));
	for (u = 0; u < files_nr; u++)
		if (files[u].kind == KIND_C)
			units[files[u].id] = &files[u];
	free(name.s);
}

/*-************************************
 *  Counts
 **************************************/
struct counts {
	uint64_t correct, incorrect, constant;
};

/*
 * @key says what the annotation is like everywhere (never run, right,
 * wrong); @h, this record's own rate; the machine, how much it ran here.
 */
static struct counts counts_of(uint64_t key, uint64_t h)
{
	struct rng k = stream(key, 7, 0), m = stream(h, 8, machine);
	uint32_t kind = below(&k, 1000);
	struct counts c = { 0, 0, 0 };
	double total, wrong;

	if (kind < 220) {
		/* never run, but for a rare start-up path on a machine */
		if (kind < 22 && below(&m, 4) == 0)
			c.correct = 1 + below(&m, 50);
		return c;
	}
	total = 1.0;
	/* log-uniform from 1 to 3e9: 10^(9.48 u) */
	{
		struct rng rate = stream(h, 9, 0);
		double u = unit(&rate) * 9.48;

		while (u >= 1.0) {
			total *= 10.0;
			u -= 1.0;
		}
		total *= 1.0 + 9.0 * u;
	}
	total *= 0.5 + 1.5 * unit(&m);
	if (kind < 240) {
		/* a compile-time constant every time */
		c.correct = c.constant = (uint64_t)total;
		return c;
	}
	if (kind < 800)
		wrong = 0.05 * unit(&k);
	else if (kind < 880)
		wrong = 0.05 + 0.25 * unit(&k);
	else if (kind < 940)
		wrong = 0.30 + 0.68 * unit(&k);
	else if (kind < 985)
		wrong = 0.99 + 0.01 * unit(&k);
	else
		wrong = machine % 2 ? 0.02 : 0.92;
	wrong *= 1.0 + 0.004 * (unit(&m) - 0.5);
	if (wrong > 1.0)
		wrong = 1.0;
	c.incorrect = (uint64_t)(total * wrong);
	c.correct = (uint64_t)total - c.incorrect;
	return c;
}

/*-************************************
 *  Output
 **************************************/
static char out[1 << 20];
static size_t out_len;

static void out_flush(void)
{
	if (fwrite(out, 1, out_len, stdout) != out_len) {
		perror("gen-profile: write");
		exit(1);
	}
	out_len = 0;
}

/* Room for @n more bytes, at the returned place. */
static char *out_room(size_t n)
{
	if (n > sizeof(out) - out_len)
		out_flush();
	if (n > sizeof(out)) {
		fprintf(stderr, "gen-profile: a record of %zu bytes\n", n);
		exit(1);
	}
	return out + out_len;
}

static void out_s(const char *s)
{
	size_t n = strlen(s);

	memcpy(out_room(n), s, n);
	out_len += n;
}

static char *put_s(char *p, const char *s)
{
	size_t n = strlen(s);

	memcpy(p, s, n);
	return p + n;
}

static char *put_u(char *p, uint64_t v)
{
	char tmp[24];
	int n = sizeof(tmp);

	do {
		tmp[--n] = (char)('0' + v % 10);
	} while ((v /= 10));
	memcpy(p, tmp + n, sizeof(tmp) - (size_t)n);
	return p + sizeof(tmp) - n;
}

/* A text field, escaped as doc/FORMAT.md says: at most 4 bytes a byte. */
static char *put_esc(char *p, const char *s)
{
	static const char hex[] = "0123456789abcdef";

	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c >= 0x20 && c != 0x7f && c != '\\') {
			*p++ = (char)c;
			continue;
		}
		*p++ = '\\';
		if (c == '\\') {
			*p++ = '\\';
		} else if (c == '\t') {
			*p++ = 't';
		} else if (c == '\n') {
			*p++ = 'n';
		} else if (c == '\r') {
			*p++ = 'r';
		} else {
			*p++ = 'x';
			*p++ = hex[c >> 4];
			*p++ = hex[c & 15];
		}
	}
	return p;
}

/*
 * Paths and function names are made of the word lists above, which need
 * no escape; conditions are escaped.
 */
static void out_site(const struct counts *c, int expect, const char *file,
		     uint32_t line, const char *func, const char *unit_name,
		     const char *cond)
{
	char *start = out_room(128 + strlen(file) + strlen(func) +
			       strlen(unit_name) + 4 * strlen(cond));
	char *p = put_s(start, "site\t");

	p = put_u(p, c->correct);
	*p++ = '\t';
	p = put_u(p, c->incorrect);
	*p++ = '\t';
	p = put_u(p, c->constant);
	*p++ = '\t';
	p = put_u(p, (uint64_t)expect);
	*p++ = '\t';
	p = put_s(p, file);
	*p++ = '\t';
	p = put_u(p, line);
	*p++ = '\t';
	p = put_s(p, func);
	*p++ = '\t';
	p = put_s(p, unit_name);
	*p++ = '\t';
	p = put_esc(p, cond);
	*p++ = '\n';
	out_len += (size_t)(p - start);
}

/* A record of the file being written. */
struct rec {
	uint32_t line;
	int expect;
	const char *func, *unit, *cond;
	uint64_t key, h;
};

static struct rec *recs;
static size_t recs_nr, recs_alloc;

static struct rec *new_rec(void)
{
	if (recs_nr == recs_alloc) {
		recs_alloc = recs_alloc ? 2 * recs_alloc : 256;
		recs = xrealloc(recs, recs_alloc * sizeof(*recs));
	}
	return &recs[recs_nr++];
}

/* The canonical order within one file: line, func, expect, unit, cond. */
static int rec_cmp(const void *pa, const void *pb)
{
	const struct rec *a = pa, *b = pb;
	int c;

	if (a->line != b->line)
		return a->line < b->line ? -1 : 1;
	if ((c = strcmp(a->func, b->func)))
		return c;
	if (a->expect != b->expect)
		return a->expect < b->expect ? -1 : 1;
	if ((c = strcmp(a->unit, b->unit)))
		return c;
	return strcmp(a->cond, b->cond);
}

static uint64_t flush_recs(const char *file)
{
	size_t i;

	qsort(recs, recs_nr, sizeof(*recs), rec_cmp);
	for (i = 0; i < recs_nr; i++) {
		struct rec *r = &recs[i];
		struct counts c = counts_of(r->key, r->h);

		out_site(&c, r->expect, file, r->line, r->func, r->unit,
			 r->cond);
	}
	i = recs_nr;
	recs_nr = 0;
	return i;
}

static struct arena scratch;

/* The sites of one .c file, generated from its number alone. */
static uint64_t write_c(const struct file *f)
{
	struct rng r = stream(salt, 10, f->id);
	struct buf fn = { NULL, 0, 0 }, cond = { NULL, 0, 0 };
	char stem[64];
	const char *base = strrchr(f->name, '/'), *func = NULL;
	uint32_t line = 10 + below(&r, 40), i, pivot = 0, shift = 0;
	size_t n;

	if (!unit_present(f->id))
		return 0;
	base = base ? base + 1 : f->name;
	n = strcspn(base, "_.-");
	if (n >= sizeof(stem))
		n = sizeof(stem) - 1;
	memcpy(stem, base, n);
	stem[n] = '\0';
	/* a file whose lines moved in the version some machines run */
	if (machine != 1 && hash3(salt, 11, f->id) % 100 < 3 &&
	    hash3(salt ^ machine, 12, f->id) % 2) {
		pivot = f->sites / 2;
		shift = 1 + (uint32_t)(hash3(salt, 13, f->id) % 4);
	}
	arena_reset(&scratch);
	for (i = 0; i < f->sites; i++) {
		struct rec *rc = new_rec();
		uint32_t k = below(&r, 1000);

		if (i && k < 2) {
			/* one line that expands a hint twice */
			*rc = rc[-1];
			rc->h = hash3(salt, 15, (uint64_t)f->id << 32 | i);
			rc->key = rc->h;
			continue;
		}
		if (!i || k >= 30) {
			line += 1 + (below(&r, 4) ? below(&r, 25)
						  : below(&r, 120));
			if (!func || below(&r, 3) == 0) {
				fn.len = 0;
				func_name(&r, &fn, stem);
				func = arena_put(&scratch, fn.s, fn.len);
			}
		}
		/* else a second hint on the line of the one before */
		cond_text(&r, &cond);
		rc->line = line + (i >= pivot ? shift : 0);
		rc->expect = below(&r, 100) < 35;
		rc->func = func;
		rc->unit = f->name;
		rc->cond = arena_put(&scratch, cond.s, cond.len);
		rc->h = hash3(salt, 15, (uint64_t)f->id << 32 | i);
		rc->key = rc->h;
	}
	free(fn.s);
	free(cond.s);
	return flush_recs(f->name);
}

/* The copies of a header's annotations under one spelling of its path. */
static uint64_t write_h(const struct file *f)
{
	const struct header *hd = &headers[f->id];
	uint32_t i;

	for (i = 0; i < hd->nr; i++) {
		const struct copy *c = &hd->copies[i];
		struct rec *rc;

		if (!unit_present(c->unit) ||
		    uses_alias(f->id, c->unit) != f->alias)
			continue;
		rc = new_rec();
		rc->line = c->line;
		rc->expect = c->expect;
		rc->func = c->func;
		rc->unit = units[c->unit]->name;
		rc->cond = c->cond;
		rc->key = c->key;
		rc->h = c->h;
	}
	return flush_recs(f->name);
}

int main(int argc, char **argv)
{
	unsigned long long n, m = 1;
	uint64_t written = 0;
	char *end, text[256];
	size_t i;

	if (argc < 2 || argc > 3) {
		fprintf(stderr, "usage: gen-profile N [MACHINE]\n");
		return 2;
	}
	n = strtoull(argv[1], &end, 10);
	if (*end || !n || n > 100000000ULL) {
		fprintf(stderr, "gen-profile: N must be 1 to 100000000\n");
		return 2;
	}
	if (argc == 3) {
		m = strtoull(argv[2], &end, 10);
		if (*end || !m) {
			fprintf(stderr, "gen-profile: MACHINE must be 1 or "
				"more\n");
			return 2;
		}
	}
	salt = n;
	machine = m;
	plan(n);
	snprintf(text, sizeof(text), "# likelyprof profile, see "
		 "doc/FORMAT.md\nlikelyprof-profile\t1\nmeta\thost\tmachine"
		 "%llu\nmeta\tpid\t%llu\nmeta\tprogram\t/usr/sbin/synthd\n",
		 m, (unsigned long long)(1000 + hash3(salt, m, 14) % 30000));
	out_s(text);
	for (i = 0; i < files_nr; i++)
		written += files[i].kind == KIND_C ? write_c(&files[i])
						   : write_h(&files[i]);
	snprintf(text, sizeof(text), "end\t%llu\n",
		 (unsigned long long)written);
	out_s(text);
	out_flush();
	if (fflush(stdout) || ferror(stdout)) {
		perror("gen-profile: write");
		return 1;
	}
	return 0;
}
