/* SPDX-License-Identifier: BSD-2-Clause */
/* x86 rep string instructions counted once per execution (analysis/rep_count.h), on
 * instruction streams as QEMU TCG enters them: one entry per iteration (n, or n + 1
 * without QEMU's repz optimisation; 1 when RCX is 0), an interrupt or a fault in the
 * middle resuming the same instruction after a handler ran elsewhere, a handler running
 * another rep instruction or the same one. Expected executions by hand. And which byte
 * sequences are rep string instructions. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>
#include "rep_count.h"

/* Two rep instructions P and Q, each followed by its next instruction PF and QF, and two
 * handler instructions H1 and H2 (no rep). */
enum { P, PF, Q, QF, H1, H2, NPC };

struct machine {
	uint64_t starts[NPC];     /* the plugin's inline counters */
	struct rep_count rc[NPC];
};

static void enter(struct machine *m, int pc)
{
	m->starts[pc]++;
	if (pc == P)
		rep_count_enter(&m->rc[P], m->starts[PF]);
	else if (pc == Q)
		rep_count_enter(&m->rc[Q], m->starts[QF]);
}

static void enters(struct machine *m, int pc, unsigned n)
{
	while (n--)
		enter(m, pc);
}

/* A whole execution with RCX = n: n entries (QEMU's repz optimisation ends on the last
 * iteration), or n + 1 (the last entry finds RCX = 0); one when n = 0. Then the next
 * instruction. */
static void run_rep(struct machine *m, int pc, unsigned n, int opt)
{
	enters(m, pc, n == 0 ? 1 : opt ? n : n + 1);
	enter(m, pc + 1);
}

static void handler(struct machine *m)
{
	enter(m, H1);
	enter(m, H2);
}

static void test_iterations(void **state)
{
	struct machine m;

	(void)state;
	memset(&m, 0, sizeof m);
	run_rep(&m, P, 0, 1);            /* RCX = 0: one entry, one execution */
	run_rep(&m, P, 0, 0);
	assert_int_equal(m.rc[P].execs, 2);
	run_rep(&m, P, 1, 1);
	run_rep(&m, P, 1000, 1);
	run_rep(&m, P, 1000, 0);
	assert_int_equal(m.rc[P].execs, 5);
	assert_int_equal(m.starts[P], 1 + 1 + 1 + 1000 + 1001);
	assert_int_equal(m.starts[PF], 5);
}

/* Back to back, the next instruction between: each entry after it starts anew. */
static void test_loop_of_reps(void **state)
{
	struct machine m;

	(void)state;
	memset(&m, 0, sizeof m);
	for (unsigned i = 0; i < 100; i++)
		run_rep(&m, P, i % 3, i & 1);
	assert_int_equal(m.rc[P].execs, 100);
}

/* Interrupts in the middle: the handler runs elsewhere and resumes the same execution,
 * also when the handler runs another rep instruction, or when the interrupt comes right
 * at the first entry. */
static void test_interrupts(void **state)
{
	struct machine m;

	(void)state;
	memset(&m, 0, sizeof m);
	enters(&m, P, 10);
	handler(&m);
	enters(&m, P, 10);
	handler(&m);
	run_rep(&m, Q, 50, 1);           /* a nested handler with a rep of its own */
	enter(&m, H2);
	enters(&m, P, 5);
	enter(&m, PF);
	assert_int_equal(m.rc[P].execs, 1);
	assert_int_equal(m.rc[Q].execs, 1);
	enter(&m, P);                    /* a new execution, interrupted at its first entry */
	handler(&m);
	enters(&m, P, 3);
	enter(&m, PF);
	assert_int_equal(m.rc[P].execs, 2);
}

/* A fault on the first iteration (a page the handler then maps): resumed, one execution;
 * the same for one in the middle. */
static void test_faults(void **state)
{
	struct machine m;

	(void)state;
	memset(&m, 0, sizeof m);
	enter(&m, P);                    /* faults before its first iteration */
	handler(&m);
	enters(&m, P, 7);
	handler(&m);                     /* a fault in the middle */
	enters(&m, P, 7);
	enter(&m, PF);
	assert_int_equal(m.rc[P].execs, 1);
}

/* A handler that runs the very rep instruction it interrupted: its entry continues the
 * interrupted execution (one too few) and the resumption, after the handler's execution
 * reached the next instruction, starts one (one too many): the total is right. */
static void test_same_rep_in_handler(void **state)
{
	struct machine m;

	(void)state;
	memset(&m, 0, sizeof m);
	enters(&m, P, 4);                /* interrupted */
	enter(&m, H1);
	run_rep(&m, P, 9, 1);            /* the handler's own execution of P */
	enter(&m, H2);
	enters(&m, P, 4);                /* resumed */
	enter(&m, PF);
	assert_int_equal(m.rc[P].execs, 2);
}

static void test_is_x86_rep(void **state)
{
	static const struct { uint8_t b[6]; unsigned n; int rep; } cases[] = {
		{ { 0xf3, 0xa4 }, 2, 1 },                      /* rep movsb */
		{ { 0xf3, 0x48, 0xab }, 3, 1 },                /* rep stos %rax */
		{ { 0xf3, 0xaa }, 2, 1 },                      /* rep stos %al */
		{ { 0xf2, 0xae }, 2, 1 },                      /* repnz scasb */
		{ { 0xf3, 0xa6 }, 2, 1 },                      /* repz cmpsb */
		{ { 0x66, 0xf3, 0xa5 }, 3, 1 },                /* rep movsw */
		{ { 0xf3, 0x67, 0x48, 0xa5 }, 4, 1 },          /* addr32 rep movsq */
		{ { 0xf3, 0x6c }, 2, 1 },                      /* rep insb */
		{ { 0xf3, 0x6f }, 2, 1 },                      /* rep outsd */
		{ { 0xf3, 0xac }, 2, 1 },                      /* rep lodsb */
		{ { 0xa4 }, 1, 0 },                            /* movsb: no prefix */
		{ { 0x48, 0xab }, 2, 0 },                      /* stos %rax */
		{ { 0xf3, 0x90 }, 2, 0 },                      /* pause */
		{ { 0xf3, 0x40 }, 2, 0 },                      /* 32-bit: rep inc %eax */
		{ { 0xf3, 0x0f, 0xb8, 0xc0 }, 4, 0 },          /* popcnt */
		{ { 0xf3, 0xc3 }, 2, 0 },                      /* rep ret */
		{ { 0xf3, 0x48, 0x48, 0xab }, 4, 0 },          /* two REX bytes: not one */
		{ { 0xf3 }, 1, 0 },
		{ { 0 }, 0, 0 },
	};

	(void)state;
	for (size_t i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		if (rep_count_is_x86_rep(cases[i].b, cases[i].n) != cases[i].rep)
			fail_msg("case %zu: want %d", i, cases[i].rep);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_iterations),
		cmocka_unit_test(test_loop_of_reps),
		cmocka_unit_test(test_interrupts),
		cmocka_unit_test(test_faults),
		cmocka_unit_test(test_same_rep_in_handler),
		cmocka_unit_test(test_is_x86_rep),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
