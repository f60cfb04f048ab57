/*
 * group.c - one counter for hints that always run together (see group.h)
 *
 * The stub is the text LP_STUB_ASM_ in likelyprof.h writes, to the
 * character: anything that starts like one and is not exactly one makes
 * the pass leave the whole unit alone, as does any section change it
 * cannot follow.  Between two stubs of a run may stand only what cannot
 * move control: blank lines, comments and line markers, .loc and .cfi_
 * directives, gcc's debug labels, and instructions that do not jump,
 * call, return or trap by design.  Anything else ends the run.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "group.h"
#include "../usage.h"

#define CTR_PREFIX "lp__tls.ctr"
#define INC_PREFIX "\taddq $1, %fs:lp__tls."
#define ANCHOR_TAIL "-lp__tls.anchor(%"
/* struct lp_counter: the site pointer, then correct, incorrect, constant */
#define FIELD_OFFSET(f) (8 * ((f) + 1))
#define STUB_MAX_LINES 24
/* the record ABI of an alias (LP_SITE_ABI_ALIAS in likelyprof.h) */
#define ALIAS_ABI 3

struct line {
	const char *s;
	size_t n;
};

struct span {
	const char *s;
	size_t n;
};

struct stub {
	size_t first, last;     /* the addq line .. ".subsection 0" */
	struct span ctr;        /* lp__tls.ctrN */
	struct span rec;        /* lp__site_N.M */
	struct span reg;        /* the anchor's register; n 0: local-exec */
	int field;              /* 0 correct, 1 incorrect, 2 constant */
	size_t run;             /* index of its run's first stub */
};

/* A label whose section matters: records, counters, the anchor. */
struct label {
	struct span name;
	struct span section;    /* the directive in force */
};

struct unit {
	struct line *lines;
	size_t nlines;
	struct stub *stubs;
	size_t nstubs;
	struct label *labels;
	size_t nlabels;
	/* clang's .LtmpN named outside debug sections: jump targets maybe */
	unsigned char *tmp_named;
	size_t ntmp;
};

static int line_is(const struct line *l, const char *s)
{
	return l->n == strlen(s) && !memcmp(l->s, s, l->n);
}

static int starts(const struct line *l, const char *p)
{
	size_t n = strlen(p);

	return l->n >= n && !memcmp(l->s, p, n);
}

/* In a symbol of gcc's; '$' marks an immediate in AT&T syntax. */
static int sym_char(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || c == '_' || c == '.';
}

static size_t digits(const char *s, size_t n)
{
	size_t i = 0;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i;
}

static void split_lines(struct unit *u, const char *text, size_t len)
{
	size_t cap = 1024, i, start = 0;

	u->lines = lp_xmalloc(cap * sizeof(*u->lines));
	u->nlines = 0;
	for (i = 0; i <= len; i++) {
		if (i < len && text[i] != '\n')
			continue;
		if (i == len && start == len)
			break;
		if (u->nlines == cap) {
			cap *= 2;
			u->lines = lp_xrealloc(u->lines,
					       cap * sizeof(*u->lines));
		}
		u->lines[u->nlines].s = text + start;
		u->lines[u->nlines].n = i - start;
		u->nlines++;
		start = i + 1;
	}
}

/*
 * The increment: "\taddq $1, %fs:lp__tls.ctrN+OFF-lp__tls.anchor(%REG)"
 * (anchored) or "\taddq $1, %fs:lp__tls.ctrN@tpoff+OFF" (local-exec).
 * 0 on a match.
 */
static int parse_increment(const struct line *l, struct stub *st)
{
	const char *p = l->s + strlen(INC_PREFIX) - strlen("lp__tls."),
		   *end = l->s + l->n;
	size_t k, off;
	int tpoff = 0;

	st->ctr.s = p;
	if ((size_t)(end - p) < strlen(CTR_PREFIX) ||
	    memcmp(p, CTR_PREFIX, strlen(CTR_PREFIX)))
		return -1;
	p += strlen(CTR_PREFIX);
	k = digits(p, (size_t)(end - p));
	if (!k)
		return -1;
	p += k;
	st->ctr.n = (size_t)(p - st->ctr.s);
	st->reg.n = 0;
	if ((size_t)(end - p) > 7 && !memcmp(p, "@tpoff+", 7)) {
		p += 7;
		tpoff = 1;
	} else if (p < end && *p == '+')
		p++;
	else
		return -1;
	k = digits(p, (size_t)(end - p));
	if (k != 1 && k != 2)
		return -1;
	off = (size_t)atoi(p);
	p += k;
	if (off != 8 && off != 16 && off != 24)
		return -1;
	st->field = (int)(off / 8) - 1;
	if (tpoff)
		return p == end ? 0 : -1;
	if ((size_t)(end - p) < strlen(ANCHOR_TAIL) + 2 ||
	    memcmp(p, ANCHOR_TAIL, strlen(ANCHOR_TAIL)) || end[-1] != ')')
		return -1;
	st->reg.s = p + strlen(ANCHOR_TAIL);
	st->reg.n = (size_t)(end - 1 - st->reg.s);
	for (k = 0; k < st->reg.n; k++)
		if (!sym_char(st->reg.s[k]))
			return -1;
	return st->reg.n ? 0 : -1;
}

/*
 * A site record's assembler name: gcc calls a function's static
 * lp__site_N "lp__site_N.M", clang "FUNCTION.lp__site_N".
 */
static int record_name(struct span sym)
{
	static const char site[] = "lp__site_";
	size_t n = sizeof(site) - 1, i;

	if (sym.n > n && !memcmp(sym.s, site, n))
		return 1;
	for (i = 1; i + n < sym.n; i++)
		if (sym.s[i - 1] == '.' && !memcmp(sym.s + i, site, n))
			return 1;
	return 0;
}

/*
 * The stub that starts at line @i, into @st: 1 when it is one, 0 when the
 * line is no increment of ours, -1 when it starts like one but is not
 * exactly one.
 */
static int parse_stub(const struct unit *u, size_t i, struct stub *st)
{
	static const char *const head[] = { "\tje 2f", "1:", "\t.subsection 1",
					    "2:" };
	const struct line *l = u->lines;
	size_t j, call = 0;

	if (!starts(&l[i], INC_PREFIX))
		return 0;
	if (parse_increment(&l[i], st) || i + 8 >= u->nlines)
		return -1;
	for (j = 0; j < 4; j++)
		if (!line_is(&l[i + 1 + j], head[j]))
			return -1;
	for (j = i + 5; j < u->nlines && j < i + STUB_MAX_LINES; j++) {
		if (line_is(&l[j], "\tcall *lp__enter_stub@GOTPCREL(%rip)"))
			call = j;
		if (line_is(&l[j], "\t.subsection 0"))
			break;
	}
	if (j >= u->nlines || j >= i + STUB_MAX_LINES || !call ||
	    !line_is(&l[j - 1], "\tjmp 1b") || !line_is(&l[call - 1],
							  "\tpushq %rax") ||
	    !starts(&l[call - 2], "\tleaq "))
		return -1;
	st->rec.s = l[call - 2].s + strlen("\tleaq ");
	st->rec.n = 0;
	while (st->rec.s + st->rec.n < l[call - 2].s + l[call - 2].n &&
	       sym_char(st->rec.s[st->rec.n]))
		st->rec.n++;
	if (!record_name(st->rec) ||
	    l[call - 2].n != strlen("\tleaq ") + st->rec.n +
			     strlen("(%rip), %rax") ||
	    memcmp(st->rec.s + st->rec.n, "(%rip), %rax", 12))
		return -1;
	st->first = i;
	st->last = j;
	return 1;
}

/* The instruction's mnemonic, past any prefix, in @m (NUL-terminated). */
static void mnemonic(const char *s, size_t n, char *m, size_t cap)
{
	static const char *const prefixes[] = { "rep", "repe", "repz",
		"repne", "repnz", "lock", "notrack", "bnd", "data16",
		"addr32", "ds", "cs", "rex64", "xacquire", "xrelease", NULL };
	size_t i = 0, k, p;

	for (;;) {
		while (i < n && (s[i] == ' ' || s[i] == '\t'))
			i++;
		for (k = 0; i + k < n && k + 1 < cap && s[i + k] != ' ' &&
			    s[i + k] != '\t'; k++)
			m[k] = s[i + k];
		m[k] = '\0';
		for (p = 0; prefixes[p] && strcmp(m, prefixes[p]); p++)
			;
		if (!prefixes[p] || !k)
			return;
		i += k;
	}
}

/* True for an instruction that may move control elsewhere. */
static int moves_control(const char *s, size_t n)
{
	static const char *const ops[] = { "call", "callq", "ret", "retq",
		"lret", "iret", "iretq", "syscall", "sysenter", "sysexit",
		"sysret", "int", "int1", "int3", "into", "ud0", "ud1", "ud2",
		"hlt", "xbegin", "xabort", "xend", "vmcall", "vmmcall",
		"vmlaunch", "vmresume", "vmrun", "enclu", NULL };
	char m[32];
	size_t i;

	mnemonic(s, n, m, sizeof(m));
	if (!m[0] || m[0] == 'j' || !strncmp(m, "loop", 4))
		return 1;
	for (i = 0; ops[i]; i++)
		if (!strcmp(m, ops[i]))
			return 1;
	return 0;
}

/*
 * The length of the name ".LtmpN" at @s (at most @n bytes), its N into
 * @num; 0 when there is none, or N is too long to be clang's.
 */
static size_t tmp_label(const char *s, size_t n, size_t *num)
{
	size_t k;

	if (n < 5 || memcmp(s, ".Ltmp", 5))
		return 0;
	k = digits(s + 5, n - 5);
	if (!k || k > 9)
		return 0;
	*num = (size_t)atol(s + 5);
	return 5 + k;
}

/*
 * clang's .LtmpN that only debug sections name: its debug labels, which
 * nothing jumps to.  One that code or exception tables name (a landing
 * pad, an address taken) may be entered.
 */
static int debug_tmp_label(const struct unit *u, const struct line *l)
{
	size_t k, n;

	k = tmp_label(l->s, l->n, &n);
	if (!k || l->n != k + 1 || l->s[k] != ':')
		return 0;
	return n >= u->ntmp || !u->tmp_named[n];
}

/* gcc's labels for debug information, which nothing jumps to. */
static int debug_label(const struct line *l)
{
	static const char *const kinds[] = { ".LVL", ".LBB", ".LBE", ".LBI",
					     NULL };
	size_t i, k;

	for (i = 0; kinds[i]; i++) {
		if (!starts(l, kinds[i]))
			continue;
		k = digits(l->s + 4, l->n - 4);
		return k && l->n == 4 + k + 1 && l->s[4 + k] == ':';
	}
	return 0;
}

/*
 * May this line stand between two stubs of a run?  @in_app: inside the
 * #APP region of an asm statement, whose text is the user's.
 */
static int neutral(const struct unit *u, const struct line *l, int in_app)
{
	size_t i = 0;

	while (i < l->n && (l->s[i] == ' ' || l->s[i] == '\t'))
		i++;
	if (i == l->n || l->s[i] == '#')
		return 1;       /* blank, comment, #APP, line marker */
	if (starts(l, "\t.loc\t") || starts(l, "\t.loc "))
		return 1;       /* gcc writes them inside #APP too */
	if (in_app)
		return 0;
	if (debug_label(l) || debug_tmp_label(u, l))
		return 1;
	if (l->s[0] != '\t')
		return 0;       /* a label */
	if (l->s[1] == '.')
		return starts(l, "\t.cfi_") &&
		       !starts(l, "\t.cfi_startproc") &&
		       !starts(l, "\t.cfi_endproc");
	/* clang ends many instructions with a comment: '#' to the end */
	for (i = 1; i < l->n && l->s[i] != '#'; i++)
		if (l->s[i] == ';')
			return 0;       /* two statements */
	return l->s[1] >= 'a' && l->s[1] <= 'z' &&
	       !moves_control(l->s + 1, i - 1);
}

/* A line that switches sections; -1 for one the pass cannot follow. */
static int section_change(const struct line *l)
{
	if (starts(l, "\t.section\t") || starts(l, "\t.section ") ||
	    line_is(l, "\t.text") || line_is(l, "\t.data") ||
	    line_is(l, "\t.bss"))
		return 1;
	if (starts(l, "\t.pushsection") || starts(l, "\t.popsection") ||
	    starts(l, "\t.previous"))
		return -1;
	return 0;
}

static void add_label(struct unit *u, const struct line *l,
		      const struct line *section, size_t *cap)
{
	struct label *lb;

	if (u->nlabels == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		u->labels = lp_xrealloc(u->labels, *cap * sizeof(*u->labels));
	}
	lb = &u->labels[u->nlabels++];
	lb->name.s = l->s;
	lb->name.n = l->n - 1;
	lb->section.s = section ? section->s : NULL;
	lb->section.n = section ? section->n : 0;
}

static void add_stub(struct unit *u, const struct stub *st, size_t *cap)
{
	if (u->nstubs == *cap) {
		*cap = *cap ? 2 * *cap : 256;
		u->stubs = lp_xrealloc(u->stubs, *cap * sizeof(*u->stubs));
	}
	u->stubs[u->nstubs++] = *st;
}

/* Each .LtmpN that @l names (not at its start, where it is defined). */
static void name_tmp_labels(struct unit *u, const struct line *l)
{
	size_t i, k, n;

	for (i = 1; i + 5 < l->n; i++) {
		if (sym_char(l->s[i - 1]) ||
		    !(k = tmp_label(l->s + i, l->n - i, &n)))
			continue;
		if (n >= u->ntmp) {
			size_t cap = u->ntmp ? u->ntmp : 1024;

			while (cap <= n)
				cap *= 2;
			u->tmp_named = lp_xrealloc(u->tmp_named, cap);
			memset(u->tmp_named + u->ntmp, 0, cap - u->ntmp);
			u->ntmp = cap;
		}
		u->tmp_named[n] = 1;
		i += k - 1;
	}
}

/*
 * The .LtmpN that lines outside the DWARF sections name (code, data,
 * exception tables), so that the others may stand inside a run.
 */
static void find_named_tmp_labels(struct unit *u)
{
	size_t i;
	int in_debug = 0;

	for (i = 0; i < u->nlines; i++) {
		const struct line *l = &u->lines[i];

		if (section_change(l))
			in_debug = starts(l, "\t.section\t.debug_") ||
				   starts(l, "\t.section .debug_");
		else if (!in_debug)
			name_tmp_labels(u, l);
	}
}

/*
 * Finds the stubs, the runs among them (stub.run) and the labels of ours
 * with their sections.  -1 when the unit is to be left alone.
 */
static int scan(struct unit *u)
{
	const struct line *section = NULL;
	size_t i, stub_cap = 0, label_cap = 0;
	int in_app = 0, open = 0;   /* open: a run may go on */

	find_named_tmp_labels(u);

	for (i = 0; i < u->nlines; i++) {
		const struct line *l = &u->lines[i];
		struct stub st;
		int k = parse_stub(u, i, &st);

		if (k < 0)
			return -1;
		if (k > 0) {
			st.run = open ? u->stubs[u->nstubs - 1].run : u->nstubs;
			add_stub(u, &st, &stub_cap);
			i = st.last;
			open = 1;
			continue;
		}
		/* gcc writes them at the margin, clang after a tab */
		if (line_is(l, "#APP") || line_is(l, "\t#APP"))
			in_app = 1;
		else if (line_is(l, "#NO_APP") || line_is(l, "\t#NO_APP"))
			in_app = 0;
		else if (!in_app && (k = section_change(l)) < 0)
			return -1;
		else if (!in_app && k)
			section = l;
		else if (!in_app && l->n > 1 && l->s[l->n - 1] == ':' &&
			 (starts(l, "lp__") || record_name((struct span){
				 l->s, l->n - 1 })))
			add_label(u, l, section, &label_cap);
		if (!neutral(u, l, in_app))
			open = 0;
	}
	return 0;
}

static const struct label *find_label(const struct unit *u, struct span name)
{
	size_t i;

	for (i = 0; i < u->nlabels; i++)
		if (u->labels[i].name.n == name.n &&
		    !memcmp(u->labels[i].name.s, name.s, name.n))
			return &u->labels[i];
	return NULL;
}

/* --- the output ------------------------------------------------------- */

struct out {
	char *s;
	size_t n, cap;
};

static void put(struct out *o, const char *s, size_t n)
{
	if (o->n + n + 1 > o->cap) {
		o->cap = (o->n + n + 1) * 2;
		o->s = lp_xrealloc(o->s, o->cap);
	}
	memcpy(o->s + o->n, s, n);
	o->n += n;
	o->s[o->n] = '\0';
}

static void puts_(struct out *o, const char *s)
{
	put(o, s, strlen(s));
}

static void put_span(struct out *o, struct span sp)
{
	put(o, sp.s, sp.n);
}

static void put_num(struct out *o, size_t v)
{
	char buf[24];

	snprintf(buf, sizeof(buf), "%zu", v);
	puts_(o, buf);
}

/* @l with each whole-word @from as the group's name @prefix + @group. */
static void put_renamed(struct out *o, const struct line *l, struct span from,
			const char *prefix, size_t group)
{
	const char *p = l->s, *end = l->s + l->n;

	while (p < end) {
		const char *hit = NULL, *q;

		for (q = p; q + from.n <= end; q++)
			if (!memcmp(q, from.s, from.n) &&
			    (q == l->s || !sym_char(q[-1])) &&
			    (q + from.n == end || !sym_char(q[from.n]))) {
				hit = q;
				break;
			}
		if (!hit) {
			put(o, p, (size_t)(end - p));
			break;
		}
		put(o, p, (size_t)(hit - p));
		puts_(o, prefix);
		put_num(o, group);
		p = hit + from.n;
	}
}

/* The run's one stub: its first member's, counting the run's counter. */
static void put_keeper(struct out *o, const struct unit *u,
		       const struct stub *st, size_t group)
{
	size_t i;

	puts_(o, "\taddq $1, %fs:lp__tls.grp");
	put_num(o, group);
	if (st->reg.n) {
		puts_(o, "+8" ANCHOR_TAIL);
		put_span(o, st->reg);
		puts_(o, ")\n");
	} else {
		puts_(o, "@tpoff+8\n");
	}
	for (i = st->first + 1; i <= st->last; i++) {
		struct out tmp = { NULL, 0, 0 };
		struct line t;

		put_renamed(&tmp, &u->lines[i], st->ctr, "lp__tls.grp", group);
		t.s = tmp.s ? tmp.s : "";
		t.n = tmp.n;
		put_renamed(o, &t, st->rec, "lp__grp.", group);
		puts_(o, "\n");
		free(tmp.s);
	}
}

/* The alias record of member @k of run @group: lp__grp.G, lp__grp.G.K */
static void put_alias_name(struct out *o, size_t group, size_t k)
{
	puts_(o, "lp__grp.");
	put_num(o, group);
	if (k) {
		puts_(o, ".");
		put_num(o, k);
	}
}

/*
 * The run's counter, beside the anchor (anchored: the distance must be
 * known to the assembler) or its first member's counter, and one alias
 * record per member in the members' record section: the member's
 * distance from the record, its field and its place in the run.
 */
static void put_group_data(struct out *o, const struct unit *u, size_t first,
			   size_t group, const struct label *ctr_home,
			   const struct label *rec_home)
{
	size_t i, k = 0;

	put_span(o, ctr_home->section);
	puts_(o, "\n\t.align 8\n\t.type\tlp__tls.grp");
	put_num(o, group);
	puts_(o, ", @object\n\t.size\tlp__tls.grp");
	put_num(o, group);
	puts_(o, ", 32\nlp__tls.grp");
	put_num(o, group);
	puts_(o, ":\n\t.quad\t0, -1, -1, -1\n");
	put_span(o, rec_home->section);
	puts_(o, "\n\t.align 8\n");
	for (i = first; i < u->nstubs && u->stubs[i].run == first; i++, k++) {
		put_alias_name(o, group, k);
		puts_(o, ":\n\t.quad\t0, 0, 0, 0\n\t.quad\t");
		put_span(o, u->stubs[i].rec);
		puts_(o, "-");
		put_alias_name(o, group, k);
		puts_(o, "\n\t.long\t");
		put_num(o, 4 * k + (size_t)u->stubs[i].field);
		puts_(o, ", ");
		put_num(o, ALIAS_ABI);
		puts_(o, "\n");
	}
}

static size_t run_length(const struct unit *u, size_t first)
{
	size_t i = first;

	while (i < u->nstubs && u->stubs[i].run == first)
		i++;
	return i - first;
}

/*
 * Where a run's data go: 1, or 0 when a member's record or the counter's
 * home is not in this unit, and the run is left as it is.
 */
static int run_homes(const struct unit *u, size_t first,
		     const struct label **ctr_home,
		     const struct label **rec_home)
{
	struct span anchor = { "lp__tls.anchor", 14 };
	const struct stub *st = &u->stubs[first];
	size_t i;

	*ctr_home = find_label(u, st->reg.n ? anchor : st->ctr);
	*rec_home = find_label(u, st->rec);
	if (!*ctr_home || !*rec_home || !(*ctr_home)->section.n ||
	    !(*rec_home)->section.n)
		return 0;
	for (i = first; i < first + run_length(u, first); i++) {
		const struct label *r = find_label(u, u->stubs[i].rec);

		if (!r || r->section.n != (*rec_home)->section.n ||
		    memcmp(r->section.s, (*rec_home)->section.s,
			   r->section.n) ||
		    (u->stubs[i].reg.n != 0) != (st->reg.n != 0))
			return 0;
	}
	return 1;
}

/* A run that is rewritten: its number and where its data go. */
struct kept {
	size_t group;               /* 0: the run is left as it is */
	const struct label *ctr_home, *rec_home;
};

static void emit(struct out *o, const struct unit *u,
		 struct lp_group_stats *stats)
{
	/* kept[run's first stub]; group numbers start at 1 */
	struct kept *kept = lp_xcalloc(u->nstubs + 1, sizeof(*kept));
	size_t s, i, group = 0;

	for (s = 0; s < u->nstubs; s += run_length(u, s)) {
		struct kept *k = &kept[s];

		if (run_length(u, s) < 2 ||
		    !run_homes(u, s, &k->ctr_home, &k->rec_home))
			continue;
		k->group = ++group;
		stats->runs++;
		stats->removed += run_length(u, s) - 1;
	}
	for (s = 0, i = 0; i < u->nlines; i++) {
		const struct stub *st = s < u->nstubs ? &u->stubs[s] : NULL;

		if (!st || i != st->first) {
			put(o, u->lines[i].s, u->lines[i].n);
			puts_(o, "\n");
			continue;
		}
		if (kept[st->run].group && st->run == s)
			put_keeper(o, u, st, kept[s].group - 1);
		else if (!kept[st->run].group)
			for (; i <= st->last; i++) {
				put(o, u->lines[i].s, u->lines[i].n);
				puts_(o, "\n");
			}
		i = st->last;
		s++;
	}
	for (s = 0; s < u->nstubs; s += run_length(u, s))
		if (kept[s].group)
			put_group_data(o, u, s, kept[s].group - 1,
				       kept[s].ctr_home, kept[s].rec_home);
	free(kept);
}

int lp_group_asm(const char *text, size_t len, char **out, size_t *out_len,
		 struct lp_group_stats *stats)
{
	struct unit u;
	struct out o = { NULL, 0, 0 };
	int status = 1;

	memset(&u, 0, sizeof(u));
	memset(stats, 0, sizeof(*stats));
	*out = NULL;
	*out_len = 0;
	split_lines(&u, text, len);
	if (scan(&u) == 0) {
		stats->stubs = u.nstubs;
		emit(&o, &u, stats);
		if (stats->runs) {
			*out = o.s;
			*out_len = o.n;
			o.s = NULL;
			status = 0;
		}
	}
	free(o.s);
	free(u.lines);
	free(u.stubs);
	free(u.labels);
	free(u.tmp_named);
	return status;
}
