/*
 * decide.c - from a hint and the jumps of its line to a site
 *
 * The compiler lays out the side a hint expects as the fall-through and
 * moves the other out of line, so a forward conditional jump on the
 * hint's line is taken exactly when the hint was wrong.  A backward jump
 * is a loop's: the loop goes on when it is taken, which is the side a
 * hint on the loop's condition expects, so there taken means right.
 *
 * How sure that is depends on how many jumps the line has.  The copies
 * of one hint (a static inline inlined into several functions) each have
 * their own jump and are summed: exact.  Several jumps of one line in
 * one function (a && b, a macro expanding to many tests, a loop the
 * compiler duplicated), or several hints on one line, cannot be told
 * apart from counts alone: ambiguous.  A line that ran but has no
 * conditional jump (cmov, a folded or threaded branch), or a hint with
 * no 0/1 expectation, is unjudgeable.  A jump whose fall-through goes to
 * a cold part (gcc's f.cold) while its target stays hot has the layout
 * against the reading above, whatever the hint said: ambiguous too.
 */
#include <stdlib.h>
#include <string.h>

#include "judge/judge.h"
#include "usage.h"

/* The real path of each instruction's file, computed once per name. */
struct real_cache {
	const char **name;
	char **real;
	size_t nr;
};

static const char *real_of(struct real_cache *c, const char *name)
{
	size_t i;

	for (i = 0; i < c->nr; i++)
		if (c->name[i] == name)
			return c->real[i];
	c->name = lp_xrealloc(c->name, (c->nr + 1) * sizeof(*c->name));
	c->real = lp_xrealloc(c->real, (c->nr + 1) * sizeof(*c->real));
	c->name[c->nr] = name;
	c->real[c->nr] = realpath(name, NULL);
	return c->real[c->nr++];
}

/*
 * Adds jump @ins to site @s: forwards, taken is the hint wrong; backwards
 * (a loop's), taken is it right.  The samples, where there are some, go
 * the same way as the counts estimated from them.
 */
static void count(struct lp_prof_site *s, const struct lp_insn *ins)
{
	int loop = ins->target <= ins->addr;

	s->correct += loop ? ins->taken : ins->exe - ins->taken;
	s->incorrect += loop ? ins->exe - ins->taken : ins->taken;
	s->samp_right += loop ? ins->s_taken : ins->s_exe - ins->s_taken;
	s->samp_wrong += loop ? ins->s_exe - ins->s_taken : ins->s_taken;
}

int lp_judge_decide(struct lp_profile *out, const struct lp_hints *h,
		    const struct lp_insns *in, size_t *against)
{
	struct real_cache cache = { NULL, NULL, 0 };
	const char **real = lp_xcalloc(in->nr + 1, sizeof(*real));
	size_t *line_jumps = lp_xcalloc(in->nr + 1, sizeof(*line_jumps));
	size_t i, k, m;
	int ret = 0;

	for (k = 0; k < in->nr; k++)
		real[k] = real_of(&cache, in->v[k].file);
	for (i = 0; i < h->nr && !ret; i++) {
		const struct lp_hint *hint = &h->v[i];
		struct lp_prof_site s;
		size_t same_line = 0, jumps = 0;
		int shared = 0, layout = 0;

		for (k = 0; k < h->nr; k++)
			same_line += h->v[k].line == hint->line &&
				     !strcmp(h->v[k].real, hint->real);
		memset(&s, 0, sizeof(s));
		s.file = hint->file;
		s.func = hint->func;
		s.unit = hint->unit;
		s.cond = hint->cond;
		s.line = hint->line;
		s.expect = hint->expect;
		for (k = 0; k < in->nr; k++) {
			const struct lp_insn *ins = &in->v[k];

			if (ins->line != hint->line || !real[k] ||
			    strcmp(real[k], hint->real))
				continue;
			if (!ins->cond)
				continue;
			/* another jump of this line in the same function */
			for (m = 0; m < jumps; m++)
				if (in->v[line_jumps[m]].fn == ins->fn &&
				    !strcmp(in->v[line_jumps[m]].obj, ins->obj))
					shared = 1;
			line_jumps[jumps++] = k;
			layout |= ins->against;
			count(&s, ins);
		}
		if (!jumps || (hint->expect != 0 && hint->expect != 1)) {
			s.correct = s.incorrect = 0;
			s.samp_right = s.samp_wrong = 0;
			s.sure = LP_SURE_UNJUDGEABLE;
		} else {
			s.sure = shared || same_line > 1 || layout ?
					 LP_SURE_AMBIGUOUS :
				 in->sampled ? LP_SURE_ESTIMATED :
					       LP_SURE_EXACT;
			if (layout) {
				lp_note("%s:%ld: a jump of this line falls through into a cold part, so its layout does not say which side the hint expects: ambiguous",
					hint->file, hint->line);
				(*against)++;
			}
			s.has_samples = (unsigned char)in->sampled;
		}
		if (lp_profile_add(out, &s) < 0)
			ret = lp_error("out of memory");
	}
	for (i = 0; i < cache.nr; i++)
		free(cache.real[i]);
	free(cache.name);
	free(cache.real);
	free(real);
	free(line_jumps);
	return ret;
}
