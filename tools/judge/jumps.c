/*
 * jumps.c - which executed instructions are conditional jumps
 *
 * callgrind names a conditional jump only once it was taken; a hint that
 * is always right has a jump that never is.  The disassembly (objdump,
 * from binutils) lists every conditional jump and its target, so the
 * executed count of the instruction and the taken count together give
 * both sides.  x86 mnemonics only: j<cc>, jcxz and friends, not jmp.
 */
#include <limits.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "judge/where.h"
#include "usage.h"

static int cmp_insn(const void *pa, const void *pb)
{
	const struct lp_insn *a = pa, *b = pb;
	int c = a->obj == b->obj ? 0 : strcmp(a->obj, b->obj);

	if (c)
		return c;
	return (a->addr > b->addr) - (a->addr < b->addr);
}

/* One record per (object, address): the dumps of every process summed. */
static void compact(struct lp_insns *in)
{
	size_t i, k = 0;

	if (in->nr > 1)
		qsort(in->v, in->nr, sizeof(*in->v), cmp_insn);
	for (i = 0; i < in->nr; i++) {
		if (k && !cmp_insn(&in->v[k - 1], &in->v[i])) {
			struct lp_insn *d = &in->v[k - 1];

			d->exe += in->v[i].exe;
			d->taken += in->v[i].taken;
			d->called += in->v[i].called;
			/* a jump record has no line of its own to offer */
			if (!d->line)
				d->line = in->v[i].line;
			continue;
		}
		in->v[k++] = in->v[i];
	}
	in->nr = k;
}

const struct lp_insn *lp_insns_find(const struct lp_insns *in,
				    const char *obj, uint64_t addr)
{
	struct lp_insn key;

	memset(&key, 0, sizeof(key));
	key.obj = obj;
	key.addr = addr;
	return bsearch(&key, in->v, in->nr, sizeof(*in->v), cmp_insn);
}

static struct lp_insn *find(struct lp_insns *in, const char *obj,
			    uint64_t addr)
{
	return (struct lp_insn *)lp_insns_find(in, obj, addr);
}

/*
 * Does interned name @file resolve to one of @want?  Asked at every change
 * of file along each object's instructions: realpath() once per name.
 */
static int wanted(struct lp_real_cache *cache, const char *file,
		  char *const *want, size_t nwant)
{
	const char *real = lp_real_of(cache, file);
	size_t i;

	for (i = 0; real && i < nwant; i++)
		if (!strcmp(real, want[i]))
			return 1;
	return 0;
}

/*
 * Does the object of the instructions [*@i, end) hold code of a wanted
 * file?  *@i goes to its end, so each object is scanned once.
 */
static int object_wanted(const struct lp_insns *in, size_t *i,
			 struct lp_real_cache *cache, char *const *want,
			 size_t nwant)
{
	const char *o = in->v[*i].obj;
	size_t k;
	int yes = 0;

	for (k = *i; k < in->nr && (in->v[k].obj == o ||
				    !strcmp(in->v[k].obj, o)); k++)
		if (!yes && (k == *i || in->v[k].file != in->v[k - 1].file))
			yes = wanted(cache, in->v[k].file, want, nwant);
	*i = k;
	return yes;
}

/* One conditional jump of a disassembly, and where objdump says it is. */
struct jump {
	uint64_t addr, target;
	const char *fn;         /* its symbol, as <main> names it */
	uint64_t fn_start;      /* ... which starts here */
	uint64_t next;          /* the instruction after it (0: none) */
	const char *file;       /* the line table's, or "" */
	const char *ifn;        /* the function of the line ("f():") */
	long line;
	int to_cold;            /* the target is in a cold part */
	int test;               /* a cmov or set, no jump */
	int against;            /* see lp_insn.against */
};

/* What each_jump() gathers of one object. */
struct dis {
	struct jump *j;
	size_t nr, alloc;
	uint64_t *targets;      /* of every direct jump, sorted by dis_end() */
	size_t tnr, talloc;
};

static void dis_release(struct dis *d)
{
	free(d->j);
	free(d->targets);
}

static void add_target(struct dis *d, uint64_t t)
{
	if (d->tnr == d->talloc) {
		d->talloc = d->talloc ? d->talloc * 2 : 256;
		d->targets = lp_xrealloc(d->targets, d->talloc *
					 sizeof(*d->targets));
	}
	d->targets[d->tnr++] = t;
}

static void add_jump(struct dis *d, const struct jump *j)
{
	if (d->nr == d->alloc) {
		d->alloc = d->alloc ? d->alloc * 2 : 256;
		d->j = lp_xrealloc(d->j, d->alloc * sizeof(*d->j));
	}
	d->j[d->nr++] = *j;
}

/* Edges by object and target: what flows into an address. */
static int cmp_edge(const void *pa, const void *pb)
{
	const struct lp_edge *a = pa, *b = pb;
	int c = a->obj == b->obj ? 0 : strcmp(a->obj, b->obj);

	return c ? c : (a->target > b->target) - (a->target < b->target);
}

const struct lp_edge *lp_insns_edges_into(const struct lp_insns *in,
					  const char *obj, uint64_t target,
					  size_t *nr)
{
	struct lp_edge key;
	size_t lo = 0, hi = in->edges_nr, end;

	key.obj = obj;
	key.target = target;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cmp_edge(&in->edges[mid], &key) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	for (end = lo; end < in->edges_nr && !cmp_edge(&in->edges[end], &key);
	     end++)
		;
	*nr = end - lo;
	return in->edges + lo;
}

static int cmp_code(const void *pa, const void *pb)
{
	const struct lp_code_insn *a = pa, *b = pb;
	int c = a->obj == b->obj ? 0 : strcmp(a->obj, b->obj);

	return c ? c : (a->addr > b->addr) - (a->addr < b->addr);
}

static int cmp_u64(const void *pa, const void *pb)
{
	const uint64_t *a = pa, *b = pb;

	return (*a > *b) - (*a < *b);
}

static int is_target(const struct dis *d, uint64_t addr)
{
	return bsearch(&addr, d->targets, d->tnr, sizeof(addr), cmp_u64) !=
	       NULL;
}

static void add_edge(struct lp_insns *in, const char *obj,
		     const struct jump *j, uint64_t addr, uint64_t target)
{
	struct lp_edge *e;

	if (in->edges_nr == in->edges_alloc) {
		in->edges_alloc = in->edges_alloc ? in->edges_alloc * 2 : 1024;
		in->edges = lp_xrealloc(in->edges, in->edges_alloc *
					sizeof(*in->edges));
	}
	e = &in->edges[in->edges_nr++];
	e->obj = obj;
	e->file = j->file;
	e->line = j->line;
	e->addr = addr;
	e->target = target;
}

/*
 * Notes instruction @p (text after "addr:\t") at @addr: how control goes
 * on from it, for walking the code from a jump (decide.c).
 */
static void add_code(struct lp_insns *in, const char *obj,
		     const struct jump *j, uint64_t addr, const char *p)
{
	struct lp_code_insn *c;
	const char *op = p;
	char *end;

	if (in->code_nr == in->code_alloc) {
		in->code_alloc = in->code_alloc ? in->code_alloc * 2 : 4096;
		in->code = lp_xrealloc(in->code, in->code_alloc *
				       sizeof(*in->code));
	}
	c = &in->code[in->code_nr++];
	c->obj = obj;
	c->file = j->file;
	c->ifn = j->ifn;
	c->line = j->line;
	c->addr = addr;
	c->target = 0;
	c->flow = LP_FLOW_ON;
	c->call = 0;
	/* prefixes: bnd, notrack, rep, repz */
	while (!strncmp(op, "bnd ", 4) || !strncmp(op, "notrack ", 8) ||
	       !strncmp(op, "rep ", 4) || !strncmp(op, "repz ", 5))
		op = strchr(op, ' ') + 1;
	if (!strncmp(op, "ret", 3) || !strncmp(op, "ud2", 3) ||
	    !strncmp(op, "hlt", 3)) {
		c->flow = LP_FLOW_END;
		return;
	}
	c->call = !strncmp(op, "call", 4);
	if (op[0] != 'j')
		return;
	c->flow = !strncmp(op, "jmp", 3) ? LP_FLOW_JMP : LP_FLOW_COND;
	while (*op && *op != ' ')
		op++;
	while (*op == ' ')
		op++;
	c->target = strtoull(op, &end, 16);
	if (end == op)          /* an indirect jump: where to, unknown */
		c->flow = LP_FLOW_END;
}

/*
 * Notes that @file:@line has code, once per run of instructions; the
 * run's first address is filled in when its instruction comes.
 */
static void code_line(struct lp_insns *in, const char *obj,
		      const struct jump *j)
{
	struct lp_code_line *l;

	if (in->lines_nr && in->lines[in->lines_nr - 1].file == j->file &&
	    in->lines[in->lines_nr - 1].line == j->line)
		return;
	if (in->lines_nr == in->lines_alloc) {
		in->lines_alloc = in->lines_alloc ? in->lines_alloc * 2 : 1024;
		in->lines = lp_xrealloc(in->lines, in->lines_alloc *
					sizeof(*in->lines));
	}
	l = &in->lines[in->lines_nr++];
	memset(l, 0, sizeof(*l));
	l->file = j->file;
	l->line = j->line;
	l->obj = obj;
	l->sym = j->fn;
	l->addr = 0;
}

/* "/src/prog.c:19" or "/src/prog.c:19 (discriminator 2)" of objdump -l */
static int file_line(struct lp_insns *in, char *s, struct jump *j)
{
	char *cut = strstr(s, " (discriminator "), *colon, *end;
	long line;

	if (cut)
		*cut = '\0';
	colon = strrchr(s, ':');
	if (!colon || colon == s || !colon[1])
		return 0;
	line = strtol(colon + 1, &end, 10);
	if (*end || line <= 0)
		return 0;
	j->file = lp_insns_intern(in, s, (size_t)(colon - s));
	j->line = line;
	return 1;
}

/*
 * "inlined by /src/prog.c:80 (main)", after the line of code inlined
 * there (objdump --inlines): noted on that line's run, innermost first.
 */
static int inlined_by(struct lp_insns *in, char *s)
{
	struct lp_code_line *l;
	char *paren, *close;
	const char *fn = NULL;
	struct jump where;
	size_t k;

	if (strncmp(s, "inlined by ", 11) || !in->lines_nr)
		return 0;
	s += 11;
	if ((paren = strrchr(s, '(')) && paren > s && paren[-1] == ' ' &&
	    strncmp(paren, "(discriminator ", 15)) {
		paren[-1] = '\0';
		if ((close = strchr(paren, ')')))
			fn = lp_insns_intern(in, paren + 1,
					     (size_t)(close - paren - 1));
	}
	if (!file_line(in, s, &where))
		return 1;
	l = &in->lines[in->lines_nr - 1];
	for (k = 0; k < LP_INLINED_BY && l->by_file[k]; k++)
		;
	if (k < LP_INLINED_BY) {
		l->by_file[k] = where.file;
		l->by_line[k] = where.line;
		l->by_fn[k] = fn;
	}
	return 1;
}

/* "0000000000401130 <main>:": the symbol the next lines belong to */
static int symbol(struct lp_insns *in, const char *s, struct jump *j)
{
	const char *lt = strchr(s, '<'), *gt = lt ? strrchr(lt, '>') : NULL;
	char *end;
	unsigned long long addr = strtoull(s, &end, 16);

	if (end == s || !lt || !gt || strcmp(gt, ">:"))
		return 0;
	j->fn = lp_insns_intern(in, lt + 1, (size_t)(gt - lt - 1));
	j->ifn = j->fn;
	j->fn_start = addr;
	/* a symbol with no line table (crt code) is not the last one's */
	j->file = "";
	j->line = 0;
	if (in->fn_nr == in->fn_alloc) {
		in->fn_alloc = in->fn_alloc ? in->fn_alloc * 2 : 256;
		in->fn_start = lp_xrealloc(in->fn_start, in->fn_alloc *
					   sizeof(*in->fn_start));
	}
	in->fn_start[in->fn_nr++] = addr;
	return 1;
}

/* " 401a40 <f.cold+0x20>": does the operand name a cold part? */
static int names_cold(const char *operand)
{
	const char *lt = strchr(operand, '<');

	return lt && (strstr(lt, ".cold>") || strstr(lt, ".cold+"));
}

/*
 * Walks objdump -d -l output, lines "  401a2c:\tjne    401a40 <f+0x20>",
 * gathering each conditional jump once the instruction after it is seen:
 * an unconditional jmp there into a cold part, from a jump whose own
 * target is not cold, means the layout is against the hint.  The lines
 * of the line table come before the instructions they cover, and each
 * is noted as a line with code; "f():" names the function they were
 * inlined from, which is not the symbol's and is skipped: copies of one
 * inline are told apart by the symbol holding them.
 */
static void each_jump(struct lp_insns *in, const char *obj, char *text,
		      struct dis *d)
{
	struct jump j, pj;      /* where we are; the jump waiting for next */
	char *line, *save = NULL;
	int pending = 0, uncond;

	memset(&j, 0, sizeof(j));
	j.fn = j.file = j.ifn = "";
	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *end;
		unsigned long long addr, target;

		if (*line != ' ') {
			if (symbol(in, line, &j)) {
				if (pending)
					add_jump(d, &pj);
				pending = 0;
			} else if (inlined_by(in, line)) {
			} else if (file_line(in, line, &j)) {
				code_line(in, obj, &j);
			} else if (strlen(line) > 3 &&
				   !strcmp(line + strlen(line) - 3, "():")) {
				j.ifn = lp_insns_intern(in, line,
							strlen(line) - 3);
			}
			continue;
		}
		while (*p == ' ')
			p++;
		addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		p = end + 2;
		if (in->lines_nr && !in->lines[in->lines_nr - 1].addr)
			in->lines[in->lines_nr - 1].addr = addr;
		add_code(in, obj, &j, addr, p);
		if (pending) {
			pj.against = !pj.to_cold && !strncmp(p, "jmp", 3) &&
				     names_cold(p);
			pj.next = addr;
			add_jump(d, &pj);
			pending = 0;
		}
		if (!strncmp(p, "cmov", 4) || !strncmp(p, "set", 3)) {
			pj = j;
			pj.addr = addr;
			pj.target = pj.next = 0;
			pj.test = 1;
			add_jump(d, &pj);
			continue;
		}
		if (p[0] != 'j')
			continue;
		uncond = !strncmp(p, "jmp", 3);
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
		target = strtoull(p, &end, 16);
		if (end == p)
			continue;       /* an indirect jump */
		add_target(d, target);
		add_edge(in, obj, &j, addr, target);
		if (uncond)
			continue;
		pj = j;
		pj.addr = addr;
		pj.target = target;
		pj.to_cold = names_cold(end);
		pj.against = 0;
		pj.test = 0;
		pj.next = 0;
		pending = 1;
	}
	if (pending)
		add_jump(d, &pj);
	if (d->tnr > 1)
		qsort(d->targets, d->tnr, sizeof(*d->targets), cmp_u64);
}

/* the samples' route: every jump of the binary, counted later */
static void list_one(struct lp_insns *in, const char *obj,
		     const struct jump *j)
{
	struct lp_insn ins;

	memset(&ins, 0, sizeof(ins));
	ins.obj = obj;
	ins.file = j->file;
	ins.fn = j->fn;
	ins.sym = j->fn;
	ins.sym_start = j->fn_start;
	ins.addr = j->addr;
	ins.line = j->line;
	ins.cond = !j->test;
	ins.test = j->test;
	ins.target = j->target;
	ins.next = j->next;
	ins.against = j->against;
	lp_insns_push(in, &ins);
}

/*
 * The times @ins (jump @j) was taken.  callgrind counts a taken jump in
 * a jcnd record, or in a call record where it went into another symbol;
 * where the instruction after the jump is no jump's target, the jump
 * fell through exactly as often as that one ran, which says the same.
 * A jump neither record counts is taken that way; counts that disagree
 * are doubted.
 */
static void taken_of(struct lp_insns *in, const char *obj,
		     const struct dis *d, struct lp_insn *ins,
		     const struct jump *j)
{
	uint64_t rec = ins->taken > ins->called ? ins->taken : ins->called;
	const struct lp_insn *nx;
	uint64_t fall;

	ins->taken = rec;
	if (!j->next || is_target(d, j->next))
		return;
	nx = find(in, obj, j->next);
	fall = nx ? nx->exe : 0;
	if (fall > ins->exe)
		return;         /* reached some other way too */
	if (!rec) {
		ins->taken = ins->exe - fall;
		ins->inferred = 1;
	}
	else if (rec != ins->exe - fall)
		ins->doubt = 1;
}

/* Runs objdump -d -l --inlines on @obj and gathers its jumps into @d. */
static int disassemble(struct lp_insns *in, const char *obj, struct dis *d)
{
	const char *argv[] = { "objdump", "-d", "-l", "--inlines",
			       "--no-show-raw-insn", obj, NULL };
	char *text = NULL;
	int st = lp_judge_capture(argv, 1, &text, NULL);

	if (st) {
		free(text);
		return st < 0 ? -1 : lp_error("objdump failed on '%s'", obj);
	}
	each_jump(in, obj, text, d);
	free(text);
	return 0;
}

int lp_jumps_list(struct lp_insns *in, const char *prog)
{
	const char *obj = lp_insns_name(in, prog, strlen(prog));
	struct dis d;
	size_t i;
	int ret;

	memset(&d, 0, sizeof(d));
	ret = disassemble(in, obj, &d);
	for (i = 0; !ret && i < d.nr; i++)
		if (!d.j[i].test)
			list_one(in, obj, &d.j[i]);
	dis_release(&d);
	if (!ret)
		compact(in);
	return ret;
}

/*
 * Marks the conditional jumps of @obj that ran, with their counts; those
 * that never ran are added, counts zero, so that a line whose jumps did
 * not all run is seen to have them.
 */
static int mark_object(struct lp_insns *in, const char *obj)
{
	struct dis d;
	struct lp_insns extra;
	size_t i;

	memset(&d, 0, sizeof(d));
	memset(&extra, 0, sizeof(extra));
	if (disassemble(in, obj, &d) < 0) {
		dis_release(&d);
		return -1;
	}
	for (i = 0; i < d.nr; i++) {
		const struct jump *j = &d.j[i];
		struct lp_insn *ins = find(in, obj, j->addr);

		if (!ins) {
			list_one(&extra, obj, j);
			continue;
		}
		ins->sym = j->fn;
		ins->sym_start = j->fn_start;
		if (j->test) {
			ins->test = 1;
			continue;
		}
		ins->cond = 1;
		ins->target = j->target;
		ins->against = j->against;
		ins->next = j->next;
		taken_of(in, obj, &d, ins, j);
	}
	for (i = 0; i < extra.nr; i++)
		lp_insns_push(in, &extra.v[i]);
	free(extra.v);
	dis_release(&d);
	return 0;
}

int lp_jumps_mark(struct lp_insns *in, char *const *want, size_t nwant)
{
	struct lp_real_cache cache = LP_REAL_CACHE_INIT;
	const char **objs = NULL;
	size_t nobj = 0, i = 0;

	compact(in);
	/* the objects that hold code of a wanted file, each once */
	while (i < in->nr) {
		const char *o = in->v[i].obj;

		if (!object_wanted(in, &i, &cache, want, nwant))
			continue;
		objs = lp_xrealloc(objs, (nobj + 1) * sizeof(*objs));
		objs[nobj++] = o;
	}
	lp_real_cache_release(&cache);
	for (i = 0; i < nobj; i++) {
		if (mark_object(in, objs[i]) < 0) {
			free(objs);
			return -1;
		}
	}
	free(objs);
	compact(in);
	if (in->edges_nr > 1)
		qsort(in->edges, in->edges_nr, sizeof(*in->edges), cmp_edge);
	if (in->code_nr > 1)
		qsort(in->code, in->code_nr, sizeof(*in->code), cmp_code);
	return 0;
}
