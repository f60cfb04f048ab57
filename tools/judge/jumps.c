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

/* Parses objdump -d lines "  401a2c:\tjne    401a40 <f+0x20>". */
static void mark_object(struct lp_insns *in, const char *obj, char *text)
{
	char *line, *save = NULL;

	for (line = strtok_r(text, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char *p = line, *end;
		unsigned long long addr, target;
		struct lp_insn *ins;

		while (*p == ' ')
			p++;
		addr = strtoull(p, &end, 16);
		if (end == p || end[0] != ':' || end[1] != '\t')
			continue;
		p = end + 2;
		if (p[0] != 'j' || !strncmp(p, "jmp", 3))
			continue;
		while (*p && *p != ' ')
			p++;
		while (*p == ' ')
			p++;
		target = strtoull(p, &end, 16);
		if (end == p)
			continue;       /* an indirect jump */
		ins = find(in, obj, addr);
		if (ins) {
			ins->cond = 1;
			ins->target = target;
		}
	}
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
		const char *argv[] = { "objdump", "-d", "--no-show-raw-insn",
				       objs[i], NULL };
		char *text = NULL;
		int st = lp_judge_capture(argv, 1, &text, NULL);

		if (st) {
			/* the name is the object's, not the array's */
			const char *o = objs[i];

			free(text);
			free(objs);
			return st < 0 ? -1 : lp_error("objdump failed on "
						      "'%s'", o);
		}
		mark_object(in, objs[i], text);
		free(text);
	}
	free(objs);
	return 0;
}
