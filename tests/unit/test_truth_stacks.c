/* SPDX-License-Identifier: BSD-2-Clause */
/* Exact call paths: call/return decoding (branch_kind.h), the shadow stack
 * (shadow_stack.h), the counts file's stacks lines and the inclusive counts built from
 * them (truth.h). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "branch_kind.h"
#include "shadow_stack.h"
#include "truth.h"

static void test_branch_kind(void **state)
{
	static const uint8_t call[] = { 0xe8, 1, 2, 3, 4 }, call_r[] = { 0x41, 0xff, 0xd0 };
	static const uint8_t call_m[] = { 0xff, 0x15, 0, 0, 0, 0 }, ret[] = { 0xc3 };
	static const uint8_t rep_ret[] = { 0xf3, 0xc3 }, ret_n[] = { 0xc2, 8, 0 };
	static const uint8_t iretq[] = { 0x48, 0xcf }, jmp_r[] = { 0xff, 0xe0 };
	static const uint8_t lret[] = { 0x48, 0xcb }, add[] = { 0x48, 0x01, 0xc0 };
	static const uint8_t bl[] = { 0x01, 0, 0, 0x94 }, blr[] = { 0x00, 0x02, 0x3f, 0xd6 };
	static const uint8_t a_ret[] = { 0xc0, 0x03, 0x5f, 0xd6 }, eret[] = { 0xe0, 0x03, 0x9f, 0xd6 };
	static const uint8_t b[] = { 0x01, 0, 0, 0x14 }, br[] = { 0x00, 0x02, 0x1f, 0xd6 };

	(void)state;
	assert_int_equal(branch_kind_x86(call, sizeof call), SS_CALL);
	assert_int_equal(branch_kind_x86(call_r, sizeof call_r), SS_CALL);
	assert_int_equal(branch_kind_x86(call_m, sizeof call_m), SS_CALL);
	assert_int_equal(branch_kind_x86(ret, sizeof ret), SS_RET);
	assert_int_equal(branch_kind_x86(rep_ret, sizeof rep_ret), SS_RET);
	assert_int_equal(branch_kind_x86(ret_n, sizeof ret_n), SS_RET);
	assert_int_equal(branch_kind_x86(iretq, sizeof iretq), SS_ERET);
	assert_int_equal(branch_kind_x86(jmp_r, sizeof jmp_r), SS_OTHER);
	assert_int_equal(branch_kind_x86(lret, sizeof lret), SS_OTHER);
	assert_int_equal(branch_kind_x86(add, sizeof add), SS_OTHER);
	assert_int_equal(branch_kind_a64(bl, 4), SS_CALL);
	assert_int_equal(branch_kind_a64(blr, 4), SS_CALL);
	assert_int_equal(branch_kind_a64(a_ret, 4), SS_RET);
	assert_int_equal(branch_kind_a64(eret, 4), SS_ERET);
	assert_int_equal(branch_kind_a64(b, 4), SS_OTHER);
	assert_int_equal(branch_kind_a64(br, 4), SS_OTHER);
}

/* RISC-V, as riscv64-unknown-elf-as encodes them */
static void test_branch_kind_rv(void **state)
{
	static const uint8_t jal_ra[] = { 0xef, 0xf0, 0x1f, 0xfe }, jal_t0[] = { 0xef, 0xf2, 0xdf, 0xfd };
	static const uint8_t j[] = { 0x6f, 0x00, 0x00, 0x00 }, jalr_ra[] = { 0xe7, 0x80, 0x00, 0x01 };
	static const uint8_t ret[] = { 0x67, 0x80, 0x00, 0x00 }, jr_t0[] = { 0x67, 0x80, 0x02, 0x00 };
	static const uint8_t jr_a5[] = { 0x67, 0x80, 0x07, 0x00 }, mret[] = { 0x73, 0x00, 0x20, 0x30 };
	static const uint8_t sret[] = { 0x73, 0x00, 0x20, 0x10 }, addi[] = { 0x13, 0x01, 0x01, 0xfe };
	static const uint8_t c_jalr[] = { 0x82, 0x97 }, c_ret[] = { 0x82, 0x80 };
	static const uint8_t c_jr_a4[] = { 0x02, 0x87 }, c_ebreak[] = { 0x02, 0x90 };
	static const uint8_t c_mv[] = { 0xaa, 0x85 };

	(void)state;
	assert_int_equal(branch_kind_rv(jal_ra, 4), SS_CALL);
	assert_int_equal(branch_kind_rv(jal_t0, 4), SS_CALL);
	assert_int_equal(branch_kind_rv(j, 4), SS_OTHER);
	assert_int_equal(branch_kind_rv(jalr_ra, 4), SS_CALL);
	assert_int_equal(branch_kind_rv(ret, 4), SS_RET);
	assert_int_equal(branch_kind_rv(jr_t0, 4), SS_RET);
	assert_int_equal(branch_kind_rv(jr_a5, 4), SS_OTHER);
	assert_int_equal(branch_kind_rv(mret, 4), SS_ERET);
	assert_int_equal(branch_kind_rv(sret, 4), SS_ERET);
	assert_int_equal(branch_kind_rv(addi, 4), SS_OTHER);
	assert_int_equal(branch_kind_rv(c_jalr, 2), SS_CALL);
	assert_int_equal(branch_kind_rv(c_ret, 2), SS_RET);
	assert_int_equal(branch_kind_rv(c_jr_a4, 2), SS_OTHER);
	assert_int_equal(branch_kind_rv(c_ebreak, 2), SS_OTHER);
	assert_int_equal(branch_kind_rv(c_mv, 2), SS_OTHER);
}

/* the return addresses on the stack, innermost last */
static void expect_stack(const struct shadow_stack *s, size_t n, const uint64_t *ra)
{
	assert_int_equal(s->depth, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s->frames[i].ra, ra[i]);
}

static void test_shadow_stack(void **state)
{
	struct shadow_stack s;

	(void)state;
	assert_int_equal(ss_init(&s), 0);
	/* a call at 0x100 (5 bytes) into f, f calls g from 0x200, g returns to 0x205 */
	ss_step(&s, SS_CALL, 0x100, 5, 1, 0x1000, 0);
	ss_step(&s, SS_CALL, 0x200, 5, 1, 0x2000, 0);
	expect_stack(&s, 2, (uint64_t[]){ 0x105, 0x205 });
	uint32_t in_g = ss_node_now(&s);
	ss_step(&s, SS_RET, 0x2010, 1, 1, 0x205, 0);
	expect_stack(&s, 1, (uint64_t[]){ 0x105 });
	/* the same path again is the same node */
	ss_step(&s, SS_CALL, 0x200, 5, 1, 0x2000, 0);
	assert_int_equal(ss_node_now(&s), in_g);
	/* a call that did not start (its block cut short) pushes nothing */
	ss_step(&s, SS_CALL, 0x300, 5, 0, 0x3000, 0);
	assert_int_equal(s.depth, 2);
	/* a return that pops two frames at once (longjmp-like) */
	ss_step(&s, SS_RET, 0x2010, 1, 1, 0x105, 0);
	assert_int_equal(s.depth, 0);
	assert_int_equal(ss_node_now(&s), SS_ROOT);
	/* a return to nowhere on the stack changes nothing and is counted */
	ss_step(&s, SS_CALL, 0x100, 5, 1, 0x1000, 0);
	ss_step(&s, SS_RET, 0x1010, 1, 1, 0x999, 0);
	assert_int_equal(s.depth, 1);
	assert_int_equal(s.st.unmatched_rets, 1);
	/* an interrupt right after a return: the return applies at the exception return,
	 * to where execution resumes; a return inside the handler stops at its frame */
	ss_step(&s, SS_CALL, 0x1000, 5, 1, 0x4000, 0);
	ss_step(&s, SS_RET, 0x4010, 1, 1, 0x8000, 1);
	assert_int_equal(s.depth, 3);
	assert_true(s.frames[2].irq);
	ss_step(&s, SS_RET, 0x8010, 1, 1, 0x1005, 0);
	assert_int_equal(s.depth, 3);
	ss_step(&s, SS_ERET, 0x8020, 2, 1, 0x1005, 0);
	expect_stack(&s, 1, (uint64_t[]){ 0x105 });
	/* an interrupt right after a call: the call's frame first, then the handler's */
	ss_step(&s, SS_CALL, 0x1000, 5, 1, 0x8000, 1);
	assert_int_equal(s.depth, 3);
	ss_step(&s, SS_ERET, 0x8020, 2, 1, 0x4000, 0);
	expect_stack(&s, 2, (uint64_t[]){ 0x105, 0x1005 });
	/* an exception return with no exception frame changes nothing */
	ss_step(&s, SS_ERET, 0x8020, 2, 1, 0x5000, 0);
	assert_int_equal(s.depth, 2);
	assert_int_equal(s.st.unmatched_erets, 1);
	assert_int_equal(s.st.irqs, 2);
	assert_false(s.failed);

	/* credits: by (node, start, n); the index finds the record again */
	size_t i = ss_credit(&s, 3, 0x1000, 4, 1);
	assert_true(ss_credit_at(&s, i, 3, 0x1000, 4));
	assert_false(ss_credit_at(&s, i, 3, 0x1000, 5));
	assert_int_equal(ss_credit(&s, 3, 0x1000, 4, 1), i);
	assert_int_equal(s.recs[i].count, 3);
	for (uint64_t k = 0; k < 10000; k++)
		ss_credit(&s, 1, 0x10000 + 4 * k, 1, 1);
	assert_int_equal(s.nrecs, 10001);
	ss_free(&s);
}

/* names by address: [0x100, 0x200) main, [0x200, 0x300) f, [0x300, 0x400) g with h
 * inlined at [0x380, 0x400) */
static int names(void *ctx, uint64_t a, const char **out, unsigned max)
{
	(void)ctx;
	(void)max;
	if (a >= 0x100 && a < 0x200)
		out[0] = "main";
	else if (a >= 0x200 && a < 0x300)
		out[0] = "f";
	else if (a >= 0x300 && a < 0x380)
		out[0] = "g";
	else if (a >= 0x380 && a < 0x400) {
		out[0] = "g";
		out[1] = "h";
		return 2;
	} else
		return 0;
	return 1;
}

static const char counts[] =
	"bmprof-insn-count 1\n"
	"target other\n"
	"i 100 4 1\n" "i 104 4 1\n" "i 108 4 1\n"
	"i 200 4 1\n" "i 204 4 1\n" "i 208 4 1\n"
	"i 300 4 1\n" "i 380 4 1\n" "i 384 4 1\n"
	/* main (root) calls f from 0x104; f recurses into f from 0x204; f calls g from 0x204
	 * too; an interrupt in g runs f's code */
	"n 1 0 c 108\n"
	"n 2 1 c 208\n"
	"n 3 2 c 208\n"
	"n 4 3 q 200\n"
	"x 0 100 2 1\n"       /* main: 2 instructions */
	"x 1 200 2 3\n"       /* f: 2 instructions, 3 times */
	"x 2 200 3 1\n"       /* f in f: 3 */
	"x 3 380 2 5\n"       /* g (h inlined) in f in f: 2, 5 times */
	"x 3 300 1 1\n"       /* g: 1 */
	"x 4 200 2 7\n"       /* interrupt: left out */
	"x 1 500 2 1\n"       /* outside the ranges */
	"stacks 4 7 3 0 0 1 0 1 0\n"
	"end 9 0\n";

static struct truth_incl *find(struct truth_stacks *ts, const char *name)
{
	for (size_t i = 0; i < ts->n; i++)
		if (!strcmp(ts->fns[i].name, name))
			return &ts->fns[i];
	return NULL;
}

static void test_inclusive(void **state)
{
	struct truth_raw r;
	struct truth_stacks ts;
	char err[256];

	(void)state;
	assert_int_equal(truth_raw_parse(counts, sizeof counts - 1, &r, err, sizeof err), 0);
	assert_true(r.have_stacks);
	assert_int_equal(r.nnodes, 5);
	assert_int_equal(r.nruns, 7);
	assert_int_equal(r.ss.irqs, 1);
	assert_int_equal(truth_stacks_build(&r, names, NULL, NULL, &ts), 0);
	/* main 2 + f 6 + f-in-f 3 + g 10 + g 1 */
	assert_int_equal(ts.total, 22);
	assert_int_equal(ts.in_handlers, 14);
	assert_int_equal(ts.unplaced, 2);
	assert_int_equal(find(&ts, "main")->inclusive, 22);
	assert_int_equal(find(&ts, "main")->self, 2);
	/* f recurses: each instruction once */
	assert_int_equal(find(&ts, "f")->inclusive, 20);
	assert_int_equal(find(&ts, "f")->self, 9);
	assert_int_equal(find(&ts, "g")->inclusive, 11);
	assert_int_equal(find(&ts, "g")->self, 1);
	assert_int_equal(find(&ts, "h")->inclusive, 10);
	assert_int_equal(find(&ts, "h")->self, 10);
	assert_string_equal(ts.fns[0].name, "main");
	truth_stacks_free(&ts);
	/* only what ran with g on the stack */
	assert_int_equal(truth_stacks_build(&r, names, NULL, "g", &ts), 0);
	assert_int_equal(ts.total, 11);
	assert_int_equal(ts.outside_root, 11);
	assert_int_equal(find(&ts, "main")->inclusive, 11);
	truth_stacks_free(&ts);
	truth_raw_free(&r);
}

static void test_stacks_errors(void **state)
{
	static const char *const bad[] = {
		"n 2 0 c 100\nstacks 1 0 0 0 0 0 0 0 0\nend 0 0\n",   /* ids out of order */
		"n 1 1 c 100\nstacks 1 0 0 0 0 0 0 0 0\nend 0 0\n",   /* its own parent */
		"n 1 0 z 100\nstacks 1 0 0 0 0 0 0 0 0\nend 0 0\n",   /* no such kind */
		"x 5 100 1 1\nstacks 0 1 0 0 0 0 0 0 0\nend 0 0\n",   /* no such node */
		"x 0 100 0 1\nstacks 0 1 0 0 0 0 0 0 0\nend 0 0\n",   /* no instructions */
		"x 0 100 1 1\nstacks 0 2 0 0 0 0 0 0 0\nend 0 0\n",   /* a run missing */
		"stacks 0 0 0 0 0 0 0 0\nend 0 0\n",                  /* a number short */
		"stacks 0 0 0 0 0 0 0 0 0\nstacks 0 0 0 0 0 0 0 0 0\nend 0 0\n",
	};
	char text[512], err[256];
	struct truth_raw r;

	(void)state;
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		snprintf(text, sizeof text, "bmprof-insn-count 1\n%s", bad[i]);
		assert_int_equal(truth_raw_parse(text, strlen(text), &r, err, sizeof err), -1);
		assert_non_null(strstr(err, "malformed"));
	}
	snprintf(text, sizeof text, "bmprof-insn-count 1\nstacks 0 0 0 0 0 0 0 0 0\nend 0 0\n");
	assert_int_equal(truth_raw_parse(text, strlen(text), &r, err, sizeof err), 0);
	assert_true(r.have_stacks);
	assert_int_equal(r.nnodes, 1);
	truth_raw_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_branch_kind),
		cmocka_unit_test(test_branch_kind_rv),
		cmocka_unit_test(test_shadow_stack),
		cmocka_unit_test(test_inclusive),
		cmocka_unit_test(test_stacks_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
