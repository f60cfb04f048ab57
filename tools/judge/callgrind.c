/*
 * callgrind.c - reading what callgrind wrote: executed instructions with
 * their source lines, and the taken counts of conditional jumps
 *
 * The format (valgrind's docs/callgrind-format) compresses names, as
 * "fl=(12) /path" once and "fl=(12)" after, and positions, as "+3" or
 * "*" relative to the line before.  With --dump-instr=yes a position is
 * "address line".  A "jcnd=TAKEN/EXECUTED TARGET" line is followed by
 * the position of the jump itself; callgrind writes one only for a jump
 * that was taken at least once, which is why jumps.c asks objdump.  A
 * conditional jump into another symbol (gcc's "f.cold" part) may be
 * booked as a call instead, "calls=COUNT TARGET" followed by the jump's
 * position: its count is kept too (lp_insn.called), and jumps.c adds it
 * where the instruction is a conditional jump.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "usage.h"

const char *lp_insns_name(struct lp_insns *in, const char *s, size_t n)
{
	char *d = lp_xmalloc(n + 1);

	memcpy(d, s, n);
	d[n] = '\0';
	if (in->names_nr == in->names_alloc) {
		in->names_alloc = in->names_alloc ? in->names_alloc * 2 : 64;
		in->names = lp_xrealloc(in->names, in->names_alloc *
					sizeof(*in->names));
	}
	in->names[in->names_nr++] = d;
	return d;
}

static size_t name_hash(const char *s, size_t n)
{
	size_t h = 2166136261u, i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

/*
 * An open-addressing table: objdump -l names a file at every line change,
 * and the paths are compared (and resolved) once per distinct name.
 */
const char *lp_insns_intern(struct lp_insns *in, const char *s, size_t n)
{
	size_t i, mask;

	if (2 * (in->interned_nr + 1) > in->interned_alloc) {
		const char **old = in->interned;
		size_t k, oldn = in->interned_alloc;

		in->interned_alloc = oldn ? oldn * 2 : 256;
		in->interned = lp_xcalloc(in->interned_alloc,
					  sizeof(*in->interned));
		mask = in->interned_alloc - 1;
		for (k = 0; k < oldn; k++) {
			if (!old[k])
				continue;
			i = name_hash(old[k], strlen(old[k])) & mask;
			while (in->interned[i])
				i = (i + 1) & mask;
			in->interned[i] = old[k];
		}
		free(old);
	}
	mask = in->interned_alloc - 1;
	for (i = name_hash(s, n) & mask; in->interned[i]; i = (i + 1) & mask)
		if (!strncmp(in->interned[i], s, n) && !in->interned[i][n])
			return in->interned[i];
	in->interned[i] = lp_insns_name(in, s, n);
	in->interned_nr++;
	return in->interned[i];
}

void lp_insns_release(struct lp_insns *in)
{
	size_t i;

	if (!in)
		return;
	for (i = 0; i < in->names_nr; i++)
		free(in->names[i]);
	free(in->names);
	free(in->v);
	free(in->fn_start);
	free(in->interned);
	free(in->lines);
	free(in->edges);
	free(in->code);
	for (i = 0; i < in->dumps_nr; i++)
		free(in->dumps[i]);
	free(in->dumps);
	memset(in, 0, sizeof(*in));
}

/* One namespace of compressed names: id -> string. */
struct names {
	const char **v;
	size_t alloc;
};

/*
 * "(id) name", "(id)" or "name": the name, defining the id where it
 * is given.  NULL for a reference to an id never defined.
 */
static const char *name_of(struct lp_insns *in, struct names *ns,
			   const char *s)
{
	char *end;
	unsigned long id;

	if (*s != '(')
		return lp_insns_name(in, s, strlen(s));
	id = strtoul(s + 1, &end, 10);
	if (*end != ')' || id > 1000000)
		return NULL;
	if (id >= ns->alloc) {
		size_t n = ns->alloc ? ns->alloc : 64;

		while (n <= id)
			n *= 2;
		ns->v = lp_xrealloc(ns->v, n * sizeof(*ns->v));
		memset(ns->v + ns->alloc, 0, (n - ns->alloc) * sizeof(*ns->v));
		ns->alloc = n;
	}
	end++;
	while (*end == ' ')
		end++;
	if (*end)
		ns->v[id] = lp_insns_name(in, end, strlen(end));
	return ns->v[id];
}

/* A position field: absolute (hex with 0x, or decimal), +N, -N or *. */
static int position(const char **p, uint64_t *v)
{
	const char *s = *p;
	char *end;
	unsigned long long x;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '*') {
		*p = s + 1;
		return 0;
	}
	errno = 0;
	if (*s == '+' || *s == '-') {
		x = strtoull(s + 1, &end, 10);
		if (end == s + 1)
			return -1;
		*v = *s == '+' ? *v + x : *v - x;
	} else {
		x = strtoull(s, &end, 0);
		if (end == s)
			return -1;
		*v = x;
	}
	*p = end;
	return errno ? -1 : 0;
}

void lp_insns_push(struct lp_insns *in, const struct lp_insn *ins)
{
	if (in->nr == in->alloc) {
		in->alloc = in->alloc ? in->alloc * 2 : 1024;
		in->v = lp_xrealloc(in->v, in->alloc * sizeof(*in->v));
	}
	in->v[in->nr++] = *ins;
}

/*
 * Parses callgrind output @path, handing each position's record to @sink
 * (names kept in @in).  0, or -1 (said).
 */
static int parse(struct lp_insns *in, const char *path,
		 void (*sink)(void *ctx, const struct lp_insn *ins), void *ctx)
{
	struct names files = { NULL, 0 }, fns = { NULL, 0 }, objs = { NULL, 0 };
	const char *obj = "", *fl = "", *file = "", *fn = "";
	uint64_t addr = 0, line = 0, taken = 0;
	enum { COST, CALL, JUMP } next = COST;
	char *buf = NULL;
	size_t cap = 0, lineno = 0;
	ssize_t len;
	FILE *f = fopen(path, "r");
	int ret = 0;

	if (!f)
		return lp_error("%s: %s", path, strerror(errno));
	while ((len = getline(&buf, &cap, f)) > 0) {
		const char *p = buf, *eq;

		lineno++;
		if (buf[len - 1] == '\n')
			buf[--len] = '\0';
		if (lineno == 1 && strncmp(buf, "# callgrind format", 18) &&
		    strncmp(buf, "version:", 8)) {
			ret = lp_error("%s:1: not a callgrind output file",
				       path);
			break;
		}
		if (strchr("0123456789+-*", *p) && *p) {
			struct lp_insn ins;
			unsigned long long cost = 0;
			char *end;

			if (position(&p, &addr) < 0 ||
			    position(&p, &line) < 0) {
				ret = lp_error("%s:%zu: bad position", path,
					       lineno);
				break;
			}
			cost = strtoull(p, &end, 10);
			memset(&ins, 0, sizeof(ins));
			ins.obj = obj;
			ins.file = file;
			ins.fn = fn;
			ins.addr = addr;
			ins.line = (long)line;
			/* a call's cost is inclusive: not this one's */
			if (next == JUMP)
				ins.taken = taken;
			else if (next == CALL)
				ins.called = taken;
			else
				ins.exe = cost;
			next = COST;
			sink(ctx, &ins);
			continue;
		}
		eq = strchr(p, '=');
		if (!eq)
			continue;       /* a header: version:, events:, ... */
#define KEY(k) (eq - p == (long)strlen(k) && !strncmp(p, k, strlen(k)))
		if (KEY("fl")) {
			fl = file = name_of(in, &files, eq + 1);
		} else if (KEY("fi") || KEY("fe")) {
			file = name_of(in, &files, eq + 1);
		} else if (KEY("fn")) {
			fn = name_of(in, &fns, eq + 1);
			file = fl;
		} else if (KEY("ob")) {
			obj = name_of(in, &objs, eq + 1);
		} else if (KEY("cfi") || KEY("cfl") || KEY("jfi") ||
			   KEY("jfl")) {
			name_of(in, &files, eq + 1);
		} else if (KEY("cfn")) {
			name_of(in, &fns, eq + 1);
		} else if (KEY("cob")) {
			name_of(in, &objs, eq + 1);
		} else if (KEY("calls") || KEY("jcnd")) {
			char *end;

			taken = strtoull(eq + 1, &end, 10);
			next = KEY("calls") ? CALL : JUMP;
		} else if (KEY("jump")) {
			/* an unconditional jump's position: nothing to count */
			next = CALL;
			taken = 0;
		}
#undef KEY
		if (!obj || !file || !fn) {
			ret = lp_error("%s:%zu: name used before it was "
				       "defined", path, lineno);
			break;
		}
	}
	if (!ret && ferror(f))
		ret = lp_error("%s: %s", path, strerror(errno));
	fclose(f);
	free(buf);
	free(files.v);
	free(fns.v);
	free(objs.v);
	return ret;
}

static void push(void *ctx, const struct lp_insn *ins)
{
	lp_insns_push(ctx, ins);
}

int lp_callgrind_read(struct lp_insns *in, const char *path)
{
	size_t before = in->nr;

	if (parse(in, path, push, in) < 0)
		return -1;
	/* a file of one process: read again for each process's ways */
	if (in->nr != before) {
		in->dumps = lp_xrealloc(in->dumps, (in->dumps_nr + 1) *
					sizeof(*in->dumps));
		in->dumps[in->dumps_nr++] = lp_xstrdup(path);
	}
	return 0;
}

int lp_callgrind_each(const char *path,
		      void (*sink)(void *ctx, const struct lp_insn *ins),
		      void *ctx)
{
	struct lp_insns names;
	int ret;

	memset(&names, 0, sizeof(names));
	ret = parse(&names, path, sink, ctx);
	lp_insns_release(&names);
	return ret;
}
