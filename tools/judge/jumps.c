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
			/* a jump record has no line of its own to offer */
			if (!d->line)
				d->line = in->v[i].line;
			continue;
		}
		in->v[k++] = in->v[i];
	}
	in->nr = k;
}

static struct lp_insn *find(struct lp_insns *in, const char *obj,
			    uint64_t addr)
{
	struct lp_insn key;

	memset(&key, 0, sizeof(key));
	key.obj = obj;
	key.addr = addr;
	return bsearch(&key, in->v, in->nr, sizeof(*in->v), cmp_insn);
}

static int wanted(const char *file, char *const *want, size_t nwant)
{
	char *real = realpath(file, NULL);
	size_t i;
	int yes = 0;

	for (i = 0; real && i < nwant && !yes; i++)
		yes = !strcmp(real, want[i]);
	free(real);
	return yes;
}

/* One conditional jump of a disassembly, and where objdump says it is. */
struct jump {
	uint64_t addr, target;
	const char *fn;         /* its symbol, as <main> names it */
	const char *file;       /* with -l only: the line table's, or "" */
	long line;
	int to_cold;            /* the target is in a cold part */
	int against;            /* see lp_insn.against */
};

typedef void (*jump_fn)(struct lp_insns *in, const char *obj,
			const struct jump *j);

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
	j->file = lp_insns_name(in, s, (size_t)(colon - s));
	j->line = line;
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
	j->fn = lp_insns_name(in, lt + 1, (size_t)(gt - lt - 1));
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
 * Walks objdump -d output, lines "  401a2c:\tjne    401a40 <f+0x20>",
 * calling @fn on each conditional jump once the instruction after it is
 * seen: an unconditional jmp there into a cold part, from a jump whose
 * own target is not cold, means the layout is against the hint.  With
 * -l, the lines of the line table come before the instructions they
 * cover, and "f():" names the function they were inlined from, which is
 * not the symbol's and is skipped: copies of one inline are told apart by
 * the function holding them, as callgrind does.
 */
static void each_jump(struct lp_insns *in, const char *obj, char *text,
		      jump_fn fn)
{
	struct jump j = { 0, 0, "", "", 0, 0, 0 };
	char *line, *save = NULL;
	int pending = 0;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *end;
		unsigned long long addr, target;

		if (*line != ' ') {
			if (pending)
				fn(in, obj, &j);
			pending = 0;
			if (!symbol(in, line, &j))
				file_line(in, line, &j);
			continue;
		}
		while (*p == ' ')
			p++;
		addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		p = end + 2;
		if (pending) {
			j.against = !j.to_cold && !strncmp(p, "jmp", 3) &&
				    names_cold(p);
			fn(in, obj, &j);
			pending = 0;
		}
		if (p[0] != 'j' || !strncmp(p, "jmp", 3))
			continue;
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
		target = strtoull(p, &end, 16);
		if (end == p)
			continue;       /* an indirect jump */
		j.addr = addr;
		j.target = target;
		j.to_cold = names_cold(end);
		j.against = 0;
		pending = 1;
	}
	if (pending)
		fn(in, obj, &j);
}

/* callgrind's route: the instruction it ran is a conditional jump */
static void mark_one(struct lp_insns *in, const char *obj,
		     const struct jump *j)
{
	struct lp_insn *ins = find(in, obj, j->addr);

	if (ins) {
		ins->cond = 1;
		ins->target = j->target;
		ins->against = j->against;
	}
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
	ins.addr = j->addr;
	ins.line = j->line;
	ins.cond = 1;
	ins.target = j->target;
	ins.against = j->against;
	lp_insns_push(in, &ins);
}

/* Runs objdump (-l: @lines) on @obj and calls @fn on its jumps. */
static int disassemble(struct lp_insns *in, const char *obj, int lines,
		       jump_fn fn)
{
	const char *argv[] = { "objdump", "-d", "--no-show-raw-insn",
			       lines ? "-l" : obj, lines ? obj : NULL, NULL };
	char *text = NULL;
	int st = lp_judge_capture(argv, 1, &text, NULL);

	if (st) {
		free(text);
		return st < 0 ? -1 : lp_error("objdump failed on '%s'", obj);
	}
	each_jump(in, obj, text, fn);
	free(text);
	return 0;
}

int lp_jumps_list(struct lp_insns *in, const char *prog)
{
	const char *obj = lp_insns_name(in, prog, strlen(prog));
	int ret = disassemble(in, obj, 1, list_one);

	if (!ret)
		compact(in);
	return ret;
}

int lp_jumps_mark(struct lp_insns *in, char *const *want, size_t nwant)
{
	const char **objs = NULL;
	size_t nobj = 0, i, k;

	compact(in);
	/* the objects that hold code of a wanted file, each once */
	for (i = 0; i < in->nr; i++) {
		const char *o = in->v[i].obj;

		if (nobj && !strcmp(objs[nobj - 1], o))
			continue;
		for (k = i; k < in->nr && !strcmp(in->v[k].obj, o); k++)
			if ((k == i || in->v[k].file != in->v[k - 1].file) &&
			    wanted(in->v[k].file, want, nwant))
				break;
		if (k == in->nr || strcmp(in->v[k].obj, o))
			continue;
		objs = lp_xrealloc(objs, (nobj + 1) * sizeof(*objs));
		objs[nobj++] = o;
	}
	for (i = 0; i < nobj; i++) {
		if (disassemble(in, objs[i], 0, mark_one) < 0) {
			free(objs);
			return -1;
		}
	}
	free(objs);
	return 0;
}
