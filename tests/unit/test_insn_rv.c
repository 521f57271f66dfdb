/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V instruction records for the CPI analysis (host/decode/insn_rv.c, through
 * insn_decode): control flow and targets (calls and returns by the link-register
 * conventions, tail calls, auipc+jalr call targets), classes, memory access and size, and
 * registers read and written, of hand-assembled RV64GC code (the bytes as
 * riscv64-unknown-elf-as emits them, objdump's disassembly beside them), compressed
 * instructions included; and the SiFive U74 model (analysis/uarch/sifive-u74.tsv) on
 * decoded loops, against schedules worked out by hand, and chosen for the U74's ids. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <elf.h>
#include <cmocka.h>

#include "decode/insn_decode.h"
#include "decode/insn_decode_internal.h"
#include "symbol/rv_insn.h"
#include "sched.h"
#include "uarch.h"
#include "wire.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NONE 0xff

struct want {
	const char *text;
	uint8_t flow, cls, mem;
	uint64_t target;
	uint8_t rd[5], wr[5];   /* register numbers, NONE-terminated */
	uint8_t size;           /* bytes a load or store accesses */
};

static void check_regs(const struct insn_regs *got, const uint8_t *want, const char *what,
		       const char *text)
{
	struct insn_regs w = { { 0, 0 } };
	for (size_t i = 0; i < 5 && want[i] != NONE; i++)
		insn_regs_add(&w, want[i]);
	if (got->w[0] != w.w[0] || got->w[1] != w.w[1])
		fail_msg("%s of '%s': got %#llx:%#llx, want %#llx:%#llx", what, text,
			 (unsigned long long)got->w[1], (unsigned long long)got->w[0],
			 (unsigned long long)w.w[1], (unsigned long long)w.w[0]);
}

static void check(const uint8_t *code, size_t len, uint64_t addr, const struct want *w,
		  size_t nw)
{
	char err[256] = "";
	struct insn_func f;

	if (insn_decode(EM_RISCV, code, len, addr, NULL, NULL, &f, err, sizeof(err)))
		fail_msg("insn_decode: %s", err);
	assert_int_equal(f.n, nw);
	uint64_t at = addr;
	for (size_t i = 0; i < nw; i++) {
		const struct insn *in = &f.insns[i];
		uint32_t word;
		assert_int_equal(in->addr, at);
		assert_string_equal(in->text, w[i].text);
		if (in->flow != w[i].flow || in->cls != w[i].cls || in->mem != w[i].mem ||
		    in->target != w[i].target)
			fail_msg("'%s': flow %u cls %u mem %u target %#llx, want %u %u %u %#llx",
				 in->text, in->flow, in->cls, in->mem, (unsigned long long)in->target,
				 w[i].flow, w[i].cls, w[i].mem, (unsigned long long)w[i].target);
		check_regs(&in->rd, w[i].rd, "read", in->text);
		check_regs(&in->wr, w[i].wr, "written", in->text);
		word = 0;
		if (in->size > 1)   /* not the .byte of a short tail */
			assert_int_equal(rv_fetch(code + (at - addr), len - (at - addr), &word),
					 in->size);
		if (insn_rv_mem_size(word) != w[i].size)
			fail_msg("'%s': accesses %u bytes, want %u", in->text,
				 insn_rv_mem_size(word), w[i].size);
		at += in->size;
	}
	assert_int_equal(at, addr + len);
	insn_func_free(&f);
}

#define R(...) { __VA_ARGS__, NONE }
#define NO { NONE }
enum { RA = 1, SP, GP, TP, T0, T1, T2, S0, S1, A0, A1, A2, A3, A4, A5, A6, A7 };
#define F(n) (INSN_REG_VEC0 + (n))
#define FA(n) F(10 + (n))
#define L INSN_MEM_LOAD
#define S INSN_MEM_STORE
#define BASE 0x80000000ull

/* riscv64-unknown-elf-as -march=rv64gc with .option norvc; objdump -d beside */
static const uint8_t code32[] = {
	0x13, 0x01, 0x01, 0xfe, /* 00 addi sp,sp,-32 */
	0x23, 0x3c, 0x11, 0x00, /* 04 sd ra,24(sp) */
	0x13, 0x05, 0x50, 0x00, /* 08 li a0,5 */
	0x93, 0x05, 0x05, 0x00, /* 0c mv a1,a0 */
	0x13, 0x00, 0x00, 0x00, /* 10 nop */
	0x37, 0x26, 0x01, 0x00, /* 14 lui a2,0x12 */
	0x97, 0x00, 0x00, 0x00, /* 18 auipc ra,0x0 */
	0xe7, 0x80, 0x00, 0x01, /* 1c jalr 16(ra) # 28 */
	0xef, 0xf0, 0x1f, 0xfe, /* 20 jal 0 */
	0xef, 0xf2, 0xdf, 0xfd, /* 24 jal t0,0 */
	0xe3, 0x0c, 0xb5, 0xfc, /* 28 beq a0,a1,0 */
	0xe3, 0x1a, 0x05, 0xfc, /* 2c bnez a0,0 */
	0x83, 0x26, 0x85, 0x00, /* 30 lw a3,8(a0) */
	0x03, 0x47, 0x15, 0x00, /* 34 lbu a4,1(a0) */
	0x23, 0x80, 0xe5, 0x00, /* 38 sb a4,0(a1) */
	0xb3, 0x87, 0xe6, 0x02, /* 3c mul a5,a3,a4 */
	0xb3, 0xd7, 0xe6, 0x02, /* 40 divu a5,a3,a4 */
	0x93, 0x97, 0x37, 0x00, /* 44 slli a5,a5,0x3 */
	0x3b, 0xd8, 0xe7, 0x40, /* 48 sraw a6,a5,a4 */
	0xb3, 0x08, 0xa0, 0x40, /* 4c neg a7,a0 */
	0x07, 0x35, 0x05, 0x00, /* 50 fld fa0,0(a0) */
	0x27, 0x34, 0xa1, 0x00, /* 54 fsd fa0,8(sp) */
	0xc3, 0x75, 0xc5, 0x6a, /* 58 fmadd.d fa1,fa0,fa2,fa3 */
	0x53, 0x76, 0xb5, 0x1a, /* 5c fdiv.d fa2,fa0,fa1 */
	0x53, 0xf0, 0x20, 0x00, /* 60 fadd.s ft0,ft1,ft2 */
	0x53, 0x15, 0x05, 0xc2, /* 64 fcvt.w.d a0,fa0,rtz */
	0x53, 0x85, 0x05, 0xf2, /* 68 fmv.d.x fa0,a1 */
	0x53, 0x25, 0xb5, 0xa2, /* 6c feq.d a0,fa0,fa1 */
	0x2f, 0x25, 0xb6, 0x00, /* 70 amoadd.w a0,a1,(a2) */
	0x2f, 0xb5, 0x05, 0x10, /* 74 lr.d a0,(a1) */
	0xaf, 0xb6, 0xc5, 0x18, /* 78 sc.d a3,a2,(a1) */
	0x73, 0x25, 0x20, 0x34, /* 7c csrr a0,mcause */
	0x73, 0x10, 0x05, 0x34, /* 80 csrw mscratch,a0 */
	0x0f, 0x00, 0x30, 0x03, /* 84 fence rw,rw */
	0x73, 0x00, 0x00, 0x00, /* 88 ecall */
	0x67, 0x80, 0x07, 0x00, /* 8c jr a5 */
	0x17, 0x13, 0x00, 0x00, /* 90 auipc t1,0x1 */
	0x67, 0x00, 0x83, 0x00, /* 94 jr 8(t1) # 1098 */
	0x67, 0x80, 0x02, 0x00, /* 98 jr t0 */
	0x73, 0x00, 0x20, 0x30, /* 9c mret */
	0x73, 0x00, 0x10, 0x00, /* a0 ebreak */
	0x67, 0x80, 0x00, 0x00, /* a4 ret */
	0x73, 0x10, 0x00, 0xc0, /* a8 unimp */
};

static void test_rv_base(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ "addi    sp,sp,-32", INSN_FLOW_NEXT, IC_ALU, 0, 0, R(SP), R(SP), 0 },
		{ "sd      ra,24(sp)", INSN_FLOW_NEXT, IC_STORE, S, 0, R(SP, RA), NO, 8 },
		{ "li      a0,5", INSN_FLOW_NEXT, IC_MOVE, 0, 0, NO, R(A0), 0 },
		{ "mv      a1,a0", INSN_FLOW_NEXT, IC_MOVE, 0, 0, R(A0), R(A1), 0 },
		{ "nop", INSN_FLOW_NEXT, IC_NOP, 0, 0, NO, NO, 0 },
		{ "lui     a2,0x12", INSN_FLOW_NEXT, IC_MOVE, 0, 0, NO, R(A2), 0 },
		{ "auipc   ra,0x0", INSN_FLOW_NEXT, IC_ALU, 0, 0, NO, R(RA), 0 },
		{ "jalr    ra,16(ra)", INSN_FLOW_CALL, IC_BRANCH, 0, BASE + 0x28, R(RA), R(RA), 0 },
		{ "jal     0x80000000", INSN_FLOW_CALL, IC_BRANCH, 0, BASE, NO, R(RA), 0 },
		{ "jal     t0,0x80000000", INSN_FLOW_CALL, IC_BRANCH, 0, BASE, NO, R(T0), 0 },
		{ "beq     a0,a1,0x80000000", INSN_FLOW_COND, IC_BRANCH, 0, BASE, R(A0, A1), NO, 0 },
		{ "bnez    a0,0x80000000", INSN_FLOW_COND, IC_BRANCH, 0, BASE, R(A0), NO, 0 },
		{ "lw      a3,8(a0)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(A0), R(A3), 4 },
		{ "lbu     a4,1(a0)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(A0), R(A4), 1 },
		{ "sb      a4,0(a1)", INSN_FLOW_NEXT, IC_STORE, S, 0, R(A1, A4), NO, 1 },
		{ "mul     a5,a3,a4", INSN_FLOW_NEXT, IC_MUL, 0, 0, R(A3, A4), R(A5), 0 },
		{ "divu    a5,a3,a4", INSN_FLOW_NEXT, IC_DIV, 0, 0, R(A3, A4), R(A5), 0 },
		{ "slli    a5,a5,3", INSN_FLOW_NEXT, IC_SHIFT, 0, 0, R(A5), R(A5), 0 },
		{ "sraw    a6,a5,a4", INSN_FLOW_NEXT, IC_SHIFT, 0, 0, R(A5, A4), R(A6), 0 },
		{ "neg     a7,a0", INSN_FLOW_NEXT, IC_ALU, 0, 0, R(A0), R(A7), 0 },
		{ "fld     fa0,0(a0)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(A0), R(FA(0)), 8 },
		{ "fsd     fa0,8(sp)", INSN_FLOW_NEXT, IC_STORE, S, 0, R(SP, FA(0)), NO, 8 },
		{ "fmadd.d fa1,fa0,fa2,fa3", INSN_FLOW_NEXT, IC_FP_MUL, 0, 0, R(FA(0), FA(2), FA(3)),
		  R(FA(1)), 0 },
		{ "fdiv.d  fa2,fa0,fa1", INSN_FLOW_NEXT, IC_FP_DIV, 0, 0, R(FA(0), FA(1)), R(FA(2)), 0 },
		{ "fadd.s  ft0,ft1,ft2", INSN_FLOW_NEXT, IC_FP_ADD, 0, 0, R(F(1), F(2)), R(F(0)), 0 },
		{ "fcvt.w.d a0,fa0", INSN_FLOW_NEXT, IC_FP_ADD, 0, 0, R(FA(0)), R(A0), 0 },
		{ "fmv.d.x fa0,a1", INSN_FLOW_NEXT, IC_FP_ADD, 0, 0, R(A1), R(FA(0)), 0 },
		{ "feq.d   a0,fa0,fa1", INSN_FLOW_NEXT, IC_FP_ADD, 0, 0, R(FA(0), FA(1)), R(A0), 0 },
		{ "amoadd.w a0,a1,(a2)", INSN_FLOW_NEXT, IC_LOAD, L | S, 0, R(A1, A2), R(A0), 4 },
		{ "lr.d    a0,(a1)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(A1), R(A0), 8 },
		{ "sc.d    a3,a2,(a1)", INSN_FLOW_NEXT, IC_STORE, S, 0, R(A1, A2), R(A3), 8 },
		{ "csrr    a0,mcause", INSN_FLOW_NEXT, IC_SYSTEM, 0, 0, NO, R(A0), 0 },
		{ "csrw    mscratch,a0", INSN_FLOW_NEXT, IC_SYSTEM, 0, 0, R(A0), NO, 0 },
		{ "fence   rw,rw", INSN_FLOW_NEXT, IC_SYSTEM, 0, 0, NO, NO, 0 },
		{ "ecall", INSN_FLOW_NEXT, IC_SYSTEM, 0, 0, NO, NO, 0 },
		{ "jr      a5", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, R(A5), NO, 0 },
		{ "auipc   t1,0x1", INSN_FLOW_NEXT, IC_ALU, 0, 0, NO, R(T1), 0 },
		{ "jalr    zero,8(t1)", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(T1), NO, 0 },
		{ "jr      t0", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(T0), NO, 0 },
		{ "mret", INSN_FLOW_RETURN, IC_SYSTEM, 0, 0, NO, NO, 0 },
		{ "ebreak", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO, 0 },
		{ "ret", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(RA), NO, 0 },
		{ "csrw    cycle,zero", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO, 0 },
	};
	check(code32, sizeof(code32), BASE, w, N(w));
}

/* the C extension (riscv64-unknown-elf-as -march=rv64gc, c. mnemonics) */
static const uint8_t code16[] = {
	0x41, 0x11, /* 00 c.addi sp,-16 */
	0x06, 0xe4, /* 02 c.sdsp ra,8(sp) */
	0x02, 0x64, /* 04 c.ldsp s0,0(sp) */
	0x0d, 0x45, /* 06 c.li a0,3 */
	0xaa, 0x85, /* 08 c.mv a1,a0 */
	0x50, 0x41, /* 0a c.lw a2,4(a0) */
	0x88, 0x25, /* 0c c.fld fa0,8(a1) */
	0x2e, 0x95, /* 0e c.add a0,a1 */
	0x0a, 0x05, /* 10 c.slli a0,2 */
	0x7d, 0xd5, /* 12 c.beqz a0,0 */
	0xf5, 0xb7, /* 14 c.j 0 */
	0x82, 0x97, /* 16 c.jalr a5 */
	0x02, 0x87, /* 18 c.jr a4 */
	0x82, 0x80, /* 1a c.jr ra (ret) */
	0x01, 0x00, /* 1c c.nop */
	0x00, 0x00, /* 1e the all-zero illegal instruction */
	0x13,       /* 20 a tail shorter than an instruction */
};

static void test_rv_compressed(void **state)
{
	(void)state;
	static const struct want w[] = {
		{ "addi    sp,sp,-16", INSN_FLOW_NEXT, IC_ALU, 0, 0, R(SP), R(SP), 0 },
		{ "sd      ra,8(sp)", INSN_FLOW_NEXT, IC_STORE, S, 0, R(SP, RA), NO, 8 },
		{ "ld      s0,0(sp)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(SP), R(S0), 8 },
		{ "li      a0,3", INSN_FLOW_NEXT, IC_MOVE, 0, 0, NO, R(A0), 0 },
		{ "mv      a1,a0", INSN_FLOW_NEXT, IC_MOVE, 0, 0, R(A0), R(A1), 0 },
		{ "lw      a2,4(a0)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(A0), R(A2), 4 },
		{ "fld     fa0,8(a1)", INSN_FLOW_NEXT, IC_LOAD, L, 0, R(A1), R(FA(0)), 8 },
		{ "add     a0,a0,a1", INSN_FLOW_NEXT, IC_ALU, 0, 0, R(A0, A1), R(A0), 0 },
		{ "slli    a0,a0,2", INSN_FLOW_NEXT, IC_SHIFT, 0, 0, R(A0), R(A0), 0 },
		{ "beqz    a0,0x80000000", INSN_FLOW_COND, IC_BRANCH, 0, BASE, R(A0), NO, 0 },
		{ "j       0x80000000", INSN_FLOW_JUMP, IC_BRANCH, 0, BASE, NO, NO, 0 },
		{ "jalr    a5", INSN_FLOW_CALL, IC_BRANCH, 0, 0, R(A5), R(RA), 0 },
		{ "jr      a4", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, R(A4), NO, 0 },
		{ "ret", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(RA), NO, 0 },
		{ "nop", INSN_FLOW_NEXT, IC_NOP, 0, 0, NO, NO, 0 },
		{ ".insn   0x0000", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO, 0 },
		{ ".byte   0x13", INSN_FLOW_NEXT, IC_OTHER, 0, 0, NO, NO, 0 },
	};
	check(code16, sizeof(code16), BASE, w, N(w));
}

/* The M (cycles at the head) of each instruction of the one-block loop code[0..len) on
 * the U74 model, with their sum. */
static uint32_t u74_loop(const uint8_t *code, size_t len, uint32_t *M, size_t nM)
{
	const struct uarch *u = uarch_find("sifive-u74");
	char err[256] = "";
	struct insn_func f;
	struct sched_insn o[16];
	uint32_t sum = 0;

	assert_non_null(u);
	if (insn_decode(EM_RISCV, code, len, BASE, NULL, NULL, &f, err, sizeof(err)))
		fail_msg("insn_decode: %s", err);
	assert_int_equal(f.n, nM);
	assert_int_equal(sched_block(u, f.insns, f.n, 1, o), 0);
	for (size_t i = 0; i < f.n; i++) {
		M[i] = o[i].M;
		sum += o[i].M;
	}
	insn_func_free(&f);
	return sum;
}

/* mix() of tests/e2e/progs-x86_64/cpi_loop.c as riscv64-unknown-elf-gcc -O2 builds it:
 *   xor a3,a5,a4 | add a0,a0,a3 | slli a5,a5,3 | add a5,a5,a0 | addi a4,a4,1 | bne a2,a4
 * Two ALU ops a cycle, results after 1 (the late ALU's bypass), in order: cycle 0 xor;
 * 1 add a0 (on the xor) with slli; 2 add a5 (on add a0) with addi; 3 bne (on addi),
 * the next xor (on a5 and a4 of cycle 2) pairing with it: 4 cycles for 6 instructions. */
static void test_u74_alu_loop(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0xb3, 0xc6, 0xe7, 0x00, 0x36, 0x95, 0x8e, 0x07, 0xaa, 0x97, 0x05, 0x07,
		0xe3, 0x1a, 0xe6, 0xfe,
	};
	uint32_t M[6];
	const uint32_t want[6] = { 1, 1, 0, 1, 0, 1 };
	assert_int_equal(u74_loop(code, sizeof(code), M, 6), 4);
	for (int i = 0; i < 6; i++)
		if (M[i] != want[i])
			fail_msg("insn %d: M %u, want %u", i, M[i], want[i]);
}

/* ld a5,0(a0) | add a4,a4,a5 | addi a0,a0,8 | bne a0,a1 (no C extension): the add waits
 * the load's 3 cycles, so the loop takes more than its 2 issue cycles. */
static void test_u74_load_loop(void **state)
{
	(void)state;
	static const uint8_t code[] = {
		0x83, 0x37, 0x05, 0x00, 0x33, 0x07, 0xf7, 0x00, 0x13, 0x05, 0x85, 0x00,
		0xe3, 0x1a, 0xb5, 0xfe,
	};
	uint32_t M[4];
	uint32_t sum = u74_loop(code, sizeof(code), M, 4);
	if (M[1] < 3 || sum < 4)
		fail_msg("add after ld: M %u (want at least the load's 3), loop %u cycles", M[1], sum);
}

static void test_u74_chosen(void **state)
{
	(void)state;
	const struct uarch *u74 = uarch_find("sifive-u74");
	assert_non_null(u74);
	assert_int_equal(u74->arch, BMPROF_ARCH_RISCV64);
	/* SiFive's mvendorid, the 7 series' marchid (low 32 bits) */
	assert_ptr_equal(uarch_for_cpu(BMPROF_ARCH_RISCV64, "jedec-0x00000489", 0x489, 7), u74);
	assert_ptr_equal(uarch_listing_cpu(BMPROF_ARCH_RISCV64, "jedec-0x00000489", 0x489, 7), u74);
	/* any other RISC-V hart (QEMU: mvendorid 0) falls back to it */
	assert_ptr_equal(uarch_for_cpu(BMPROF_ARCH_RISCV64, "riscv", 0, 0), u74);
	assert_null(uarch_listing_cpu(BMPROF_ARCH_RISCV64, "riscv", 0, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rv_base),
		cmocka_unit_test(test_rv_compressed),
		cmocka_unit_test(test_u74_alu_loop),
		cmocka_unit_test(test_u74_load_loop),
		cmocka_unit_test(test_u74_chosen),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
