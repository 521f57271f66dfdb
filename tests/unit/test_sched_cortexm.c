/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M3/M4 pipeline models (analysis/uarch/cortex-m3.tsv, cortex-m4.tsv) on Thumb
 * loops, against best-case cycle counts added up by hand from the Technical Reference
 * Manuals' instruction set summaries (Cortex-M3 TRM Table 3-1, Cortex-M4 TRM Tables 3-1
 * and 7-1): per iteration, the sum of each instruction's cycles, with LDR 2, a load or
 * store right after a load or store 1 (the TRMs' note on pipelined neighbours), STR 2,
 * data processing and MUL 1, a taken branch 1+P with P = 1, VLDR/VSTR 2, VADD/VMUL.F32 1.
 * The instructions are built here (class, registers) as the Thumb decoder gives them. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "sched.h"
#include "uarch.h"

#define S(n) (INSN_REG_VEC0 + (n))   /* s0..s31 */
#define END 0xff

/* cls, text, registers read and written (END-terminated) */
static struct insn mk(unsigned cls, const char *text, const unsigned *rd, const unsigned *wr)
{
	struct insn in;

	memset(&in, 0, sizeof in);
	in.cls = (uint8_t)cls;
	in.size = 2;
	in.mem = cls == IC_LOAD ? INSN_MEM_LOAD : cls == IC_STORE ? INSN_MEM_STORE : 0;
	in.flow = cls == IC_BRANCH ? INSN_FLOW_COND : INSN_FLOW_NEXT;
	snprintf(in.text, sizeof in.text, "%s", text);
	for (; rd && *rd != END; rd++)
		insn_regs_add(&in.rd, *rd);
	for (; wr && *wr != END; wr++)
		insn_regs_add(&in.wr, *wr);
	return in;
}

#define R(...) ((const unsigned[]){ __VA_ARGS__, END })
#define NONE ((const unsigned[]){ END })
#define FLAGS 32      /* APSR.NZCV, in the set the decoder uses for flags */

static uint32_t loop_cycles(const char *model, const struct insn *b, size_t n,
			    struct sched_insn *o)
{
	const struct uarch *u = uarch_find(model);

	assert_non_null(u);
	assert_int_equal(sched_block(u, b, n, 1, o), 0);
	uint32_t sum = 0;
	for (size_t i = 0; i < n; i++)
		sum += o[i].M;
	return sum;
}

/* ldr r3,[r1,#4]; adds r3,#1; str r3,[r1,#4]; subs r2,#1; bne
 * TRM: 2 + 1 + 2 + 1 + (1+1) = 8 on both cores. */
static void test_increment_in_memory(void **s)
{
	(void)s;
	struct insn b[] = {
		mk(IC_LOAD, "ldr r3, [r1, #4]", R(1), R(3)),
		mk(IC_ALU, "adds r3, #1", R(3), R(3, FLAGS)),
		mk(IC_STORE, "str r3, [r1, #4]", R(3, 1), NONE),
		mk(IC_ALU, "subs r2, #1", R(2), R(2, FLAGS)),
		mk(IC_BRANCH, "bne 0x100", R(FLAGS), NONE),
	};
	struct sched_insn o[5];
	assert_int_equal(loop_cycles("cortex-m3", b, 5, o), 8);
	/* M: ldr after the taken branch 2, adds after ldr 2, str 1, subs after str 2, bne 1 */
	const uint32_t M[5] = { 2, 2, 1, 2, 1 };
	for (int i = 0; i < 5; i++)
		if (o[i].M != M[i])
			fail_msg("insn %d: M %u, want %u (reason %u, culprit %d)", i, o[i].M, M[i],
				 o[i].reason, o[i].culprit);
	/* adds waits for the loaded r3; subs, independent, for the STR holding the stage */
	assert_int_equal(o[1].reason, SCHED_DEPENDENCY);
	assert_int_equal(o[1].culprit, 0);
	assert_int_equal(o[3].reason, SCHED_UNIT_BUSY);
	assert_int_equal(o[3].culprit, 2);
	assert_int_equal(loop_cycles("cortex-m4", b, 5, o), 8);
}

/* ldr r3,[r0,#0]; ldr r4,[r1,#0] (pipelined); muls r3,r4,r3; adds r5,r3; adds r0,#4;
 * adds r1,#4; subs r2,#1; bne
 * TRM: 2 + 1 + 1 + 1 + 1 + 1 + 1 + (1+1) = 10. */
static void test_dot_product(void **s)
{
	(void)s;
	struct insn b[] = {
		mk(IC_LOAD, "ldr r3, [r0]", R(0), R(3)),
		mk(IC_LOAD, "ldr r4, [r1]", R(1), R(4)),
		mk(IC_MUL, "muls r3, r4, r3", R(3, 4), R(3, FLAGS)),
		mk(IC_ALU, "adds r5, r5, r3", R(5, 3), R(5, FLAGS)),
		mk(IC_ALU, "adds r0, #4", R(0), R(0, FLAGS)),
		mk(IC_ALU, "adds r1, #4", R(1), R(1, FLAGS)),
		mk(IC_ALU, "subs r2, #1", R(2), R(2, FLAGS)),
		mk(IC_BRANCH, "bne 0x200", R(FLAGS), NONE),
	};
	struct sched_insn o[8];
	assert_int_equal(loop_cycles("cortex-m3", b, 8, o), 10);
	assert_int_equal(o[1].M, 1);      /* the second LDR overlaps the first's data phase */
	assert_int_equal(o[2].M, 2);      /* MULS waits for r4: the LDR's 2 cycles */
	assert_int_equal(o[2].reason, SCHED_DEPENDENCY);
	assert_int_equal(o[2].culprit, 1);
	assert_int_equal(loop_cycles("cortex-m4", b, 8, o), 10);
}

/* udiv r3,r0,r1; adds r4,r3; subs r2,#1; bne
 * TRM: UDIV 2..12, best case 2; + 1 + 1 + (1+1) = 6. */
static void test_divide_best_case(void **s)
{
	(void)s;
	struct insn b[] = {
		mk(IC_DIV, "udiv r3, r0, r1", R(0, 1), R(3)),
		mk(IC_ALU, "adds r4, r4, r3", R(4, 3), R(4, FLAGS)),
		mk(IC_ALU, "subs r2, #1", R(2), R(2, FLAGS)),
		mk(IC_BRANCH, "bne 0x300", R(FLAGS), NONE),
	};
	struct sched_insn o[4];
	assert_int_equal(loop_cycles("cortex-m3", b, 4, o), 6);
	assert_int_equal(loop_cycles("cortex-m4", b, 4, o), 6);
}

/* Cortex-M4F: vldr s0,[r0]; vmul.f32 s1,s0,s0; vadd.f32 s2,s2,s1; vstr s2,[r0,#4];
 * adds r0,#8; subs r2,#1; bne
 * TRM Table 7-1: VLDR 2 + VMUL 1 + VADD 1 + VSTR 2; + 1 + 1 + (1+1) = 10. */
static void test_float_m4f(void **s)
{
	(void)s;
	struct insn b[] = {
		mk(IC_LOAD, "vldr s0, [r0]", R(0), R(S(0))),
		mk(IC_FP_MUL, "vmul.f32 s1, s0, s0", R(S(0)), R(S(1))),
		mk(IC_FP_ADD, "vadd.f32 s2, s2, s1", R(S(2), S(1)), R(S(2))),
		mk(IC_STORE, "vstr s2, [r0, #4]", R(S(2), 0), NONE),
		mk(IC_ALU, "adds r0, #8", R(0), R(0, FLAGS)),
		mk(IC_ALU, "subs r2, #1", R(2), R(2, FLAGS)),
		mk(IC_BRANCH, "bne 0x400", R(FLAGS), NONE),
	};
	struct sched_insn o[7];
	assert_int_equal(loop_cycles("cortex-m4", b, 7, o), 10);
}

/* Which model a Cortex-M's HELLO (arch 3, implementer 0x41, part number) gets. */
static void test_lookup(void **s)
{
	(void)s;
	assert_string_equal(uarch_for_cpu(3, "ARM", 0x41, 0xC23)->name, "cortex-m3");
	assert_string_equal(uarch_for_cpu(3, "ARM", 0x41, 0xC24)->name, "cortex-m4");
	assert_string_equal(uarch_for_cpu(3, "ARM", 0x41, 0xD21)->name, "cortex-m4");
	assert_int_equal(uarch_find("cortex-m3")->blocking, 1);
	assert_int_equal(uarch_find("cortex-m3")->out_of_order, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_increment_in_memory),
		cmocka_unit_test(test_dot_product),
		cmocka_unit_test(test_divide_best_case),
		cmocka_unit_test(test_float_m4f),
		cmocka_unit_test(test_lookup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
