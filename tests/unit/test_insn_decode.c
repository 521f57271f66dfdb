/* SPDX-License-Identifier: BSD-2-Clause */
/* Instruction records for the CPI analysis (host/decode/insn_decode.c): control flow and targets,
 * classes, memory access and registers of hand-assembled x86-64 and AArch64 code (the
 * bytes as GNU as emits them, objdump's disassembly beside them), x86-64 and AArch64 jump
 * tables recovered from synthetic code and read-only data, tail calls, and procedures
 * loaded from the fixture ELF with the errors for bad input. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <elf.h>
#include <cmocka.h>

#include "symbol/disasm.h"
#include "decode/insn_decode.h"
#include "symbol/symbolize.h"
#include "wire.h"

#define N(a) (sizeof(a) / sizeof((a)[0]))
#define NONE 0xff

struct want {
	const char *text;
	uint8_t flow, cls, mem;
	uint64_t target;
	uint8_t rd[6], wr[6];   /* register numbers, NONE-terminated; rd[0] == 0xfe: skip */
};

#define SKIP 0xfe

static void decode(int machine, const uint8_t *code, size_t len, uint64_t addr,
		   struct insn_func *f)
{
	char err[256] = "";
	int rc = insn_decode(machine, code, len, addr, NULL, NULL, f, err, sizeof(err));
	if (rc)
		fail_msg("insn_decode: %s", err);
	assert_int_equal(f->start, addr);
	assert_int_equal(f->end, addr + len);
}

static void check_regs(const struct insn_regs *got, const uint8_t *want, const char *what,
		       const char *text)
{
	struct insn_regs w = { { 0, 0 } };
	if (want[0] == SKIP)
		return;
	for (size_t i = 0; i < 6 && want[i] != NONE; i++)
		insn_regs_add(&w, want[i]);
	if (got->w[0] != w.w[0] || got->w[1] != w.w[1])
		fail_msg("%s of '%s': got %#llx:%#llx, want %#llx:%#llx", what, text,
			 (unsigned long long)got->w[1], (unsigned long long)got->w[0],
			 (unsigned long long)w.w[1], (unsigned long long)w.w[0]);
}

static void check(const struct insn_func *f, const struct want *w, size_t nw)
{
	assert_int_equal(f->n, nw);
	uint64_t at = f->start;
	for (size_t i = 0; i < nw; i++) {
		const struct insn *in = &f->insns[i];
		assert_int_equal(in->addr, at);
		at += in->size;
		assert_string_equal(in->text, w[i].text);
		if (in->flow != w[i].flow || in->cls != w[i].cls || in->mem != w[i].mem ||
		    in->target != w[i].target)
			fail_msg("'%s': flow %u cls %u mem %u target %#llx, want %u %u %u %#llx",
				 in->text, in->flow, in->cls, in->mem, (unsigned long long)in->target,
				 w[i].flow, w[i].cls, w[i].mem, (unsigned long long)w[i].target);
		check_regs(&in->rd, w[i].rd, "read", in->text);
		check_regs(&in->wr, w[i].wr, "written", in->text);
	}
	assert_int_equal(at, f->end);
}

#define R(...) { __VA_ARGS__, NONE }
#define NO { NONE }
#define ANY { SKIP }
enum { RAX, RCX, RDX, RBX, RSP, RBP, RSI, RDI, R8, R9 };
#define FL INSN_REG_FLAGS_X86
#define XMM(n) (INSN_REG_VEC0 + (n))
#define NZCV INSN_REG_NZCV
#define V(n) (INSN_REG_VEC0 + (n))

static void test_x86_flow(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0xeb, 0x10,                    /* 1000: jmp    0x1012 */
		0x74, 0xfc,                    /* 1002: je     0x1000 */
		0xe3, 0xfa,                    /* 1004: jrcxz  0x1000 */
		0xe2, 0xf8,                    /* 1006: loop   0x1000 */
		0xe8, 0xf3, 0xff, 0xff, 0xff,  /* 1008: call   0x1000 */
		0xc3,                          /* 100d: ret */
		0x48, 0xcf,                    /* 100e: iretq */
		0xf4,                          /* 1010: hlt */
		0x0f, 0x0b,                    /* 1011: ud2 */
		0xcc,                          /* 1013: int3 */
		0xff, 0xe0,                    /* 1014: jmp    *%rax */
		0xff, 0x24, 0xd8,              /* 1016: jmp    *(%rax,%rbx,8) */
		0x3e, 0xff, 0xe0,              /* 1019: notrack jmp *%rax */
		0xff, 0xd0,                    /* 101c: call   *%rax */
		0xff, 0x50, 0x08,              /* 101e: call   *0x8(%rax) */
		0xcd, 0x80,                    /* 1021: int    $0x80 */
	};
	const struct want w[] = {
		{ "jmp     0x1012", INSN_FLOW_JUMP, IC_BRANCH, 0, 0x1012, NO, NO },
		{ "je      0x1000", INSN_FLOW_COND, IC_BRANCH, 0, 0x1000, R(FL), NO },
		{ "jrcxz   0x1000", INSN_FLOW_COND, IC_BRANCH, 0, 0x1000, R(RCX), NO },
		{ "loop    0x1000", INSN_FLOW_COND, IC_BRANCH, 0, 0x1000, R(RCX), R(RCX) },
		{ "callq   0x1000", INSN_FLOW_CALL, IC_BRANCH, INSN_MEM_STORE, 0x1000, R(RSP),
		  R(RSP) },
		{ "retq", INSN_FLOW_RETURN, IC_BRANCH, INSN_MEM_LOAD, 0, R(RSP), R(RSP) },
		{ "iretq", INSN_FLOW_RETURN, IC_BRANCH, INSN_MEM_LOAD, 0, ANY, ANY },
		{ "hlt", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO },
		{ "ud2", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO },
		{ "int3", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, ANY, ANY },
		{ "jmpq    *%rax", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, R(RAX), NO },
		{ "jmpq    *(%rax, %rbx, 8)", INSN_FLOW_INDIRECT, IC_BRANCH, INSN_MEM_LOAD, 0,
		  R(RAX, RBX), NO },
		{ "jmpq    *%rax", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, R(RAX), NO },
		{ "callq   *%rax", INSN_FLOW_CALL, IC_BRANCH, INSN_MEM_STORE, 0, R(RAX, RSP),
		  R(RSP) },
		{ "callq   *8(%rax)", INSN_FLOW_CALL, IC_BRANCH, INSN_MEM_LOAD | INSN_MEM_STORE, 0,
		  R(RAX, RSP), R(RSP) },
		{ "int     $0x80", INSN_FLOW_NEXT, IC_SYSTEM, 0, 0, ANY, ANY },
	};
	struct insn_func f;
	decode(EM_X86_64, code, sizeof(code), 0x1000, &f);
	assert_int_equal(f.arch, BMPROF_ARCH_X86_64);
	check(&f, w, N(w));
	for (size_t i = 0; i < f.n; i++) {
		assert_int_equal(f.insns[i].ntargets, 0);
		assert_int_equal(f.insns[i].rep, 0);
	}
	insn_func_free(&f);
}

static void test_x86_classes(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0x48, 0x01, 0xd8,              /* add    %rbx,%rax */
		0x48, 0x0f, 0xaf, 0xc3,        /* imul   %rbx,%rax */
		0x48, 0xf7, 0xf9,              /* idiv   %rcx */
		0x48, 0x8b, 0x07,              /* mov    (%rdi),%rax */
		0x48, 0x89, 0x07,              /* mov    %rax,(%rdi) */
		0x53,                          /* push   %rbx */
		0x5b,                          /* pop    %rbx */
		0x48, 0x8d, 0x4c, 0x98, 0x08,  /* lea    0x8(%rax,%rbx,4),%rcx */
		0x48, 0xc1, 0xe0, 0x03,        /* shl    $0x3,%rax */
		0xf2, 0x0f, 0x58, 0xc1,        /* addsd  %xmm1,%xmm0 */
		0xf2, 0x0f, 0x59, 0xc1,        /* mulsd  %xmm1,%xmm0 */
		0xf2, 0x0f, 0x5e, 0xc1,        /* divsd  %xmm1,%xmm0 */
		0xf3, 0xa4,                    /* rep movsb %ds:(%rsi),%es:(%rdi) */
		0x90,                          /* nop */
		0x0f, 0xa2,                    /* cpuid */
		0x48, 0x03, 0x03,              /* add    (%rbx),%rax */
		0x48, 0x01, 0x03,              /* add    %rax,(%rbx) */
		0x31, 0xc0,                    /* xor    %eax,%eax */
		0x45, 0x89, 0xc1,              /* mov    %r8d,%r9d */
		0x0f, 0x28, 0xd1,              /* movaps %xmm1,%xmm2 */
		0xf2, 0x0f, 0x10, 0x07,        /* movsd  (%rdi),%xmm0 */
		0xa5,                          /* movsl  %ds:(%rsi),%es:(%rdi) */
		0xc5, 0xec, 0x58, 0xd9,        /* vaddps %ymm1,%ymm2,%ymm3 */
		0xc4, 0xe2, 0xe9, 0xb9, 0xd9,  /* vfmadd231sd %xmm1,%xmm2,%xmm3 */
		0xf2, 0x0f, 0x51, 0xc1,        /* sqrtsd %xmm1,%xmm0 */
		0x66, 0x0f, 0xfe, 0xc1,        /* paddd  %xmm1,%xmm0 */
		0x48, 0x0f, 0x45, 0xd8,        /* cmovne %rax,%rbx */
		0x0f, 0xb6, 0x08,              /* movzbl (%rax),%ecx */
		0x66, 0x0f, 0x1f, 0x44, 0x00, 0x00, /* nopw 0x0(%rax,%rax,1) */
		0x0f, 0xae, 0xf0,              /* mfence */
		0xf0, 0x0f, 0xc1, 0x07,        /* lock xadd %eax,(%rdi) */
		0xf3, 0x48, 0xab,              /* rep stos %rax,%es:(%rdi) */
		0xf6, 0x40, 0x01, 0x10,        /* testb  $0x10,0x1(%rax) */
	};
	const uint8_t L = INSN_MEM_LOAD, S = INSN_MEM_STORE, N0 = INSN_FLOW_NEXT;
	const struct want w[] = {
		{ "addq    %rbx, %rax", N0, IC_ALU, 0, 0, R(RAX, RBX), R(RAX, FL) },
		{ "imulq   %rbx, %rax", N0, IC_MUL, 0, 0, R(RAX, RBX), R(RAX, FL) },
		{ "idivq   %rcx", N0, IC_DIV, 0, 0, R(RAX, RCX, RDX), R(RAX, RDX, FL) },
		{ "movq    (%rdi), %rax", N0, IC_LOAD, L, 0, R(RDI), R(RAX) },
		{ "movq    %rax, (%rdi)", N0, IC_STORE, S, 0, R(RAX, RDI), NO },
		{ "pushq   %rbx", N0, IC_STORE, S, 0, R(RBX, RSP), R(RSP) },
		{ "popq    %rbx", N0, IC_LOAD, L, 0, R(RSP), R(RBX, RSP) },
		{ "leaq    8(%rax, %rbx, 4), %rcx", N0, IC_ALU, 0, 0, R(RAX, RBX), R(RCX) },
		{ "shlq    $3, %rax", N0, IC_SHIFT, 0, 0, R(RAX), R(RAX, FL) },
		{ "addsd   %xmm1, %xmm0", N0, IC_FP_ADD, 0, 0, R(XMM(0), XMM(1)), R(XMM(0)) },
		{ "mulsd   %xmm1, %xmm0", N0, IC_FP_MUL, 0, 0, R(XMM(0), XMM(1)), R(XMM(0)) },
		{ "divsd   %xmm1, %xmm0", N0, IC_FP_DIV, 0, 0, R(XMM(0), XMM(1)), R(XMM(0)) },
		{ "rep movsb (%rsi), (%rdi)", N0, IC_STRING, L | S, 0, R(RCX, RSI, RDI, FL),
		  R(RCX, RSI, RDI) },
		{ "nop", N0, IC_NOP, 0, 0, NO, NO },
		{ "cpuid", N0, IC_SYSTEM, 0, 0, R(RAX, RCX), R(RAX, RCX, RDX, RBX) },
		{ "addq    (%rbx), %rax", N0, IC_ALU, L, 0, R(RAX, RBX), R(RAX, FL) },
		{ "addq    %rax, (%rbx)", N0, IC_ALU, L | S, 0, R(RAX, RBX), R(FL) },
		/* zero idiom: no input */
		{ "xorl    %eax, %eax", N0, IC_MOVE, 0, 0, NO, R(RAX, FL) },
		{ "movl    %r8d, %r9d", N0, IC_MOVE, 0, 0, R(R8), R(R9) },
		{ "movaps  %xmm1, %xmm2", N0, IC_VEC, 0, 0, R(XMM(1)), R(XMM(2)) },
		{ "movsd   (%rdi), %xmm0", N0, IC_LOAD, L, 0, R(RDI), R(XMM(0)) },
		{ "movsl   (%rsi), (%rdi)", N0, IC_STRING, L | S, 0, ANY, ANY },
		{ "vaddps  %ymm1, %ymm2, %ymm3", N0, IC_FP_ADD, 0, 0, R(XMM(1), XMM(2)), R(XMM(3)) },
		{ "vfmadd231sd %xmm1, %xmm2, %xmm3", N0, IC_FP_MUL, 0, 0,
		  R(XMM(1), XMM(2), XMM(3)), R(XMM(3)) },
		{ "sqrtsd  %xmm1, %xmm0", N0, IC_FP_DIV, 0, 0, R(XMM(1)), R(XMM(0)) },
		{ "paddd   %xmm1, %xmm0", N0, IC_VEC, 0, 0, R(XMM(0), XMM(1)), R(XMM(0)) },
		{ "cmovneq %rax, %rbx", N0, IC_ALU, 0, 0, R(RAX, RBX, FL), R(RBX) },
		{ "movzbl  (%rax), %ecx", N0, IC_LOAD, L, 0, R(RAX), R(RCX) },
		{ "nopw    (%rax, %rax)", N0, IC_NOP, 0, 0, NO, NO },
		{ "mfence", N0, IC_SYSTEM, 0, 0, NO, NO },
		{ "lock xaddl %eax, (%rdi)", N0, IC_ALU, L | S, 0, R(RAX, RDI), R(RAX, FL) },
		{ "rep stosq %rax, (%rdi)", N0, IC_STRING, S, 0, R(RAX, RCX, RDI, FL), R(RCX, RDI) },
		{ "testb   $0x10, 1(%rax)", N0, IC_ALU, L, 0, R(RAX), R(FL) },
	};
	struct insn_func f;
	decode(EM_X86_64, code, sizeof(code), 0x401000, &f);
	check(&f, w, N(w));
	for (size_t i = 0; i < f.n; i++)
		assert_int_equal(f.insns[i].rep, i == 12 || i == f.n - 2);
	insn_func_free(&f);
}

/* The text is what bmprof annotate prints for the same bytes. */
static void test_text_matches_disasm(void **state)
{
	(void)state;
	const uint8_t code[] = { 0x55, 0x48, 0x89, 0xe5, 0x0f, 0x1f, 0x44, 0x00, 0x00, 0xe8,
				 0x00, 0x00, 0x00, 0x00, 0x48, 0x8b, 0x05, 0x10, 0x00, 0x00,
				 0x00, 0xc3, 0x06 };
	char err[256], text[256];
	struct disasm *d = disasm_open(EM_X86_64, err, sizeof(err));
	struct disasm_insn *in;
	long n = disasm_range(d, code, sizeof(code), 0x1000, &in);
	struct insn_func f;
	decode(EM_X86_64, code, sizeof(code), 0x1000, &f);
	assert_int_equal(f.n, (size_t)n);
	for (long i = 0; i < n; i++) {
		if (in[i].operands[0])
			snprintf(text, sizeof(text), "%-7s %s", in[i].mnemonic, in[i].operands);
		else
			snprintf(text, sizeof(text), "%s", in[i].mnemonic);
		assert_string_equal(f.insns[i].text, text);
		assert_int_equal(f.insns[i].size, in[i].size);
	}
	/* the undecodable last byte: passed over, not a stop */
	assert_string_equal(f.insns[n - 1].text, ".byte   0x06");
	assert_int_equal(f.insns[n - 1].flow, INSN_FLOW_NEXT);
	assert_int_equal(f.insns[n - 1].cls, IC_OTHER);
	free(in);
	disasm_close(d);
	insn_func_free(&f);
}

static void words(uint8_t *out, const uint32_t *w, size_t n)
{
	for (size_t i = 0; i < n; i++)
		for (unsigned b = 0; b < 4; b++)
			out[4 * i + b] = (uint8_t)(w[i] >> (8 * b));
}

static void test_a64_flow(void **state)
{
	(void)state;
	const uint32_t w32[] = {
		0x14000001, /* 40000000: b      40000004 */
		0x54000001, /* 40000004: b.ne   40000004 */
		0xb4ffffe0, /* 40000008: cbz    x0, 40000004 */
		0x35ffffc1, /* 4000000c: cbnz   w1, 40000004 */
		0x361fffa2, /* 40000010: tbz    w2, #3, 40000004 */
		0x37ffff83, /* 40000014: tbnz   w3, #31, 40000004 */
		0x97fffffb, /* 40000018: bl     40000004 */
		0xd63f0080, /* 4000001c: blr    x4 */
		0xd61f00a0, /* 40000020: br     x5 */
		0xd65f03c0, /* 40000024: ret */
		0xd4200000, /* 40000028: brk    #0x0 */
		0x00000000, /* 4000002c: udf    #0 */
		0xd4400000, /* 40000030: hlt    #0x0 */
		0xd65f0020, /* 40000034: ret    x1 */
		0xd61f0200, /* 40000038: br     x16 */
	};
	const uint64_t T = 0x40000004;
	const struct want w[] = {
		{ "b       #0x40000004", INSN_FLOW_JUMP, IC_BRANCH, 0, T, NO, NO },
		{ "b.ne    #0x40000004", INSN_FLOW_COND, IC_BRANCH, 0, T, R(NZCV), NO },
		{ "cbz     x0, #0x40000004", INSN_FLOW_COND, IC_BRANCH, 0, T, R(0), NO },
		{ "cbnz    w1, #0x40000004", INSN_FLOW_COND, IC_BRANCH, 0, T, R(1), NO },
		{ "tbz     w2, #3, #0x40000004", INSN_FLOW_COND, IC_BRANCH, 0, T, R(2), NO },
		{ "tbnz    w3, #0x1f, #0x40000004", INSN_FLOW_COND, IC_BRANCH, 0, T, R(3), NO },
		{ "bl      #0x40000004", INSN_FLOW_CALL, IC_BRANCH, 0, T, NO, R(30) },
		{ "blr     x4", INSN_FLOW_CALL, IC_BRANCH, 0, 0, R(4), R(30) },
		{ "br      x5", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, R(5), NO },
		{ "ret", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(30), NO },
		{ "brk     #0", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO },
		{ ".byte   0x00, 0x00, 0x00, 0x00", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO },
		{ "hlt     #0", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, NO, NO },
		{ "ret     x1", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(1), NO },
		/* an indirect tail call */
		{ "br      x16", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, R(16), NO },
	};
	uint8_t code[sizeof(w32)];
	words(code, w32, N(w32));
	struct insn_func f;
	decode(EM_AARCH64, code, sizeof(code), 0x40000000, &f);
	assert_int_equal(f.arch, BMPROF_ARCH_AARCH64);
	check(&f, w, N(w));
	insn_func_free(&f);
}

/* Cortex-M Thumb (16- and 32-bit encodings mixed): control flow, classes, memory, some
 * registers (r0-r15 as 0-15, s registers from INSN_REG_VEC0). */
static void test_thumb(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0xfe, 0xe7, 0xfd, 0xd1, 0x38, 0xb1, 0xff, 0xf7, 0xfb, 0xff, 0x98, 0x47,
		0x10, 0x47, 0x70, 0x47, 0x10, 0xbd, 0xdf, 0xe8, 0x01, 0xf0, 0x04, 0xfb,
		0x03, 0x11, 0x48, 0x68, 0x02, 0x90, 0xb1, 0xfb, 0xf2, 0xf0, 0x20, 0xee,
		0x81, 0x0a, 0x07, 0xde, 0xf7, 0x46, 0x00, 0xbf,
	};
	const uint64_t X = 0x1000, Y = 0x1016;
	const struct want w[] = {
		{ "b       #0x1000", INSN_FLOW_JUMP, IC_BRANCH, 0, X, ANY, ANY },
		{ "bne     #0x1000", INSN_FLOW_COND, IC_BRANCH, 0, X, ANY, ANY },
		{ "cbz     r0, #0x1016", INSN_FLOW_COND, IC_BRANCH, 0, Y, R(0), ANY },
		{ "bl      #0x1000", INSN_FLOW_CALL, IC_BRANCH, 0, X, ANY, ANY },
		{ "blx     r3", INSN_FLOW_CALL, IC_BRANCH, 0, 0, ANY, ANY },
		{ "bx      r2", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, ANY, ANY },
		{ "bx      lr", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, ANY, ANY },
		{ "pop     {r4, pc}", INSN_FLOW_RETURN, IC_LOAD, INSN_MEM_LOAD, 0, ANY, ANY },
		{ "tbb     [pc, r1]", INSN_FLOW_INDIRECT, IC_BRANCH, 0, 0, ANY, ANY },
		{ "mla     r1, r4, r3, r1", INSN_FLOW_NEXT, IC_MUL, 0, 0, R(1, 3, 4), R(1) },
		{ "ldr     r0, [r1, #4]", INSN_FLOW_NEXT, IC_LOAD, INSN_MEM_LOAD, 0, R(1), R(0) },
		{ "str     r0, [sp, #8]", INSN_FLOW_NEXT, IC_STORE, INSN_MEM_STORE, 0, R(0, 13), NO },
		{ "udiv    r0, r1, r2", INSN_FLOW_NEXT, IC_DIV, 0, 0, R(1, 2), R(0) },
		{ "vmul.f32 s0, s1, s2", INSN_FLOW_NEXT, IC_FP_MUL, 0, 0, R(V(1), V(2)), R(V(0)) },
		{ "udf     #7", INSN_FLOW_STOP, IC_SYSTEM, 0, 0, ANY, ANY },
		{ "mov     pc, lr", INSN_FLOW_RETURN, IC_BRANCH, 0, 0, ANY, ANY },
		{ "nop", INSN_FLOW_NEXT, IC_NOP, 0, 0, NO, NO },
	};
	struct insn_func f;
	decode(EM_ARM, code, sizeof(code), 0x1000, &f);
	assert_int_equal(f.arch, BMPROF_ARCH_CORTEX_M);
	check(&f, w, N(w));
	insn_func_free(&f);
}

static void test_a64_classes(void **state)
{
	(void)state;
	const uint32_t w32[] = {
		0x8b020020, /* add    x0, x1, x2 */
		0x9b027c20, /* mul    x0, x1, x2 */
		0x9ac20c20, /* sdiv   x0, x1, x2 */
		0xf9400420, /* ldr    x0, [x1, #8] */
		0xf9000420, /* str    x0, [x1, #8] */
		0xa8c17bfd, /* ldp    x29, x30, [sp], #16 */
		0xa9bf7bfd, /* stp    x29, x30, [sp, #-16]! */
		0x1e620820, /* fmul   d0, d1, d2 */
		0x1e621820, /* fdiv   d0, d1, d2 */
		0x1e222820, /* fadd   s0, s1, s2 */
		0xf1000420, /* subs   x0, x1, #0x1 */
		0xeb01001f, /* cmp    x0, x1 */
		0xaa1f03e0, /* mov    x0, xzr */
		0xd28000a0, /* mov    x0, #0x5 */
		0xd37df020, /* lsl    x0, x1, #3 */
		0x9b020c20, /* madd   x0, x1, x2, x3 */
		0x38626820, /* ldrb   w0, [x1, x2] */
		0x4ea28420, /* add    v0.4s, v1.4s, v2.4s */
		0x3dc00000, /* ldr    q0, [x0] */
		0x9a820020, /* csel   x0, x1, x2, eq */
		0xd5033bbf, /* dmb    ish */
		0xd503201f, /* nop */
		0xb900001f, /* str    wzr, [x0] */
		0x1f420c20, /* fmadd  d0, d1, d2, d3 */
		0xf8408420, /* ldr    x0, [x1], #8 */
		0xf2a00020, /* movk   x0, #0x1, lsl #16 */
		0xd3421420, /* ubfx   x0, x1, #2, #4 */
	};
	const uint8_t L = INSN_MEM_LOAD, S = INSN_MEM_STORE, N0 = INSN_FLOW_NEXT;
	const struct want w[] = {
		{ "add     x0, x1, x2", N0, IC_ALU, 0, 0, R(1, 2), R(0) },
		{ "mul     x0, x1, x2", N0, IC_MUL, 0, 0, R(1, 2), R(0) },
		{ "sdiv    x0, x1, x2", N0, IC_DIV, 0, 0, R(1, 2), R(0) },
		{ "ldr     x0, [x1, #8]", N0, IC_LOAD, L, 0, R(1), R(0) },
		{ "str     x0, [x1, #8]", N0, IC_STORE, S, 0, R(0, 1), NO },
		{ "ldp     x29, x30, [sp], #0x10", N0, IC_LOAD, L, 0, R(31), R(29, 30, 31) },
		{ "stp     x29, x30, [sp, #-0x10]!", N0, IC_STORE, S, 0, R(29, 30, 31), R(31) },
		{ "fmul    d0, d1, d2", N0, IC_FP_MUL, 0, 0, R(V(1), V(2)), R(V(0)) },
		{ "fdiv    d0, d1, d2", N0, IC_FP_DIV, 0, 0, R(V(1), V(2)), R(V(0)) },
		{ "fadd    s0, s1, s2", N0, IC_FP_ADD, 0, 0, R(V(1), V(2)), R(V(0)) },
		{ "subs    x0, x1, #1", N0, IC_ALU, 0, 0, R(1), R(0, NZCV) },
		{ "cmp     x0, x1", N0, IC_ALU, 0, 0, R(0, 1), R(NZCV) },
		{ "mov     x0, xzr", N0, IC_MOVE, 0, 0, NO, R(0) },
		{ "movz    x0, #0x5", N0, IC_MOVE, 0, 0, NO, R(0) },
		{ "lsl     x0, x1, #3", N0, IC_SHIFT, 0, 0, R(1), R(0) },
		{ "madd    x0, x1, x2, x3", N0, IC_MUL, 0, 0, R(1, 2, 3), R(0) },
		{ "ldrb    w0, [x1, x2]", N0, IC_LOAD, L, 0, R(1, 2), R(0) },
		{ "add     v0.4s, v1.4s, v2.4s", N0, IC_VEC, 0, 0, R(V(1), V(2)), R(V(0)) },
		{ "ldr     q0, [x0]", N0, IC_LOAD, L, 0, R(0), R(V(0)) },
		{ "csel    x0, x1, x2, eq", N0, IC_ALU, 0, 0, R(1, 2, NZCV), R(0) },
		{ "dmb     ish", N0, IC_SYSTEM, 0, 0, NO, NO },
		{ "nop", N0, IC_NOP, 0, 0, NO, NO },
		{ "str     wzr, [x0]", N0, IC_STORE, S, 0, R(0), NO },
		{ "fmadd   d0, d1, d2, d3", N0, IC_FP_MUL, 0, 0, R(V(1), V(2), V(3)), R(V(0)) },
		{ "ldr     x0, [x1], #8", N0, IC_LOAD, L, 0, R(1), R(0, 1) },
		{ "movk    x0, #0x1, lsl #16", N0, IC_MOVE, 0, 0, R(0), R(0) },
		{ "ubfx    x0, x1, #2, #4", N0, IC_SHIFT, 0, 0, R(1), R(0) },
	};
	uint8_t code[sizeof(w32)];
	words(code, w32, N(w32));
	struct insn_func f;
	decode(EM_AARCH64, code, sizeof(code), 0x80000, &f);
	check(&f, w, N(w));
	insn_func_free(&f);
}

/* ---- jump tables ---- */

struct image {
	uint64_t addr;
	const uint8_t *data;
	size_t len;
	unsigned reads;
};

static int read_image(void *ctx, uint64_t addr, void *buf, size_t len)
{
	struct image *im = ctx;
	im->reads++;
	if (addr < im->addr || addr - im->addr > im->len || len > im->len - (addr - im->addr))
		return -1;
	memcpy(buf, im->data + (addr - im->addr), len);
	return 0;
}

static void le32(uint8_t *p, int32_t v)
{
	for (unsigned b = 0; b < 4; b++)
		p[b] = (uint8_t)((uint32_t)v >> (8 * b));
}

static void le64(uint8_t *p, uint64_t v)
{
	for (unsigned b = 0; b < 8; b++)
		p[b] = (uint8_t)(v >> (8 * b));
}

/* gcc's PIE switch at 0x1000, its table of offsets at 0x2000. */
static const uint8_t pie_code[] = {
	0x83, 0xff, 0x03,                          /* 1000: cmp    $0x3,%edi */
	0x77, 0x25,                                /* 1003: ja     102a <dflt> */
	0x48, 0x8d, 0x15, 0xf4, 0x0f, 0x00, 0x00,  /* 1005: lea    0xff4(%rip),%rdx # 2000 */
	0x89, 0xff,                                /* 100c: mov    %edi,%edi */
	0x48, 0x63, 0x04, 0xba,                    /* 100e: movslq (%rdx,%rdi,4),%rax */
	0x48, 0x01, 0xd0,                          /* 1012: add    %rdx,%rax */
	0x3e, 0xff, 0xe0,                          /* 1015: notrack jmp *%rax */
	0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3,        /* 1018: c0: mov $0x1,%eax; ret */
	0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3,        /* 101e: c1: mov $0x2,%eax; ret */
	0xb8, 0x03, 0x00, 0x00, 0x00, 0xc3,        /* 1024: c2: mov $0x3,%eax; ret */
	0x31, 0xc0, 0xc3,                          /* 102a: dflt: xor %eax,%eax; ret */
};

static const struct insn *jump_at(const struct insn_func *f, uint64_t addr)
{
	for (size_t i = 0; i < f->n; i++)
		if (f->insns[i].addr == addr)
			return &f->insns[i];
	fail_msg("no instruction at %#llx", (unsigned long long)addr);
	return NULL;
}

static void decode_table(const uint8_t *code, size_t len, struct image *im,
			 struct insn_func *f)
{
	char err[256] = "";
	if (insn_decode(EM_X86_64, code, len, 0x1000, read_image, im, f, err, sizeof(err)))
		fail_msg("insn_decode: %s", err);
}

static void test_jump_table_pie(void **state)
{
	(void)state;
	uint8_t table[16];
	const uint64_t targets[] = { 0x1018, 0x101e, 0x1024, 0x102a };
	for (size_t i = 0; i < 4; i++)
		le32(table + 4 * i, (int32_t)(targets[i] - 0x2000));
	struct image im = { 0x2000, table, sizeof(table), 0 };
	struct insn_func f;
	decode_table(pie_code, sizeof(pie_code), &im, &f);
	const struct insn *j = jump_at(&f, 0x1015);
	assert_int_equal(j->flow, INSN_FLOW_INDIRECT);
	assert_int_equal(j->ntargets, 4);
	for (size_t i = 0; i < 4; i++)
		assert_int_equal(j->targets[i], targets[i]);
	assert_true(j->targets >= f.target_pool && j->targets + 4 <= f.target_pool + f.ntarget_pool);
	insn_func_free(&f);

	/* repeated entries (cases going to the default) appear once */
	le32(table + 4, (int32_t)(0x102a - 0x2000));
	im.reads = 0;
	decode_table(pie_code, sizeof(pie_code), &im, &f);
	j = jump_at(&f, 0x1015);
	assert_int_equal(j->ntargets, 3);
	assert_int_equal(j->targets[0], 0x1018);
	assert_int_equal(j->targets[1], 0x102a);
	assert_int_equal(j->targets[2], 0x1024);
	insn_func_free(&f);

	/* an entry outside the procedure, or inside an instruction: not recovered */
	const int32_t bad[] = { 0x1100 - 0x2000, 0x1019 - 0x2000 };
	for (size_t b = 0; b < N(bad); b++) {
		le32(table + 8, bad[b]);
		decode_table(pie_code, sizeof(pie_code), &im, &f);
		j = jump_at(&f, 0x1015);
		assert_int_equal(j->ntargets, 0);
		assert_null(j->targets);
		insn_func_free(&f);
	}

	/* the table out of the image */
	le32(table + 8, (int32_t)(0x1024 - 0x2000));
	im.len = 12;
	decode_table(pie_code, sizeof(pie_code), &im, &f);
	assert_int_equal(jump_at(&f, 0x1015)->ntargets, 0);
	insn_func_free(&f);

	/* no way to read the image */
	char err[256];
	assert_int_equal(insn_decode(EM_X86_64, pie_code, sizeof(pie_code), 0x1000, NULL, NULL,
				     &f, err, sizeof(err)), 0);
	assert_int_equal(jump_at(&f, 0x1015)->ntargets, 0);
	insn_func_free(&f);
}

/* Without the bound check on the index register the table's size is unknown. */
static void test_jump_table_unbounded(void **state)
{
	(void)state;
	uint8_t code[sizeof(pie_code)];
	memcpy(code, pie_code, sizeof(code));
	code[2] = 0x03;
	code[1] = 0xfe;  /* cmp $0x3,%esi: another register */
	uint8_t table[16];
	for (size_t i = 0; i < 4; i++)
		le32(table + 4 * i, (int32_t)(0x102a - 0x2000));
	struct image im = { 0x2000, table, sizeof(table), 0 };
	struct insn_func f;
	decode_table(code, sizeof(code), &im, &f);
	assert_string_equal(f.insns[0].text, "cmpl    $3, %esi");
	assert_int_equal(jump_at(&f, 0x1015)->ntargets, 0);
	assert_int_equal(im.reads, 0);
	insn_func_free(&f);

	/* the cmp followed by a jump that is not an unsigned bound (jne) */
	memcpy(code, pie_code, sizeof(code));
	code[3] = 0x75;
	decode_table(code, sizeof(code), &im, &f);
	assert_int_equal(jump_at(&f, 0x1015)->ntargets, 0);
	insn_func_free(&f);
}

/* Non-PIE: absolute 8-byte entries, "jae" bounds to N entries. */
static void test_jump_table_absolute(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0x83, 0xf8, 0x02,                          /* 1000: cmp    $0x2,%eax */
		0x73, 0x13,                                /* 1003: jae    1018 <dflt> */
		0xff, 0x24, 0xc5, 0x00, 0x30, 0x00, 0x00,  /* 1005: jmp    *0x3000(,%rax,8) */
		0xb8, 0x01, 0x00, 0x00, 0x00, 0xc3,        /* 100c: c0: mov $0x1,%eax; ret */
		0xb8, 0x02, 0x00, 0x00, 0x00, 0xc3,        /* 1012: c1: mov $0x2,%eax; ret */
		0x31, 0xc0, 0xc3,                          /* 1018: dflt: xor %eax,%eax; ret */
	};
	uint8_t table[24];
	le64(table, 0x100c);
	le64(table + 8, 0x1012);
	le64(table + 16, 0x4000);  /* past the bound: never read */
	struct image im = { 0x3000, table, sizeof(table), 0 };
	struct insn_func f;
	decode_table(code, sizeof(code), &im, &f);
	const struct insn *j = jump_at(&f, 0x1005);
	assert_string_equal(j->text, "jmpq    *0x3000(, %rax, 8)");
	assert_int_equal(j->ntargets, 2);
	assert_int_equal(j->targets[0], 0x100c);
	assert_int_equal(j->targets[1], 0x1012);
	assert_int_equal(f.ntarget_pool, 2);
	insn_func_free(&f);
}

/* The table register set once before the loop around the switch, with an epilogue's pop
 * of it in between: the lea counts, the pop's value leaves the procedure. */
static void test_jump_table_hoisted_base(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0x4c, 0x8d, 0x35, 0xf9, 0x0f, 0x00, 0x00,  /* 1000: lea    0xff9(%rip),%r14 # 2000 */
		0x85, 0xff,                                /* 1007: test   %edi,%edi */
		0x75, 0x03,                                /* 1009: jne    100e */
		0x41, 0x5e,                                /* 100b: pop    %r14 */
		0xc3,                                      /* 100d: ret */
		0x83, 0xf8, 0x01,                          /* 100e: cmp    $0x1,%eax */
		0x77, 0x0d,                                /* 1011: ja     1020 <dflt> */
		0x49, 0x63, 0x04, 0x86,                    /* 1013: movslq (%r14,%rax,4),%rax */
		0x4c, 0x01, 0xf0,                          /* 1017: add    %r14,%rax */
		0xff, 0xe0,                                /* 101a: jmp    *%rax */
		0xff, 0xc7,                                /* 101c: c0: inc %edi */
		0xeb, 0xee,                                /* 101e: jmp    100e */
		0x31, 0xc0, 0xc3,                          /* 1020: dflt: xor %eax,%eax; ret */
	};
	uint8_t table[8];
	le32(table, 0x101c - 0x2000);
	le32(table + 4, 0x1020 - 0x2000);
	struct image im = { 0x2000, table, sizeof(table), 0 };
	struct insn_func f;
	decode_table(code, sizeof(code), &im, &f);
	const struct insn *j = jump_at(&f, 0x101a);
	assert_int_equal(j->flow, INSN_FLOW_INDIRECT);
	assert_int_equal(j->ntargets, 2);
	assert_int_equal(j->targets[0], 0x101c);
	assert_int_equal(j->targets[1], 0x1020);
	insn_func_free(&f);
}

/* An indirect jump after the frame is torn down, or through a pointer at a fixed address,
 * is a tail call: it leaves the procedure. */
static void test_tail_calls(void **state)
{
	(void)state;
	const uint8_t code[] = {
		0x5b,                                /* 1000: pop    %rbx */
		0xff, 0xe0,                          /* 1001: jmp    *%rax */
		0xc9,                                /* 1003: leave */
		0xff, 0xe2,                          /* 1004: jmp    *%rdx */
		0x48, 0x83, 0xc4, 0x08,              /* 1006: add    $0x8,%rsp */
		0xff, 0xe1,                          /* 100a: jmp    *%rcx */
		0xff, 0x25, 0x10, 0x00, 0x00, 0x00,  /* 100c: jmp    *0x10(%rip) */
		0x48, 0x89, 0xf8,                    /* 1012: mov    %rdi,%rax */
		0xff, 0xe0,                          /* 1015: jmp    *%rax */
	};
	struct insn_func f;
	decode(EM_X86_64, code, sizeof(code), 0x1000, &f);
	assert_int_equal(jump_at(&f, 0x1001)->flow, INSN_FLOW_RETURN);
	assert_int_equal(jump_at(&f, 0x1004)->flow, INSN_FLOW_RETURN);
	assert_int_equal(jump_at(&f, 0x100a)->flow, INSN_FLOW_RETURN);
	assert_int_equal(jump_at(&f, 0x100c)->flow, INSN_FLOW_RETURN);
	assert_int_equal(jump_at(&f, 0x1015)->flow, INSN_FLOW_INDIRECT);
	assert_int_equal(jump_at(&f, 0x1003)->cls, IC_LOAD);
	insn_func_free(&f);
}

/* AArch64: byte offsets in instructions from the adr base; the bound's "b.ls" jumps
 * around the default's "mov; ret" to the switch. */
static void test_jump_table_a64(void **state)
{
	(void)state;
	const uint32_t w32[] = {
		0x7100085f, /* 40000000: cmp    w2, #0x2 */
		0x54000069, /* 40000004: b.ls   40000010 */
		0x52800000, /* 40000008: mov    w0, #0x0 */
		0xd65f03c0, /* 4000000c: ret */
		0xb0000001, /* 40000010: adrp   x1, 40001000 */
		0x91004021, /* 40000014: add    x1, x1, #0x10 */
		0x38624821, /* 40000018: ldrb   w1, [x1, w2, uxtw] */
		0x10000063, /* 4000001c: adr    x3, 40000028 */
		0x8b218861, /* 40000020: add    x1, x3, w1, sxtb #2 */
		0xd61f0020, /* 40000024: br     x1 */
		0x52800020, /* 40000028: mov    w0, #0x1 */
		0xd65f03c0, /* 4000002c: ret */
		0x52800040, /* 40000030: mov    w0, #0x2 */
		0xd65f03c0, /* 40000034: ret */
		0x52800060, /* 40000038: mov    w0, #0x3 */
		0xd65f03c0, /* 4000003c: ret */
	};
	uint8_t code[sizeof(w32)], table[3] = { 0, 2, 4 };
	words(code, w32, N(w32));
	struct image im = { 0x40001010, table, sizeof(table), 0 };
	struct insn_func f;
	char err[256];
	assert_int_equal(insn_decode(EM_AARCH64, code, sizeof(code), 0x40000000, read_image, &im,
				     &f, err, sizeof(err)), 0);
	const struct insn *j = jump_at(&f, 0x40000024);
	assert_int_equal(j->flow, INSN_FLOW_INDIRECT);
	assert_int_equal(j->ntargets, 3);
	assert_int_equal(j->targets[0], 0x40000028);
	assert_int_equal(j->targets[1], 0x40000030);
	assert_int_equal(j->targets[2], 0x40000038);
	insn_func_free(&f);

	/* a negative offset (sxtb) before the procedure: not recovered */
	table[1] = 0x80;
	assert_int_equal(insn_decode(EM_AARCH64, code, sizeof(code), 0x40000000, read_image, &im,
				     &f, err, sizeof(err)), 0);
	assert_int_equal(jump_at(&f, 0x40000024)->ntargets, 0);
	insn_func_free(&f);
}

/* ---- ELF images ---- */

static void fixture(char *out, size_t len, const char *name)
{
	const char *dir = getenv("BMPROF_FIXTURES");
	snprintf(out, len, "%s/%s", dir && *dir ? dir : "build/fixtures", name);
}

static void test_load_function(void **state)
{
	(void)state;
	char elf[512], err[256];
	fixture(elf, sizeof(elf), "sym_dw5.elf");
	struct symbolizer *s = symbolizer_open(elf, err, sizeof(err));
	assert_non_null(s);
	uint64_t start, size;
	assert_int_equal(symbolizer_find_function(s, "compute", &start, &size), 0);
	uint8_t *code = malloc(size);
	assert_int_equal(symbolizer_read(s, start, code, size), 0);
	struct disasm *d = disasm_open(symbolizer_machine(s), err, sizeof(err));
	struct disasm_insn *in;
	long n = disasm_range(d, code, size, start, &in);

	struct insn_func f;
	assert_int_equal(insn_func_load(elf, "compute", &f, err, sizeof(err)), 0);
	assert_string_equal(f.name, "compute");
	assert_int_equal(f.start, start);
	assert_int_equal(f.end, start + size);
	assert_int_equal(f.arch, BMPROF_ARCH_X86_64);
	assert_int_equal(f.n, (size_t)n);
	for (long i = 0; i < n; i++) {
		assert_int_equal(f.insns[i].addr, in[i].addr);
		assert_int_equal(strncmp(f.insns[i].text, in[i].mnemonic, strlen(in[i].mnemonic)), 0);
	}
	/* a compiled function ends by leaving it */
	uint8_t last = f.insns[f.n - 1].flow;
	assert_true(last == INSN_FLOW_RETURN || last == INSN_FLOW_JUMP || last == INSN_FLOW_STOP);
	insn_func_free(&f);

	/* by an address inside it */
	char addr[32];
	snprintf(addr, sizeof(addr), "0x%llx", (unsigned long long)(start + 1));
	assert_int_equal(insn_func_load(elf, addr, &f, err, sizeof(err)), 0);
	assert_string_equal(f.name, "compute");
	assert_int_equal(f.start, start);
	insn_func_free(&f);

	free(in);
	disasm_close(d);
	free(code);
	symbolizer_close(s);
}

static void test_load_all(void **state)
{
	(void)state;
	char elf[512], err[256];
	fixture(elf, sizeof(elf), "sym_dw5.elf");
	struct insn_func *fs;
	size_t n;
	assert_int_equal(insn_func_load_all(elf, &fs, &n, err, sizeof(err)), 0);
	assert_true(n >= 5);
	int seen_main = 0, seen_compute = 0;
	for (size_t i = 0; i < n; i++) {
		assert_true(fs[i].n > 0);
		assert_true(fs[i].end > fs[i].start);
		assert_int_equal(fs[i].insns[0].addr, fs[i].start);
		if (i)
			assert_true(fs[i].start >= fs[i - 1].end);
		seen_main |= !strcmp(fs[i].name, "main");
		seen_compute |= !strcmp(fs[i].name, "compute") ||
				!strcmp(fs[i].name, "sym_alias_global");
	}
	assert_true(seen_main && seen_compute);
	insn_funcs_free(fs, n);
}

/* A crafted ELF (tests/fuzz/mkseeds-elf.sh): function f of 20000 nops and a ret, and 399
 * symbols g1..g399 starting inside it: f alone is decoded, once (each of them decoded
 * whole took quadratic memory). Run from the repository root, as the fuzz replays. */
static void test_load_all_nested(void **state)
{
	(void)state;
	char err[256];
	struct insn_func *fs;
	size_t n;

	assert_int_equal(insn_func_load_all("tests/fuzz/regress/fuzz_cpi/nested-symbols-400", &fs,
					    &n, err, sizeof(err)), 0);
	assert_int_equal(n, 1);
	assert_string_equal(fs[0].name, "f");
	assert_int_equal(fs[0].n, 20001);
	insn_funcs_free(fs, n);
	/* by name, a nested one is still itself */
	struct insn_func f;
	assert_int_equal(insn_func_load("tests/fuzz/regress/fuzz_cpi/nested-symbols-400", "g399",
					&f, err, sizeof(err)), 0);
	assert_int_equal(f.start + 20000 - 399 * 48, f.end);
	insn_func_free(&f);
}

/* A symbol whose size a damaged table makes 2^55 bytes: its bytes are not in the file, so it
 * is left out like _etext, never allocated; the other functions load. */
static void test_load_all_huge_symbol(void **state)
{
	(void)state;
	char err[256];
	struct insn_func *fs;
	size_t n;

	assert_int_equal(insn_func_load_all("tests/fuzz/regress/fuzz_cpi/symbol-size-2e55", &fs, &n,
					    err, sizeof(err)), 0);
	assert_true(n >= 1);
	for (size_t i = 0; i < n; i++)
		assert_true(fs[i].end - fs[i].start < 65536);
	insn_funcs_free(fs, n);
}

static void expect_error(const char *file, const char *name, const char *want1,
			 const char *want2)
{
	char elf[512], err[256] = "";
	struct insn_func f;
	fixture(elf, sizeof(elf), file);
	assert_int_equal(insn_func_load(elf, name, &f, err, sizeof(err)), -1);
	assert_null(strchr(err, '\n'));
	if (!strstr(err, want1) || (want2 && !strstr(err, want2)))
		fail_msg("error '%s' lacks '%s' / '%s'", err, want1, want2 ? want2 : "");
	assert_null(f.insns);
	struct insn_func *fs = (struct insn_func *)&f;
	size_t n = 1;
	if (strcmp(file, "sym_dw5.elf")) {
		assert_int_equal(insn_func_load_all(elf, &fs, &n, err, sizeof(err)), -1);
		assert_null(fs);
		assert_int_equal(n, 0);
	}
}

static void test_load_errors(void **state)
{
	(void)state;
	expect_error("no_such.elf", "main", "cannot open", "No such file");
	expect_error("not_elf.txt", "main", "not an ELF", NULL);
	expect_error("sym_stripped.elf", "main", "no symbol table", "unstripped");
	expect_error("sym_dw5.elf", "no_such_function", "no function 'no_such_function'", NULL);
	expect_error("sym_dw5.elf", "comptue", "no function 'comptue'", "close matches: compute");
	expect_error("sym_dw5.elf", "other", "close matches: other_entry, other_loop", NULL);
	expect_error("sym_dw5.elf", "0x10", "no function contains address 0x10", NULL);

	char err[256];
	struct insn_func f;
	const uint8_t nop = 0x90;
	assert_int_equal(insn_decode(EM_SPARC, &nop, 1, 0, NULL, NULL, &f, err, sizeof(err)), -1);
	assert_non_null(strstr(err, "x86-64, AArch64, Cortex-M and RISC-V"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_x86_flow),
		cmocka_unit_test(test_x86_classes),
		cmocka_unit_test(test_text_matches_disasm),
		cmocka_unit_test(test_a64_flow),
		cmocka_unit_test(test_thumb),
		cmocka_unit_test(test_a64_classes),
		cmocka_unit_test(test_jump_table_pie),
		cmocka_unit_test(test_jump_table_unbounded),
		cmocka_unit_test(test_jump_table_absolute),
		cmocka_unit_test(test_jump_table_hoisted_base),
		cmocka_unit_test(test_tail_calls),
		cmocka_unit_test(test_jump_table_a64),
		cmocka_unit_test(test_load_function),
		cmocka_unit_test(test_load_all),
		cmocka_unit_test(test_load_all_nested),
		cmocka_unit_test(test_load_all_huge_symbol),
		cmocka_unit_test(test_load_errors),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
