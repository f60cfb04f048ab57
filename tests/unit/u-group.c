/*
 * u-group.c - the assembler pass that gives a run of stubs one counter
 * (tools/as/group.c): which stubs form a run, what stops one, the text of
 * the run's stub and records, and the units it must leave alone.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "as/group.h"
#include "test.h"

/* A stub as gcc writes likelyprof.h's LP_STUB_ASM_: anchored or not. */
static void stub(char *buf, size_t cap, int ctr, int off, int anchored)
{
	char inc[128];
	size_t n = strlen(buf);

	if (anchored)
		snprintf(inc, sizeof(inc), "\taddq $1, %%fs:lp__tls.ctr%d+%d"
			 "-lp__tls.anchor(%%rax)", ctr, off);
	else
		snprintf(inc, sizeof(inc), "\taddq $1, %%fs:lp__tls.ctr%d"
			 "@tpoff+%d", ctr, off);
	snprintf(buf + n, cap - n,
		 "#APP\n# %d \"a.c\" 1\n%s\n\tje 2f\n1:\n\t.subsection 1\n2:\n"
		 "\tleaq -128(%%rsp), %%rsp\n\tpushq %%rax\n\tpushq %%rax\n"
		 "\tmovq %%fs:0, %%rax\n\taddq %%rax, (%%rsp)\n"
		 "\taddq $lp__tls.ctr%d-lp__tls.anchor, (%%rsp)\n"
		 "\tleaq lp__enter_cold(%%rip), %%rax\n\tpushq %%rax\n"
		 "\tleaq lp__site_%d.%d(%%rip), %%rax\n\tpushq %%rax\n"
		 "\tcall *lp__enter_stub@GOTPCREL(%%rip)\n"
		 "\tleaq 24(%%rsp), %%rsp\n\tpopq %%rax\n"
		 "\tleaq 128(%%rsp), %%rsp\n\tjmp 1b\n\t.subsection 0\n"
		 "# 0 \"\" 2\n\t.loc 1 %d 2 view .LVU%d\n#NO_APP\n",
		 ctr, inc, ctr, ctr, ctr + 100, ctr, ctr);
}

static void add(char *buf, size_t cap, const char *s)
{
	size_t n = strlen(buf);

	snprintf(buf + n, cap - n, "%s", s);
}

/* The records and counters of sites 1..4, and the anchor. */
static void data(char *buf, size_t cap)
{
	int i;

	add(buf, cap, "\t.section\tlp_sites,\"aw\"\n");
	for (i = 1; i <= 4; i++) {
		char rec[160];

		snprintf(rec, sizeof(rec), "\t.align 8\nlp__site_%d.%d:\n"
			 "\t.quad\t.LC0\n\t.quad\t0\n\t.quad\t0\n\t.quad\t0\n"
			 "\t.quad\t0\n\t.long\t%d\n\t.long\t2\n", i, i + 100, i);
		add(buf, cap, rec);
	}
	add(buf, cap, "\t.section\t.tdata.likelyprof,\"awT\",@progbits\n");
	for (i = 1; i <= 4; i++) {
		char ctr[96];

		snprintf(ctr, sizeof(ctr), "\t.align 8\nlp__tls.ctr%d:\n"
			 "\t.quad\t0\n\t.quad\t-1\n\t.quad\t-1\n\t.quad\t-1\n", i);
		add(buf, cap, ctr);
	}
	add(buf, cap, "lp__tls.anchor:\n\t.byte\t1\n");
}

static char text[1 << 16];

/* f: two folded stubs, an instruction and a third, then a branch. */
static void unit(const char *between, const char *after_first, int anchored)
{
	text[0] = '\0';
	add(text, sizeof(text), "\t.text\n\t.globl\tf\n\t.type\tf, @function\n"
	    "f:\n.LFB0:\n\t.cfi_startproc\n\tmovq\tlp__tls.anchor@gottpoff"
	    "(%rip), %rax\n");
	stub(text, sizeof(text), 1, 24, anchored);
	add(text, sizeof(text), after_first);
	stub(text, sizeof(text), 2, 24, anchored);
	add(text, sizeof(text), between);
	stub(text, sizeof(text), 3, 8, anchored);
	add(text, sizeof(text), "\tcmpl\t$3, %edi\n\tje\t.L2\n");
	stub(text, sizeof(text), 4, 16, anchored);
	add(text, sizeof(text), ".L2:\n\tret\n\t.cfi_endproc\n");
	data(text, sizeof(text));
}

static int count(const char *s, const char *what)
{
	int n = 0;

	for (; (s = strstr(s, what)); s += strlen(what))
		n++;
	return n;
}

static char *group(struct lp_group_stats *st, int *status)
{
	char *out;
	size_t len;

	*status = lp_group_asm(text, strlen(text), &out, &len, st);
	if (out && strlen(out) != len)
		LP_FAIL_("length %zu, text %zu", len, strlen(out));
	return out;
}

static void test_group__three_in_a_row(void)
{
	struct lp_group_stats st;
	int status;
	char *out;

	unit("\tleal\t(%rdi,%rdi,2), %eax\n.LVL3:\n\t.cfi_def_cfa_offset 16\n",
	     "\tmovq\t%rdi, %rdx\n", 1);
	out = group(&st, &status);
	LP_CHECK_INT(status, 0);
	LP_CHECK_INT(st.stubs, 4);
	LP_CHECK_INT(st.runs, 1);
	LP_CHECK_INT(st.removed, 2);
	if (!out)
		return;
	/* one increment for the run, the fourth stub as it was */
	LP_CHECK_INT(count(out, "\taddq $1, %fs:"), 2);
	LP_CHECK(strstr(out, "\taddq $1, %fs:lp__tls.grp0+8-lp__tls.anchor"
			     "(%rax)\n\tje 2f\n") != NULL);
	LP_CHECK(strstr(out, "lp__tls.ctr4+16-lp__tls.anchor") != NULL);
	LP_CHECK(strstr(out, "addq $lp__tls.grp0-lp__tls.anchor, (%rsp)"));
	LP_CHECK(strstr(out, "\tleaq lp__grp.0(%rip), %rax\n"));
	LP_CHECK_INT(count(out, "lp__site_1.101(%rip)"), 0);
	/* what stood between the stubs stays */
	LP_CHECK(strstr(out, "\tmovq\t%rdi, %rdx\n") != NULL);
	LP_CHECK(strstr(out, "\tleal\t(%rdi,%rdi,2), %eax\n.LVL3:\n"));
	/* the counter beside the anchor, one alias record per member */
	LP_CHECK(strstr(out, "\t.section\t.tdata.likelyprof,\"awT\",@progbits\n"
			     "\t.align 8\n\t.type\tlp__tls.grp0, @object\n"
			     "\t.size\tlp__tls.grp0, 32\nlp__tls.grp0:\n"
			     "\t.quad\t0, -1, -1, -1\n") != NULL);
	LP_CHECK(strstr(out, "lp__grp.0:\n\t.quad\t0, 0, 0, 0\n"
			     "\t.quad\tlp__site_1.101-lp__grp.0\n"
			     "\t.long\t2, 3\n") != NULL);
	LP_CHECK(strstr(out, "lp__grp.0.1:\n\t.quad\t0, 0, 0, 0\n"
			     "\t.quad\tlp__site_2.102-lp__grp.0.1\n"
			     "\t.long\t6, 3\n") != NULL);
	LP_CHECK(strstr(out, "lp__grp.0.2:\n\t.quad\t0, 0, 0, 0\n"
			     "\t.quad\tlp__site_3.103-lp__grp.0.2\n"
			     "\t.long\t8, 3\n") != NULL);
	free(out);
}

static void test_group__local_exec(void)
{
	struct lp_group_stats st;
	int status;
	char *out;

	unit("", "", 0);
	out = group(&st, &status);
	LP_CHECK_INT(status, 0);
	LP_CHECK_INT(st.removed, 2);
	if (out)
		LP_CHECK(strstr(out, "\taddq $1, %fs:lp__tls.grp0@tpoff+8\n"));
	free(out);
}

/* Each of these between two stubs ends the run: no run of three. */
static void test_group__what_ends_a_run(void)
{
	static const char *const enders[] = {
		".L7:\n", "\tjne\t.L3\n", "\tcall\tg\n", "\tret\n",
		"\trep ret\n", "\tnotrack jmp\t*%rax\n", "\tud2\n",
		"\tloop\t.L3\n", "\tsyscall\n", "\t.p2align 4\n",
		"1:\n", "\tmovl\t$1, %eax; jmp 1f\n",
		"#APP\n\tmovl $1, %eax\n#NO_APP\n", "\txbegin\t.L9\n",
	};
	size_t i;

	for (i = 0; i < sizeof(enders) / sizeof(enders[0]); i++) {
		struct lp_group_stats st;
		int status;
		char *out;

		unit(enders[i], "", 1);
		out = group(&st, &status);
		/* stubs 1 and 2 still make a run; 3 stands alone */
		if (st.removed != 1)
			LP_FAIL_("'%s': %zu removed, want 1", enders[i],
				 st.removed);
		free(out);
	}
}

/* Groups text[] and checks that it came back to be assembled as it is. */
static void check_left_alone(const char *why)
{
	struct lp_group_stats st;
	int status;
	char *out = group(&st, &status);

	if (status != 1 || out)
		LP_FAIL_("%s: the unit was changed", why);
	free(out);
}

/* Changes @from, once, to @to (the same length) in text[]. */
static void edit(const char *from, const char *to)
{
	char *p = strstr(text, from);

	if (p)
		memcpy(p, to, strlen(to));
	else
		LP_FAIL_("no '%s' in the unit", from);
}

/* What the pass does not know, it leaves alone: the whole unit. */
static void test_group__leaves_alone(void)
{
	unit("\t.pushsection .text.x\n", "", 1);
	check_left_alone(".pushsection");
	unit("\t.previous\n", "", 1);
	check_left_alone(".previous");
	unit("", "", 1);
	edit("\tjmp 1b\n", "\tjmp 2b\n");
	check_left_alone("a stub one line off its shape");
	unit("", "", 1);
	edit("ctr2+24-", "ctr2+32-");
	check_left_alone("a field that is no field");
	unit("\tcall\tg\n", "\tcall\tg\n", 1);
	check_left_alone("no run at all");
	/* a member whose record is not in the unit leaves its run alone */
	unit("\tcall\tg\n", "", 1);
	edit("lp__site_2.102:", "lp__site_2.999:");
	check_left_alone("a record elsewhere");
}

/*
 * clang -fno-integrated-as: the stubs as written, between them its
 * #APP markers after a tab, #DEBUG_VALUE comments, comments after an
 * instruction, and .LtmpN labels, which only a debug section may name.
 */
static void clang_unit(const char *between, const char *naming)
{
	unit(between, "\t#NO_APP\n.Ltmp5:\n\t#DEBUG_VALUE: f:x <- 0\n"
	     "\t.loc\t0 3 2 is_stmt 1        # a.c:3:2\n"
	     "\tandq\t$-1073741824, %rsi     # imm = 0xC0000000\n"
	     "\t#APP\n", 1);
	add(text, sizeof(text), naming);
}

static size_t clang_removed(const char *between, const char *naming)
{
	struct lp_group_stats st;
	int status;
	char *out;

	clang_unit(between, naming);
	out = group(&st, &status);
	free(out);
	return st.removed;
}

static void test_group__clang(void)
{
	static const char debug[] = "\t.section\t.debug_info,\"\",@progbits\n"
				    "\t.quad\t.Ltmp5\n\t.quad\t.Ltmp7\n";

	if (clang_removed(".Ltmp7:\n", debug) != 2)
		LP_FAIL_("debug labels between stubs end a run");
	if (clang_removed(".LBB0_3:\n", debug) != 1)
		LP_FAIL_("a block's label does not end a run");
	if (clang_removed(".Ltmp7:\n", "\t.text\n\tleaq\t.Ltmp7(%rip), %rcx\n")
	    != 1)
		LP_FAIL_("a label named in code does not end a run");
	if (clang_removed(".Ltmp7:\n", "\t.section\t.gcc_except_table,\"a\","
			  "@progbits\n\t.uleb128 .Ltmp7-.Lfunc_begin0\n") != 1)
		LP_FAIL_("a landing pad does not end a run");
	if (clang_removed("", "\t.text\n\tjmp\t.Ltmp5\n") != 1)
		LP_FAIL_("a jump's target does not end a run");
	/* clang names a function's static record FUNCTION.lp__site_N */
	clang_unit("", "");
	edit("lp__site_2.102", "fun.lp__site_2");
	edit("lp__site_2.102", "fun.lp__site_2");
	{
		struct lp_group_stats st;
		int status;
		char *out = group(&st, &status);

		LP_CHECK_INT(st.removed, 2);
		if (out)
			LP_CHECK(strstr(out, "fun.lp__site_2-lp__grp.0.1")
				 != NULL);
		free(out);
	}
}

int main(void)
{
	LP_TEST(test_group__three_in_a_row);
	LP_TEST(test_group__local_exec);
	LP_TEST(test_group__what_ends_a_run);
	LP_TEST(test_group__leaves_alone);
	LP_TEST(test_group__clang);
	return lp_test_done();
}
