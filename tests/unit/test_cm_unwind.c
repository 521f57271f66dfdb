/* SPDX-License-Identifier: BSD-2-Clause */
/* The Cortex-M unwind (target/arch/cortexm/unwind.c) on hand-made Thumb-2 code, GCC's
 * -O2 -fno-omit-frame-pointer -fno-shrink-wrap output: where the caller's sp, r7 and the
 * return address are at every pc of a small non-leaf, plain branches followed, a large frame whose epilogue moves
 * r7 among body instructions, a leaf that saves r7 without lr, a six-register push; the
 * cases it must leave open; the .ARM.exidx look-up; and a whole chain over a hand-made
 * stack. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "../../target/arch/cortexm/unwind.c"

static uint16_t code[64];
static struct bmprof_unwind_env env;

static uint64_t load(const uint16_t *h, unsigned n)
{
	memcpy(code, h, n * sizeof *h);
	env.code = (struct bmprof_range){ (uintptr_t)code, (uintptr_t)(code + n) };
	return (uintptr_t)code;
}

static uint64_t at(unsigned half) { return (uintptr_t)(code + half); }

static void expect(unsigned half, int first, uint8_t base, int32_t cfa, int32_t ra, int32_t r7)
{
	struct cm_frame f;

	assert_int_equal(cm_frame_at(&env, at(0), at(half), first, &f), 0);
	assert_int_equal(f.cfa_base, base);
	assert_int_equal(f.cfa_off, cfa);
	assert_int_equal(f.ra_off, ra);
	assert_int_equal(f.r7_off, r7);
}

static void expect_open(unsigned half, int first)
{
	struct cm_frame f;

	assert_int_equal(cm_frame_at(&env, at(0), at(half), first, &f), -1);
}

#define SP CM_BASE_SP
#define R7 CM_BASE_R7
#define REG CM_IN_REG

/* c: push {r7, lr}; add r7, sp, #0; bl d; ldr r2, [pc, #8]; ldr r3, [r2]; adds r3, #2;
 * str r3, [r2]; pop {r7, pc} */
static void small_nonleaf(void **state)
{
	static const uint16_t c[] = { 0xB580, 0xAF00, 0xF7FF, 0xFFFE, 0x4A02, 0x6813, 0x3302,
				      0x6013, 0xBD80 };
	(void)state;
	load(c, 9);
	expect(0, 1, SP, 0, REG, REG);         /* nothing pushed yet */
	expect(1, 1, SP, 8, -4, -8);           /* pushed, r7 not set */
	expect(2, 1, SP, 8, -4, -8);           /* at the call */
	for (unsigned h = 4; h <= 8; h++)      /* after it: the pop ahead */
		expect(h, 1, SP, 8, -4, -8);
	expect(4, 0, R7, 8, -4, -8);           /* as a return address: from r7 */
	expect_open(2, 0);                     /* a return address is never before a call */
}

/* big: push {r7, lr}; sub sp, #80; add r7, sp, #0; mov r1, r0; mov r0, r7; bl ext;
 * ldr r2, [pc]; ldr r1, [r7, #12]; ldr r3, [r2]; adds r7, #80; add r3, r1; str r3, [r2];
 * mov sp, r7; pop {r7, pc} */
static void large_frame(void **state)
{
	static const uint16_t c[] = { 0xB580, 0xB094, 0xAF00, 0x4601, 0x4638, 0xF7FF, 0xFFFE,
				      0x4A05, 0x68F9, 0x6813, 0x3750, 0x440B, 0x6013, 0x46BD,
				      0xBD80 };
	(void)state;
	load(c, 15);
	expect(1, 1, SP, 8, -4, -8);
	expect(2, 1, SP, 88, -4, -8);          /* locals allocated */
	expect(3, 1, SP, 88, -4, -8);          /* r7 set: sp still says it */
	expect(7, 0, R7, 88, -4, -8);          /* the body, from r7 */
	expect(7, 1, R7, 88, -4, -8);          /* the epilogue ahead, from r7 */
	expect(10, 1, R7, 88, -4, -8);         /* at adds r7, #80 */
	expect(11, 1, R7, 8, -4, -8);          /* r7 moved up already */
	expect(14, 1, SP, 8, -4, -8);          /* sp back at the pushed pair */
}

/* d (a leaf): push {r4, r7}; add r7, sp, #0; cbz r0, L1; movs r2, #0; ldr r1, [pc];
 * L3: ldr r3, [r1]; adds r2, #1; cmp r0, r2; bne L3; L1: mov sp, r7; pop {r4, r7}; bx lr */
static void leaf(void **state)
{
	static const uint16_t c[] = { 0xB490, 0xAF00, 0xB130, 0x2200, 0x4903, 0x680B, 0x3201,
				      0x4290, 0xD1FB, 0x46BD, 0xBC90, 0x4770 };
	(void)state;
	load(c, 12);
	expect(0, 1, SP, 0, REG, REG);
	expect(1, 1, SP, 8, REG, -4);          /* r7 at the pair's top */
	expect(5, 1, R7, 8, REG, -4);          /* the loop: the body */
	expect(9, 1, R7, 8, REG, -4);          /* mov sp, r7 ahead */
	expect(10, 1, SP, 8, REG, -4);
	expect(11, 1, SP, 0, REG, REG);        /* all restored */
}

/* many: push.w {r4-r8, lr}; mov r4, r0; mov r8, r3; sub sp, #8; add r7, sp, #0; bl ext;
 * adds r7, #8; mov sp, r7; pop.w {r4-r8, pc} */
static void six_registers(void **state)
{
	static const uint16_t c[] = { 0xE92D, 0x41F0, 0x4604, 0x4698, 0xB082, 0xAF00, 0xF7FF,
				      0xFFFE, 0x3708, 0x46BD, 0xE8BD, 0x81F0 };
	(void)state;
	load(c, 12);
	expect(2, 1, SP, 24, -4, -12);         /* r8 between r7 and lr */
	expect(6, 1, SP, 32, -4, -12);
	expect(8, 0, R7, 32, -4, -12);
	expect(8, 1, R7, 32, -4, -12);
	expect(10, 1, SP, 24, -4, -12);
}

/* GCC if-converts into the epilogue, after r7 has moved: push.w {r4-r8, lr}; sub sp, #28;
 * add r7, sp, #0; cbz r0, x; add.w r7, r7, #28; it lt; movlt r0, r3; mov sp, r7;
 * pop.w {r4-r8, pc} */
static void it_in_epilogue(void **state)
{
	static const uint16_t c[] = { 0xE92D, 0x41F0, 0xB087, 0xAF00, 0xB100, 0xF107, 0x071C,
				      0xBFB8, 0x4618, 0x46BD, 0xE8BD, 0x81F0 };
	/* the same with the conditional instruction moving sp */
	static const uint16_t d[] = { 0xE92D, 0x41F0, 0xB087, 0xAF00, 0xB100, 0xF107, 0x071C,
				      0xBFB8, 0xB002, 0x46BD, 0xE8BD, 0x81F0 };
	(void)state;
	load(c, 12);
	expect(5, 1, R7, 52, -4, -12);         /* r7 still the body's */
	expect(7, 1, R7, 24, -4, -12);         /* r7 moved up: not the body's frame */
	expect(8, 1, R7, 24, -4, -12);
	load(d, 12);
	expect_open(7, 1);
}

/* tests/e2e/progs/callstack.c's edges: push {r7, lr}; b 1f; 1: mov r7, sp; b 2f;
 * 2: ldr r1, [r0]; adds r1, #1; str r1, [r0]; pop.w {r7, lr}; b 3f; 3: bx lr */
static void plain_branches(void **state)
{
	static const uint16_t c[] = { 0xB580, 0xE7FF, 0x466F, 0xE7FF, 0x6801, 0x3101, 0x6001,
				      0xE8BD, 0x4080, 0xE7FF, 0x4770 };
	(void)state;
	load(c, 11);
	expect(2, 1, SP, 8, -4, -8);
	expect(4, 1, SP, 8, -4, -8);
	expect(7, 1, SP, 8, -4, -8);
	expect(9, 1, SP, 0, REG, REG);
	expect(10, 1, SP, 0, REG, REG);
}

/* What it must not guess: sp written from a register (alloca), an IT block ahead of a
 * moved sp, code past the end of the range. */
static void open_cases(void **state)
{
	/* push {r7, lr}; add r7, sp, #0; mov sp, r3; cbz r0, x; pop {r7, pc} */
	static const uint16_t a[] = { 0xB580, 0xAF00, 0x469D, 0xB100, 0xBD80 };
	/* push {r7, lr}; add r7, sp, #0; cbz r0, x; add sp, #8; it eq; pop {r7, pc} */
	static const uint16_t b[] = { 0xB580, 0xAF00, 0xB100, 0xB002, 0xBF08, 0xBD80 };
	/* push {r7, lr}; add r7, sp, #0 and the range ends */
	static const uint16_t e[] = { 0xB580, 0xAF00, 0xB100, 0x4600 };
	(void)state;
	load(a, 5);
	expect(2, 1, SP, 8, -4, -8);
	expect_open(3, 1);
	expect_open(4, 1);
	load(b, 6);
	expect_open(3, 1);
	expect_open(4, 1);                     /* a pop under a condition */
	load(e, 4);
	expect_open(3, 1);                     /* the scan runs off the code */
	expect_open(5, 1);
}

static void exidx(void **state)
{
	static uint32_t tab[6];
	uint32_t s;
	(void)state;
	/* functions at tab+0x100, tab+0x140 (EXIDX_CANTUNWIND), tab+0x180 */
	tab[0] = 0x100u & 0x7FFFFFFF; tab[1] = 0x80B0B0B0u;
	tab[2] = (0x140u - 8) & 0x7FFFFFFF; tab[3] = 1;
	tab[4] = (0x180u - 16) & 0x7FFFFFFF; tab[5] = 0x80B0B0B0u;
	uint32_t base = (uint32_t)(uintptr_t)tab;
	assert_int_equal(cm_exidx_lookup(tab, 3, base + 0xFF, &s), -1);
	assert_int_equal(cm_exidx_lookup(tab, 3, base + 0x13E, &s), 0);
	assert_int_equal(s, base + 0x100);
	assert_int_equal(cm_exidx_lookup(tab, 3, base + 0x150, &s), -1);
	assert_int_equal(cm_exidx_lookup(tab, 3, base + 0x1000, &s), 0);
	assert_int_equal(s, base + 0x180);
	/* a function below the table: a negative prel31 */
	tab[0] = (uint32_t)(-0x40) & 0x7FFFFFFF;
	assert_int_equal(cm_exidx_lookup(tab, 3, base - 0x20, &s), 0);
	assert_int_equal(s, base - 0x40);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(small_nonleaf), cmocka_unit_test(large_frame),
		cmocka_unit_test(leaf), cmocka_unit_test(six_registers),
		cmocka_unit_test(it_in_epilogue), cmocka_unit_test(plain_branches),
		cmocka_unit_test(open_cases),
		cmocka_unit_test(exidx),
	};
	return cmocka_run_group_tests(tests, 0, 0);
}
