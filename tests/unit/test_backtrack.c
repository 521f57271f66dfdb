/* SPDX-License-Identifier: BSD-2-Clause */
/* Apropos backtracking (analysis/backtrack.c over host/decode/memop_*.c): hand-assembled
 * x86-64 and AArch64 code (the bytes as GNU as emits them, objdump's text beside them),
 * decoded with capstone into instructions, memory accesses and a CFG, and samples on it
 * with chosen register files: the trigger and its address computed exactly, a clobbered
 * base register, writeback undone, a branch target in between, load against store events,
 * the skid window running out; and the image path on the fixture ELFs. */
#include <elf.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "backtrack.h"
#include "decode/bt_image.h"
#include "decode/insn_decode.h"
#include "wire.h"

#define X 0x401000u   /* where the x86-64 snippets are linked */
#define A 0x80000u    /* and the AArch64 ones */

/* DWARF register numbers */
enum { RAX, RDX, RCX, RBX, RSI, RDI, RBP, RSP };
#define SP 31

static void decode(int machine, const uint8_t *code, size_t len, uint64_t addr,
		   struct bt_func *bf)
{
	char err[256] = "";
	if (bt_func_decode(machine, code, len, addr, NULL, NULL, bf, err, sizeof err))
		fail_msg("bt_func_decode: %s", err);
}

/* Every register captured, r[n] = (n + 1) << 20 but those set after. */
static struct regfile regs(unsigned arch)
{
	struct regfile f;
	memset(&f, 0, sizeof f);
	f.arch = (uint8_t)arch;
	f.n = arch == BMPROF_ARCH_X86_64 ? 16 : 32;
	f.valid = arch == BMPROF_ARCH_X86_64 ? 0xffffu : 0xffffffffu;
	for (unsigned n = 0; n < f.n; n++)
		f.r[n] = (uint64_t)(n + 1) << 20;
	return f;
}

static struct bt_result bt(const struct bt_func *bf, uint64_t pc, unsigned ev, unsigned window,
			   const struct regfile *f)
{
	struct bt_query q = { .pc = pc, .event = (uint8_t)ev, .window = window, .regs = f };
	struct bt_result r;
	int status = bt_func_resolve(bf, &q, &r);
	assert_int_equal(status, r.status);
	return r;
}

static void expect_ea(const struct bt_result *r, uint64_t trigger, uint64_t ea, uint16_t size)
{
	if (r->status != BT_EA)
		fail_msg("trigger %#llx: status %s (%s, reg %u at %#llx), want ea %#llx",
			 (unsigned long long)r->trigger_pc, bt_status_name(r->status),
			 bt_why_name(r->why), r->clobber_reg, (unsigned long long)r->clobber_pc,
			 (unsigned long long)ea);
	assert_int_equal(r->trigger_pc, trigger);
	assert_int_equal(r->ea, ea);
	assert_int_equal(r->size, size);
}

static void expect_clobbered(const struct bt_result *r, uint64_t trigger, unsigned reg,
			     uint64_t by)
{
	assert_string_equal(bt_status_name(r->status), "ea-unknown");
	assert_string_equal(bt_why_name(r->why), "clobbered");
	assert_int_equal(r->trigger_pc, trigger);
	assert_int_equal(r->clobber_reg, reg);
	assert_int_equal(r->clobber_pc, by);
}

static void expect_target(const struct bt_result *r, uint64_t target)
{
	assert_string_equal(bt_status_name(r->status), "branch-target");
	assert_int_equal(r->target, target);
}

/* ---- x86-64 ---- */

static const uint8_t x_hit[] = {
	0x48, 0x8b, 0x4c, 0x98, 0x10,            /* 0: mov 0x10(%rax,%rbx,4),%rcx */
	0x48, 0x01, 0xca,                        /* 5: add %rcx,%rdx */
	0x48, 0x0f, 0xaf, 0xf2,                  /* 8: imul %rdx,%rsi */
};

/* The trigger two instructions before the pc, its address from base, index, scale and
 * displacement; the registers it names go to the type attribution. */
static void test_x86_hit(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_hit, sizeof x_hit, X, &bf);
	f.r[RAX] = 0x10000;
	f.r[RBX] = 3;
	struct bt_result r = bt(&bf, X + 0xc, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X, 0x10000 + 3 * 4 + 0x10, 8);
	assert_int_equal(r.kind, BT_EV_LOAD);
	assert_int_equal(r.base, RAX);
	assert_int_equal(r.index, RBX);
	assert_int_equal(r.disp, 0x10);
	assert_int_equal(r.skid, 2);
	assert_int_equal(r.flags, 0);
	/* no store before the pc: the walk stops at the procedure's start */
	r = bt(&bf, X + 0xc, BT_EV_STORE, 0, &f);
	assert_string_equal(bt_status_name(r.status), "no-memop");
	/* the same with the index register not captured */
	f.valid &= ~(1u << RBX);
	r = bt(&bf, X + 0xc, BT_EV_LOAD, 0, &f);
	assert_string_equal(bt_why_name(r.why), "not-captured");
	assert_int_equal(r.clobber_reg, RBX);
	assert_int_equal(r.trigger_pc, X);
	/* no register file: the trigger without an address */
	r = bt(&bf, X + 0xc, BT_EV_LOAD, 0, NULL);
	assert_int_equal(r.status, BT_EA_UNKNOWN);
	assert_int_equal(r.trigger_pc, X);
	/* a pc inside an instruction, or past the code */
	assert_string_equal(bt_status_name(bt(&bf, X + 1, BT_EV_LOAD, 0, &f).status), "not-code");
	assert_int_equal(bt(&bf, X + 0x20, BT_EV_LOAD, 0, &f).status, BT_NOT_CODE);
	/* the pc at the procedure's entry: entered by a call, what ran before is unknown */
	expect_target((struct bt_result[]){ bt(&bf, X, BT_EV_LOAD, 0, &f) }, X);
	bt_func_free(&bf);
}

static const uint8_t x_clobber[] = {
	0x48, 0x8b, 0x48, 0x08,                  /* 0: mov 0x8(%rax),%rcx */
	0x48, 0x83, 0xc0, 0x01,                  /* 4: add $0x1,%rax */
	0x90,                                    /* 8: nop */
	0x48, 0x8b, 0x12,                        /* 9: mov (%rdx),%rdx */
	0x90,                                    /* c: nop */
};

static void test_x86_clobbered(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_clobber, sizeof x_clobber, X, &bf);
	/* right after the load: computed */
	struct bt_result r = bt(&bf, X + 4, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X, f.r[RAX] + 8, 8);
	/* after the add: rax no longer holds the base */
	r = bt(&bf, X + 8, BT_EV_LOAD, 0, &f);
	expect_clobbered(&r, X, RAX, X + 4);
	assert_int_equal(r.base, RAX);
	assert_int_equal(r.disp, 8);
	/* mov (%rdx),%rdx: the trigger overwrote its own base */
	r = bt(&bf, X + 0xc, BT_EV_LOAD, 0, &f);
	expect_clobbered(&r, X + 9, RDX, X + 9);
	bt_func_free(&bf);
}

static const uint8_t x_kind[] = {
	0x48, 0x89, 0x4f, 0x20,                  /* 0: mov %rcx,0x20(%rdi) */
	0x48, 0x8b, 0x56, 0xf8,                  /* 4: mov -0x8(%rsi),%rdx */
	0x48, 0x01, 0xd1,                        /* 8: add %rdx,%rcx */
	0x83, 0x03, 0x01,                        /* b: addl $0x1,(%rbx) */
	0x90,                                    /* e: nop */
};

/* Loads, stores and either: a read-modify-write counts for both. */
static void test_x86_kind(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_kind, sizeof x_kind, X, &bf);
	struct bt_result r = bt(&bf, X + 0xb, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 4, f.r[RSI] - 8, 8);
	r = bt(&bf, X + 0xb, BT_EV_STORE, 0, &f);
	expect_ea(&r, X, f.r[RDI] + 0x20, 8);
	assert_int_equal(r.kind, BT_EV_STORE);
	assert_int_equal(r.skid, 2);
	r = bt(&bf, X + 0xb, BT_EV_ANY, 0, &f);
	expect_ea(&r, X + 4, f.r[RSI] - 8, 8);
	assert_int_equal(r.kind, BT_EV_LOAD);
	r = bt(&bf, X + 0xe, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 0xb, f.r[RBX], 4);
	r = bt(&bf, X + 0xe, BT_EV_STORE, 0, &f);
	expect_ea(&r, X + 0xb, f.r[RBX], 4);
	assert_int_equal(r.kind, BT_EV_STORE);
	bt_func_free(&bf);
}

static const uint8_t x_stack[] = {
	0x53,                                    /* 0: push %rbx */
	0x90,                                    /* 1: nop */
	0x5b,                                    /* 2: pop %rbx */
	0x90,                                    /* 3: nop */
	0xe8, 0x00, 0x00, 0x00, 0x00,            /* 4: call 0x9 */
	0xc3,                                    /* 9: ret */
	0xc9,                                    /* a: leave */
	0x90,                                    /* b: nop */
};

/* push, pop and leave move rsp by a known amount: the address from rsp after them. */
static void test_x86_stack(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_stack, sizeof x_stack, X, &bf);
	struct bt_result r = bt(&bf, X + 1, BT_EV_STORE, 0, &f);
	expect_ea(&r, X, f.r[RSP], 8);
	assert_int_equal(r.flags & BT_F_WRITEBACK, BT_F_WRITEBACK);
	assert_int_equal(r.base, RSP);
	assert_int_equal(r.disp, -8);
	r = bt(&bf, X + 3, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 2, f.r[RSP] - 8, 8);
	/* the push before the pop: rsp moved since */
	r = bt(&bf, X + 3, BT_EV_STORE, 0, &f);
	expect_clobbered(&r, X, RSP, X + 2);
	/* the return point of a call is a branch target (the callee's ret enters it), and
	 * so is the instruction after a ret, which nothing falls into */
	expect_target((struct bt_result[]){ bt(&bf, X + 9, BT_EV_STORE, 0, &f) }, X + 9);
	expect_target((struct bt_result[]){ bt(&bf, X + 0xa, BT_EV_LOAD, 0, &f) }, X + 0xa);
	/* leave loads at the old rbp, which it overwrites; rsp ends 8 past it */
	r = bt(&bf, X + 0xb, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 0xa, f.r[RSP] - 8, 8);
	assert_int_equal(r.base, RBP);
	bt_func_free(&bf);
}

static const uint8_t x_forms[] = {
	0x8b, 0x05, 0x00, 0x01, 0x00, 0x00,      /* 0: mov 0x100(%rip),%eax */
	0x90,                                    /* 6: nop */
	0x64, 0x48, 0x8b, 0x04, 0x25, 0x28,      /* 7: mov %fs:0x28,%rax */
	0x00, 0x00, 0x00,
	0x90,                                    /* 10: nop */
	0x67, 0x8b, 0x08,                        /* 11: mov (%eax),%ecx */
	0x90,                                    /* 14: nop */
	0x48, 0xa5,                              /* 15: movsq %ds:(%rsi),%es:(%rdi) */
	0x90,                                    /* 17: nop */
	0xf3, 0xa4,                              /* 18: rep movsb %ds:(%rsi),%es:(%rdi) */
	0x90,                                    /* 1a: nop */
	0xc4, 0xe2, 0x6d, 0x92, 0x04, 0x88,      /* 1b: vgatherdps %ymm2,(%rax,%ymm1,4),%ymm0 */
	0x90,                                    /* 21: nop */
};

static void test_x86_forms(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_forms, sizeof x_forms, X, &bf);
	/* rip-relative: no register needed */
	struct bt_result r = bt(&bf, X + 6, BT_EV_LOAD, 0, NULL);
	expect_ea(&r, X, X + 6 + 0x100, 4);
	assert_int_equal(r.base, BT_NOREG);
	r = bt(&bf, X + 0x10, BT_EV_LOAD, 0, &f);
	assert_string_equal(bt_why_name(r.why), "segment");
	assert_int_equal(r.trigger_pc, X + 7);
	/* a 32-bit address */
	f.r[RAX] = 0x100001000ull;
	r = bt(&bf, X + 0x14, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 0x11, 0x1000, 4);
	/* movsq: both registers advanced by 8 */
	r = bt(&bf, X + 0x17, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 0x15, f.r[RSI] - 8, 8);
	r = bt(&bf, X + 0x17, BT_EV_STORE, 0, &f);
	expect_ea(&r, X + 0x15, f.r[RDI] - 8, 8);
	/* rep movsb: by an unknown count */
	r = bt(&bf, X + 0x1a, BT_EV_STORE, 0, &f);
	assert_string_equal(bt_why_name(r.why), "rep");
	assert_int_equal(r.trigger_pc, X + 0x18);
	r = bt(&bf, X + 0x21, BT_EV_LOAD, 0, &f);
	assert_string_equal(bt_why_name(r.why), "vector-index");
	bt_func_free(&bf);
}

static const uint8_t x_branch[] = {
	0x48, 0x8b, 0x08,                        /* 0: mov (%rax),%rcx */
	0x48, 0x85, 0xc9,                        /* 3: test %rcx,%rcx */
	0x74, 0x04,                              /* 6: je 0xc */
	0x48, 0x83, 0xc2, 0x01,                  /* 8: add $0x1,%rdx */
	0x48, 0x01, 0xca,                        /* c: add %rcx,%rdx */
	0x31, 0xc9,                              /* f: xor %ecx,%ecx */
	0x48, 0x8b, 0x08,                        /* 11: mov (%rax),%rcx */
	0x48, 0x01, 0xca,                        /* 14: add %rcx,%rdx */
	0x48, 0xff, 0xce,                        /* 17: dec %rsi */
	0x75, 0xf5,                              /* 1a: jne 0x11 */
	0xc3,                                    /* 1c: ret */
};

/* A branch target in (trigger, pc]: the instructions before it alone do not say what ran;
 * every path through the CFG meeting the same load first does (BT_F_PATHS), a loop
 * header entered both from before the loop and from its back edge does not. A
 * conditional branch not taken on the way back is no obstacle. */
static void test_x86_branch_target(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_branch, sizeof x_branch, X, &bf);
	/* the join at 0xc: taken from 6 or through 8, both back to the load at 0 */
	struct bt_result r = bt(&bf, X + 0xf, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X, f.r[RAX], 8);
	assert_true(r.flags & BT_F_PATHS);
	assert_int_equal(r.target, X + 0xc);
	assert_int_equal(r.skid, 3);          /* the shorter path: 0xc, 6, 3 */
	r = bt(&bf, X + 0xc, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X, f.r[RAX], 8);
	assert_true(r.flags & BT_F_PATHS);
	/* rcx, which the load writes, as its address register would make it unknown; here a
	 * window too short for the longer path leaves the target */
	expect_target((struct bt_result[]){ bt(&bf, X + 0xf, BT_EV_LOAD, 3, &f) }, X + 0xc);
	r = bt(&bf, X + 8, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X, f.r[RAX], 8);
	/* the loop header as the pc: entered from the back edge as well */
	r = bt(&bf, X + 0x11, BT_EV_LOAD, 0, &f);
	expect_target(&r, X + 0x11);
	assert_false(r.flags & BT_F_PATHS);
	/* inside the loop, the load itself being the header is fine */
	r = bt(&bf, X + 0x14, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 0x11, f.r[RAX], 8);
	r = bt(&bf, X + 0x1c, BT_EV_LOAD, 0, &f);
	expect_ea(&r, X + 0x11, f.r[RAX], 8);
	assert_int_equal(r.skid, 3);
	bt_func_free(&bf);
}

static const uint8_t x_window[] = {
	0x48, 0x8b, 0x08,                        /* 0: mov (%rax),%rcx */
	0x48, 0x01, 0xca,                        /* 3: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 6: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 9: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* c: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* f: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 12: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 15: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 18: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 1b: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 1e: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 21: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 24: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 27: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 2a: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 2d: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 30: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 33: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 36: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 39: add %rcx,%rdx */
	0x48, 0x01, 0xca,                        /* 3c: add %rcx,%rdx */
};

/* The skid window: 20 instructions between the load and the pc. */
static void test_x86_window(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, x_window, sizeof x_window, X, &bf);
	uint64_t end = X + sizeof x_window;
	assert_string_equal(bt_status_name(bt(&bf, end, BT_EV_LOAD, 0, &f).status), "no-memop");
	assert_int_equal(bt(&bf, end, BT_EV_LOAD, 20, &f).status, BT_NO_MEMOP);
	struct bt_result r = bt(&bf, end, BT_EV_LOAD, 21, &f);
	expect_ea(&r, X, f.r[RAX], 8);
	assert_int_equal(r.skid, 20);
	bt_func_free(&bf);
}

/* Undecodable bytes on the way back stop the walk. */
static void test_x86_undecodable(void **state)
{
	static const uint8_t code[] = {
		0x48, 0x8b, 0x08,   /* 0: mov (%rax),%rcx */
		0x06,               /* 3: (bad) */
		0x90,               /* 4: nop */
	};
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_X86_64);
	(void)state;
	decode(EM_X86_64, code, sizeof code, X, &bf);
	assert_string_equal(bt_status_name(bt(&bf, X + 5, BT_EV_LOAD, 0, &f).status),
			    "undecodable");
	expect_ea((struct bt_result[]){ bt(&bf, X + 3, BT_EV_LOAD, 0, &f) }, X, f.r[RAX], 8);
	bt_func_free(&bf);
}

/* ---- AArch64 ---- */

static const uint8_t a_hit[] = {
	0x20, 0x78, 0x62, 0xf8,                  /* 0: ldr x0, [x1, x2, lsl #3] */
	0xa5, 0x00, 0x00, 0x8b,                  /* 4: add x5, x5, x0 */
	0x20, 0xd8, 0x62, 0xb8,                  /* 8: ldr w0, [x1, w2, sxtw #2] */
	0xa5, 0x00, 0x00, 0x8b,                  /* c: add x5, x5, x0 */
	0x20, 0x48, 0x62, 0x38,                  /* 10: ldrb w0, [x1, w2, uxtw] */
	0xa5, 0x00, 0x00, 0x8b,                  /* 14: add x5, x5, x0 */
	0x80, 0x00, 0x00, 0x58,                  /* 18: ldr x0, 28 */
	0xa5, 0x00, 0x00, 0x8b,                  /* 1c: add x5, x5, x0 */
	0x20, 0xd0, 0x5f, 0xf8,                  /* 20: ldur x0, [x1, #-3] */
	0xa5, 0x00, 0x00, 0x8b,                  /* 24: add x5, x5, x0 */
};

static void test_a64_hit(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_AARCH64);
	(void)state;
	decode(EM_AARCH64, a_hit, sizeof a_hit, A, &bf);
	f.r[2] = 0xffffffffu;   /* w2 = -1 */
	struct bt_result r = bt(&bf, A + 4, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A, f.r[1] + (0xffffffffull << 3), 8);
	assert_int_equal(r.base, 1);
	assert_int_equal(r.index, 2);
	r = bt(&bf, A + 0xc, BT_EV_LOAD, 0, &f);   /* sxtw #2 */
	expect_ea(&r, A + 8, f.r[1] - 4, 4);
	f.r[2] = 0x100000002ull;
	r = bt(&bf, A + 0x14, BT_EV_LOAD, 0, &f);   /* uxtw: the low word */
	expect_ea(&r, A + 0x10, f.r[1] + 2, 1);
	r = bt(&bf, A + 0x1c, BT_EV_LOAD, 0, NULL);   /* literal */
	expect_ea(&r, A + 0x18, A + 0x28, 8);
	r = bt(&bf, A + 0x24, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A + 0x20, f.r[1] - 3, 8);
	assert_int_equal(r.disp, -3);
	assert_int_equal(bt(&bf, A + 0x24, BT_EV_STORE, 0, &f).status, BT_NO_MEMOP);
	bt_func_free(&bf);
}

static const uint8_t a_wb[] = {
	0x20, 0x8c, 0x40, 0xf8,                  /* 0: ldr x0, [x1, #8]! */
	0xa5, 0x00, 0x00, 0x8b,                  /* 4: add x5, x5, x0 */
	0x20, 0x84, 0x40, 0xf8,                  /* 8: ldr x0, [x1], #8 */
	0xa5, 0x00, 0x00, 0x8b,                  /* c: add x5, x5, x0 */
	0xfd, 0x7b, 0xc1, 0xa8,                  /* 10: ldp x29, x30, [sp], #16 */
	0xa5, 0x00, 0x00, 0x8b,                  /* 14: add x5, x5, x0 */
	0xfd, 0x7b, 0xbe, 0xa9,                  /* 18: stp x29, x30, [sp, #-32]! */
	0xa5, 0x00, 0x00, 0x8b,                  /* 1c: add x5, x5, x0 */
	0x00, 0x70, 0xc3, 0x4c,                  /* 20: ld1 {v0.16b}, [x0], x3 */
	0xa5, 0x00, 0x06, 0x8b,                  /* 24: add x5, x5, x6 */
	0x20, 0x84, 0x40, 0xf8,                  /* 28: ldr x0, [x1], #8 */
	0x21, 0x10, 0x00, 0x91,                  /* 2c: add x1, x1, #0x4 */
	0xa5, 0x00, 0x06, 0x8b,                  /* 30: add x5, x5, x6 */
};

/* Pre- and post-index writeback: the base after the access, the writeback undone. */
static void test_a64_writeback(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_AARCH64);
	(void)state;
	decode(EM_AARCH64, a_wb, sizeof a_wb, A, &bf);
	struct bt_result r = bt(&bf, A + 4, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A, f.r[1], 8);   /* [x1, #8]!: x1 already moved to the address */
	assert_int_equal(r.flags & BT_F_WRITEBACK, BT_F_WRITEBACK);
	assert_int_equal(r.disp, 8);
	r = bt(&bf, A + 0xc, BT_EV_LOAD, 0, &f);   /* [x1], #8 */
	expect_ea(&r, A + 8, f.r[1] - 8, 8);
	r = bt(&bf, A + 0x14, BT_EV_LOAD, 0, &f);   /* ldp [sp], #16 */
	expect_ea(&r, A + 0x10, f.r[SP] - 16, 16);
	assert_int_equal(r.base, SP);
	r = bt(&bf, A + 0x1c, BT_EV_STORE, 0, &f);   /* stp [sp, #-32]! */
	expect_ea(&r, A + 0x18, f.r[SP], 16);
	assert_int_equal(r.disp, -32);
	r = bt(&bf, A + 0x24, BT_EV_LOAD, 0, &f);   /* ld1 [x0], x3 */
	expect_ea(&r, A + 0x20, f.r[0] - f.r[3], 16);
	/* the base moved again after the writeback: neither value is known */
	r = bt(&bf, A + 0x30, BT_EV_LOAD, 0, &f);
	expect_clobbered(&r, A + 0x28, 1, A + 0x2c);
	bt_func_free(&bf);
}

static const uint8_t a_clobber[] = {
	0x20, 0x00, 0x40, 0xf9,                  /* 0: ldr x0, [x1] */
	0x21, 0x20, 0x00, 0x91,                  /* 4: add x1, x1, #0x8 */
	0xa5, 0x00, 0x00, 0x8b,                  /* 8: add x5, x5, x0 */
	0x42, 0x08, 0x40, 0xf9,                  /* c: ldr x2, [x2, #16] */
	0xa5, 0x00, 0x00, 0x8b,                  /* 10: add x5, x5, x0 */
};

static void test_a64_clobbered(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_AARCH64);
	(void)state;
	decode(EM_AARCH64, a_clobber, sizeof a_clobber, A, &bf);
	struct bt_result r = bt(&bf, A + 8, BT_EV_LOAD, 0, &f);
	expect_clobbered(&r, A, 1, A + 4);
	r = bt(&bf, A + 0x10, BT_EV_LOAD, 0, &f);
	expect_clobbered(&r, A + 0xc, 2, A + 0xc);
	assert_int_equal(r.disp, 16);
	bt_func_free(&bf);
}

static const uint8_t a_excl[] = {
	0x20, 0xfc, 0x02, 0xc8,                  /* 0: stlxr w2, x0, [x1] */
	0x60, 0xfc, 0x5f, 0x88,                  /* 4: ldaxr w0, [x3] */
	0xa5, 0x00, 0x00, 0x8b,                  /* 8: add x5, x5, x0 */
	0x86, 0x1c, 0x7f, 0xc8,                  /* c: ldxp x6, x7, [x4] */
	0xa5, 0x00, 0x00, 0x8b,                  /* 10: add x5, x5, x0 */
};

/* Exclusive and acquire/release forms; a store event passes over loads. */
static void test_a64_exclusive(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_AARCH64);
	(void)state;
	decode(EM_AARCH64, a_excl, sizeof a_excl, A, &bf);
	struct bt_result r = bt(&bf, A + 8, BT_EV_STORE, 0, &f);
	expect_ea(&r, A, f.r[1], 8);
	r = bt(&bf, A + 8, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A + 4, f.r[3], 4);
	r = bt(&bf, A + 0x10, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A + 0xc, f.r[4], 16);
	bt_func_free(&bf);
}

static const uint8_t a_branch[] = {
	0x05, 0x00, 0x80, 0xd2,                  /* 0: mov x5, #0x0 */
	0x20, 0x00, 0x40, 0xf9,                  /* 4: ldr x0, [x1] */
	0x40, 0x00, 0x00, 0xb4,                  /* 8: cbz x0, 10 */
	0xa5, 0x00, 0x00, 0x8b,                  /* c: add x5, x5, x0 */
	0xa5, 0x04, 0x00, 0x91,                  /* 10: add x5, x5, #0x1 */
	0x42, 0x04, 0x00, 0xf1,                  /* 14: subs x2, x2, #0x1 */
	0x61, 0xff, 0xff, 0x54,                  /* 18: b.ne 4 */
	0xc0, 0x03, 0x5f, 0xd6,                  /* 1c: ret */
};

static void test_a64_branch_target(void **state)
{
	struct bt_func bf;
	struct regfile f = regs(BMPROF_ARCH_AARCH64);
	(void)state;
	decode(EM_AARCH64, a_branch, sizeof a_branch, A, &bf);
	/* the join at 0x10 (through 0xc or taken from 8): the ldr at 4 on both paths */
	struct bt_result r = bt(&bf, A + 0x10, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A + 4, f.r[1], 8);
	assert_true(r.flags & BT_F_PATHS);
	/* the loop header: entered from the entry too */
	expect_target((struct bt_result[]){ bt(&bf, A + 4, BT_EV_LOAD, 0, &f) }, A + 4);
	r = bt(&bf, A + 0x1c, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A + 4, f.r[1], 8);
	assert_int_equal(r.target, A + 0x10);
	r = bt(&bf, A + 0xc, BT_EV_LOAD, 0, &f);
	expect_ea(&r, A + 4, f.r[1], 8);
	/* a register file of the other architecture is no register file */
	struct regfile x = regs(BMPROF_ARCH_X86_64);
	r = bt(&bf, A + 0xc, BT_EV_LOAD, 0, &x);
	assert_int_equal(r.status, BT_EA_UNKNOWN);
	assert_int_equal(r.trigger_pc, A + 4);
	bt_func_free(&bf);
}

/* ---- images ---- */

static void fixture(char *path, size_t len, const char *name)
{
	const char *dir = getenv("BMPROF_FIXTURES");
	snprintf(path, len, "%s/%s", dir && *dir ? dir : "build/fixtures", name);
}

/* tests/fixtures/bt_walk.c compiled: the procedures found by the symbol table, decoded
 * on first use. set_potential's store through its first argument has an exact address
 * and names the argument register; every load of walk is found right after it, at the
 * members' offsets; the loop header is a branch target. */
static void image(const char *name, unsigned arch, unsigned arg0)
{
	char path[512], err[256];
	struct insn_func fn;
	struct regfile f = regs(arch);
	struct bt_result r;
	struct bt_query q = { .event = BT_EV_STORE, .regs = &f };
	uint64_t covered = 0;
	int header = 0;

	fixture(path, sizeof path, name);
	struct bt_image *im = bt_image_open(path, err, sizeof err);
	if (!im)
		fail_msg("bt_image_open: %s", err);
	if (insn_func_load(path, "set_potential", &fn, err, sizeof err))
		fail_msg("%s", err);
	q.pc = fn.insns[0].addr + fn.insns[0].size;
	assert_int_equal(bt_image_resolve(im, &q, &r, err, sizeof err), 0);
	expect_ea(&r, fn.insns[0].addr, f.r[arg0] + 24, 8);
	assert_int_equal(r.base, arg0);
	assert_int_equal(r.disp, 24);
	assert_int_equal(r.kind, BT_EV_STORE);
	insn_func_free(&fn);

	if (insn_func_load(path, "walk", &fn, err, sizeof err))
		fail_msg("%s", err);
	q.event = BT_EV_LOAD;
	for (size_t i = 0; i + 1 < fn.n; i++) {
		const struct insn *x = &fn.insns[i];
		if (x->flow == INSN_FLOW_COND && x->target < x->addr) {
			q.pc = x->target;
			assert_int_equal(bt_image_resolve(im, &q, &r, err, sizeof err), 0);
			expect_target(&r, x->target);
			header = 1;
		}
		if (!(x->mem & INSN_MEM_LOAD) || x->flow != INSN_FLOW_NEXT)
			continue;
		q.pc = fn.insns[i + 1].addr;
		assert_int_equal(bt_image_resolve(im, &q, &r, err, sizeof err), 0);
		assert_int_equal(r.trigger_pc, x->addr);
		assert_int_equal(r.skid, 0);
		if (r.status == BT_EA_UNKNOWN) {
			/* n = n->child: the base is the loaded value */
			expect_clobbered(&r, x->addr, r.base, x->addr);
		} else {
			assert_int_equal(r.status, BT_EA);
			assert_int_equal(r.index, BT_NOREG);
			assert_int_equal(r.ea, f.r[r.base] + (uint64_t)r.disp);
		}
		for (int64_t off = r.disp; off < r.disp + r.size && off < 64; off++)
			if (off >= 0)
				covered |= 1ull << off;
	}
	assert_true(header);
	assert_true(covered >> 8 & 1);    /* child */
	assert_true(covered >> 16 & 1);   /* orientation */
	insn_func_free(&fn);

	q.pc = 0x10;
	assert_int_equal(bt_image_resolve(im, &q, &r, err, sizeof err), 0);
	assert_string_equal(bt_status_name(r.status), "not-code");
	bt_image_close(im);
}

static void test_image_x86(void **state)
{
	(void)state;
	image("bt_x86_64.elf", BMPROF_ARCH_X86_64, RDI);
}

static void test_image_a64(void **state)
{
	(void)state;
	image("bt_aarch64.elf", BMPROF_ARCH_AARCH64, 0);
}

static void test_image_errors(void **state)
{
	char path[512], err[256];
	(void)state;
	fixture(path, sizeof path, "sym_stripped.elf");
	assert_null(bt_image_open(path, err, sizeof err));
	assert_non_null(strstr(err, "stripped"));
	fixture(path, sizeof path, "not_elf.txt");
	err[0] = 0;
	assert_null(bt_image_open(path, err, sizeof err));
	assert_true(err[0] && !strchr(err, '\n'));
	assert_null(bt_image_open("/nonexistent/x.elf", err, sizeof err));
	assert_non_null(strstr(err, "/nonexistent/x.elf"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_hit),
		cmocka_unit_test(test_x86_clobbered),
		cmocka_unit_test(test_x86_kind),
		cmocka_unit_test(test_x86_stack),
		cmocka_unit_test(test_x86_forms),
		cmocka_unit_test(test_x86_branch_target),
		cmocka_unit_test(test_x86_window),
		cmocka_unit_test(test_x86_undecodable),
		cmocka_unit_test(test_a64_hit),
		cmocka_unit_test(test_a64_writeback),
		cmocka_unit_test(test_a64_clobbered),
		cmocka_unit_test(test_a64_exclusive),
		cmocka_unit_test(test_a64_branch_target),
		cmocka_unit_test(test_image_x86),
		cmocka_unit_test(test_image_a64),
		cmocka_unit_test(test_image_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
