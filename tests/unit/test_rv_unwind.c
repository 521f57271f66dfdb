/* SPDX-License-Identifier: BSD-2-Clause */
/* The RISC-V unwind's first step (target/arch/riscv64/unwind.c) on hand-made code: GCC's
 * leaf (s0 saved alone), non-leaf and large-frame prologues and epilogues, compressed and
 * not, at every pc; a tail call, jumps followed; the open cases (an indirect jump, sp
 * written otherwise, an endless loop) settled by the word at s0-8 or a candidate ra; and
 * code and stack read only inside their ranges (the code ends at an unmapped page). */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <cmocka.h>

#include "../../target/arch/riscv64/unwind.c"

#define RA 0x80001234ull          /* ra at the sample */
#define RA_SAVED 0x80005678ull    /* a return address saved in the frame */

static uint8_t *page;             /* a page of code, the one after it unmapped */
static long psize;
static uint64_t stk[512];
static struct bmprof_unwind_env env;
static uint8_t *code;             /* the program being built, at the page's end */
static unsigned ncode;

static int setup(void **state)
{
	(void)state;
	psize = sysconf(_SC_PAGESIZE);
	page = mmap(0, 2 * psize, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (page == MAP_FAILED || mprotect(page + psize, psize, PROT_NONE))
		return -1;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	munmap(page, 2 * psize);
	return 0;
}

static uint64_t s(unsigned i) { return (uint64_t)(uintptr_t)&stk[i]; }

/* Lay out halfwords (a 32-bit instruction as two) so the program ends at the page's end. */
static void program(const uint16_t *h, unsigned n)
{
	ncode = 2 * n;
	code = page + psize - ncode;
	memcpy(code, h, ncode);
	memset(stk, 0, sizeof stk);
	env = (struct bmprof_unwind_env){
		.stack = { s(0), s(512) },
		.code = { (uint64_t)(uintptr_t)page, (uint64_t)(uintptr_t)page + psize },
	};
}

static uint64_t at(unsigned off) { return (uint64_t)(uintptr_t)code + off; }

struct res {
	int k;
	uint64_t caller, fp;
};

static struct res run(unsigned off, uint64_t sp, uint64_t fp, uint64_t ra)
{
	const struct bmprof_regs r = { .pc = at(off), .sp = sp, .fp = fp, .lr = ra };
	struct res x = { .fp = fp };

	x.k = rv_leaf_caller(&r, &env, &x.caller, &x.fp);
	return x;
}

#define LO(w) (uint16_t)((w) & 0xFFFF)
#define HI(w) (uint16_t)((w) >> 16)
#define I32(w) LO(w), HI(w)

/* GCC 12's leaf with -fno-omit-frame-pointer (callstack.c's d): s0 alone saved. */
static const uint16_t leaf[] = {
	0x1141,                  /* 0: c.addi sp,-16 */
	0xe422,                  /* 2: c.sdsp s0,8(sp) */
	0x0800,                  /* 4: c.addi4spn s0,sp,16 */
	0x629c,                  /* 6: c.ld a5,0(a3) */
	0x0705,                  /* 8: c.addi a4,1 */
	I32(0xfee519e3u),        /* a: bne a0,a4,6 (falls through) */
	0x6422,                  /* e: c.ldsp s0,8(sp) */
	0x0141,                  /* 10: c.addi sp,16 */
	0x8082,                  /* 12: c.jr ra */
};

static void test_leaf(void **state)
{
	const unsigned prologue[] = { 0, 2, 4 }, body[] = { 6, 8, 0xa }, epilogue[] = { 0x10, 0x12 };
	uint64_t sp = s(4), own = s(6), caller_fp = s(12);
	struct res x;

	(void)state;
	program(leaf, sizeof leaf / 2);
	stk[5] = caller_fp;      /* sp + 8 */
	for (unsigned i = 0; i < 3; i++) {
		/* s0 is the caller's, ra the return address */
		x = run(prologue[i], sp, caller_fp, RA);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA);
		assert_int_equal(x.fp, caller_fp);
		/* in the body s0 is the leaf's own: the walk goes on from the saved s0 */
		x = run(body[i], sp, own, RA);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA);
		assert_int_equal(x.fp, caller_fp);
	}
	for (unsigned i = 0; i < 2; i++) {
		x = run(epilogue[i], sp, caller_fp, RA);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA);
		assert_int_equal(x.fp, caller_fp);
	}
	/* no return address: nothing */
	assert_int_equal(run(2, sp, caller_fp, 0).k, 0);
	/* the saved s0's slot outside the stack range: nothing read, nothing given */
	env.stack = (struct bmprof_range){ s(0), s(5) };
	assert_int_equal(run(6, sp, own, RA).k, 0);
}

/* A non-leaf (callstack.c's c): the record { s0, ra } below s0, loads moved late. */
static const uint16_t nonleaf[] = {
	0x1141,                  /* 0: c.addi sp,-16 */
	0xe022,                  /* 2: c.sdsp s0,0(sp) */
	0xe406,                  /* 4: c.sdsp ra,8(sp) */
	0x0800,                  /* 6: c.addi4spn s0,sp,16 */
	I32(0xff1ff0efu),        /* 8: jal ra,... */
	0x631c,                  /* c: c.ld a5,0(a4) */
	0x60a2,                  /* e: c.ldsp ra,8(sp) */
	0x6402,                  /* 10: c.ldsp s0,0(sp) */
	0x0789,                  /* 12: c.addi a5,2 */
	0x0141,                  /* 14: c.addi sp,16 */
	0x8082,                  /* 16: c.jr ra */
};

static void test_nonleaf(void **state)
{
	uint64_t sp = s(4), own = s(6), caller_fp = s(20), stale = at(0xc);
	struct res x;

	(void)state;
	program(nonleaf, sizeof nonleaf / 2);
	stk[4] = caller_fp;
	stk[5] = RA_SAVED;
	for (unsigned off = 0; off <= 6; off += 2) {
		x = run(off, sp, caller_fp, RA_SAVED);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA_SAVED);
		assert_int_equal(x.fp, caller_fp);
	}
	/* a call ahead: a body with its own record, the chain from s0 is complete */
	assert_int_equal(run(8, sp, own, stale).k, 0);
	/* the loads ahead: the caller and its s0 are in their slots, ra is stale */
	x = run(0xc, sp, own, stale);
	assert_int_equal(x.k, 1);
	assert_int_equal(x.caller, RA_SAVED);
	assert_int_equal(x.fp, caller_fp);
	/* ra restored, s0 not yet */
	x = run(0x10, sp, own, RA_SAVED);
	assert_int_equal(x.k, 1);
	assert_int_equal(x.caller, RA_SAVED);
	assert_int_equal(x.fp, caller_fp);
	/* both restored */
	for (unsigned off = 0x12; off <= 0x16; off += 2) {
		x = run(off, sp, caller_fp, RA_SAVED);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA_SAVED);
		assert_int_equal(x.fp, caller_fp);
	}
}

/* A large frame in 32-bit instructions, and a compressed c.addi16sp one. */
static const uint16_t large[] = {
	I32(0x81010113u),        /* 0: addi sp,sp,-2032 */
	I32(0x7e113423u),        /* 4: sd ra,2024(sp) */
	I32(0x7e813023u),        /* 8: sd s0,2016(sp) */
	I32(0x7f010413u),        /* c: addi s0,sp,2032 */
	I32(0xff1ff0efu),        /* 10: jal ra,... */
	I32(0x7e813083u),        /* 14: ld ra,2024(sp) */
	I32(0x7e013403u),        /* 18: ld s0,2016(sp) */
	I32(0x7f010113u),        /* 1c: addi sp,sp,2032 */
	I32(0x00008067u),        /* 20: jalr zero,0(ra) */
};

static const uint16_t large_c[] = {
	0x7171,                  /* 0: c.addi16sp sp,-176 */
	0xf522,                  /* 2: c.sdsp s0,168(sp) */
	0x1900,                  /* 4: c.addi4spn s0,sp,176 */
	0x0705,                  /* 6: c.addi a4,1 */
	0x6105,                  /* 8: c.addi16sp sp,32 */
	0x644a,                  /* a: c.ldsp s0,144(sp) */
	0x6149,                  /* c: c.addi16sp sp,144 */
	0x8082,                  /* e: c.jr ra */
};

static void test_large_frames(void **state)
{
	uint64_t sp = s(0), caller_fp = s(500);
	struct res x;

	(void)state;
	program(large, sizeof large / 2);
	stk[253] = RA_SAVED;     /* sp + 2024 */
	stk[252] = caller_fp;    /* sp + 2016 */
	for (unsigned off = 0; off <= 0xc; off += 4) {
		x = run(off, sp, caller_fp, RA_SAVED);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA_SAVED);
	}
	assert_int_equal(run(0x10, sp, s(254), 0x1).k, 0);
	x = run(0x14, sp, s(254), 0x1);
	assert_int_equal(x.k, 1);
	assert_int_equal(x.caller, RA_SAVED);
	assert_int_equal(x.fp, caller_fp);

	/* the sp adjustments ahead of a load move its slot: sp + 32 + 144 */
	program(large_c, sizeof large_c / 2);
	stk[22] = caller_fp;
	for (unsigned off = 0; off <= 4; off += 2) {
		x = run(off, sp, caller_fp, RA);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA);
		assert_int_equal(x.fp, caller_fp);
	}
	x = run(6, sp, s(22), RA);
	assert_int_equal(x.k, 1);
	assert_int_equal(x.caller, RA);
	assert_int_equal(x.fp, caller_fp);
}

/* Jumps are followed: an epilogue ending in a tail call (jal zero to the next function's
 * prologue), and a c.j over an indirect jump. */
static const uint16_t tail[] = {
	0x60e2,                  /* 0: c.ldsp ra,24(sp) */
	0x6442,                  /* 2: c.ldsp s0,16(sp) */
	0x6105,                  /* 4: c.addi16sp sp,32 */
	I32(0x0060006fu),        /* 6: jal zero,+6 (to c) */
	0x8782,                  /* a: c.jr a5: open, if reached */
	0x7101,                  /* c: c.addi16sp sp,-512: the next function */
	0xa011,                  /* e: c.j +4 (to 12) */
	0x8782,                  /* 10: c.jr a5 */
	0x8082,                  /* 12: c.jr ra */
};

static void test_jumps(void **state)
{
	uint64_t sp = s(0), caller_fp = s(40);
	struct res x;

	(void)state;
	program(tail, sizeof tail / 2);
	stk[3] = RA_SAVED;
	stk[2] = caller_fp;
	x = run(0, sp, s(4), 0x1);
	assert_int_equal(x.k, 1);
	assert_int_equal(x.caller, RA_SAVED);
	assert_int_equal(x.fp, caller_fp);
	x = run(0xe, sp, caller_fp, RA);
	assert_int_equal(x.k, 1);
	assert_int_equal(x.caller, RA);
	assert_int_equal(x.fp, caller_fp);
}

/* Where the code ahead says nothing: the word at s0-8, else a candidate ra. */
static const uint16_t open_code[] = {
	0x8782,                  /* 0: c.jr a5 */
	I32(0x00510133u),        /* 2: add sp,sp,t0 */
	0x812a,                  /* 6: c.mv sp,a0 */
	0xa001,                  /* 8: c.j 8 (for ever) */
	I32(0x000780e7u),        /* a: jalr ra,0(a5) */
	0x9782,                  /* e: c.jalr a5 */
	0x0705,                  /* 10: c.addi a4,1 */
	0x0705,                  /* 12: c.addi a4,1 */
};

static void test_open(void **state)
{
	const unsigned opens[] = { 0, 2, 6, 8 };
	uint64_t sp = s(4), own = s(6), caller_fp = s(30);
	struct res x;

	(void)state;
	program(open_code, sizeof open_code / 2);
	for (unsigned i = 0; i < 4; i++) {
		/* a leaf's saved s0 at s0-8 (a stack address above s0) */
		stk[5] = caller_fp;
		x = run(opens[i], sp, own, RA);
		assert_int_equal(x.k, 1);
		assert_int_equal(x.caller, RA);
		assert_int_equal(x.fp, caller_fp);
		/* a record's return address there: ra is a candidate if a call is before it */
		stk[5] = RA_SAVED;
		x = run(opens[i], sp, own, at(0xe));
		assert_int_equal(x.k, 2);
		assert_int_equal(x.caller, at(0xe));
		assert_int_equal(x.fp, own);
		assert_int_equal(run(opens[i], sp, own, at(0x10)).k, 2);   /* after c.jalr */
		assert_int_equal(run(opens[i], sp, own, at(0x12)).k, 0);   /* after an addi */
		assert_int_equal(run(opens[i], sp, own, 0).k, 0);
		/* s0 whose s0-8 is outside the stack: not read */
		assert_int_equal(run(opens[i], sp, 8, at(0x12)).k, 0);
	}
}

/* Code is read only inside the code range: the scan runs into the unmapped page's edge,
 * a 32-bit instruction's second half beyond it, or a pc outside. */
static void test_code_range(void **state)
{
	static const uint16_t tail_body[] = { 0x0705, 0x0705 };      /* no end in sight */
	static const uint16_t split[] = { 0x0705, 0x0113 };          /* half of an addi */
	uint64_t sp = s(4), own = s(6);

	(void)state;
	program(tail_body, 2);
	stk[5] = RA_SAVED;
	assert_int_equal(run(0, sp, own, 0x3).k, 0);
	program(split, 2);
	stk[5] = RA_SAVED;
	assert_int_equal(run(0, sp, own, 0x3).k, 0);
	/* a pc outside the code range, or odd */
	assert_int_equal(run(ncode, sp, own, 0x3).k, 0);
	env.code.hi = at(2);
	assert_int_equal(run(0, sp, own, 0x3).k, 0);
	assert_int_equal(run(1, sp, own, 0x3).k, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_leaf),
		cmocka_unit_test(test_nonleaf),
		cmocka_unit_test(test_large_frames),
		cmocka_unit_test(test_jumps),
		cmocka_unit_test(test_open),
		cmocka_unit_test(test_code_range),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
