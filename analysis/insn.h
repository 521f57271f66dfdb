/* SPDX-License-Identifier: BSD-2-Clause */
/* One machine instruction as the CPI analysis sees it, whatever the architecture.
 * host/decode/insn_decode.c fills these from capstone; the analyses (cfg.h, sched.h, dcpi.h) read
 * them and never decode bytes themselves. */
#ifndef BMPROF_INSN_H
#define BMPROF_INSN_H

#include <stddef.h>
#include <stdint.h>

/* How control leaves the instruction. */
enum insn_flow {
	INSN_FLOW_NEXT = 0,  /* to the next instruction only */
	INSN_FLOW_JUMP,      /* unconditional direct jump to target */
	INSN_FLOW_COND,      /* conditional direct branch: to target, or the next instruction */
	INSN_FLOW_INDIRECT,  /* indirect jump: to targets[] when a jump table was recovered
			      * (ntargets > 0), else anywhere (the CFG is marked incomplete) */
	INSN_FLOW_CALL,      /* call (direct: target set): returns to the next instruction */
	INSN_FLOW_RETURN,    /* leaves the procedure (also an indirect tail call) */
	INSN_FLOW_STOP,      /* no successor: hlt, ud2, brk, udf */
};

/* Instruction classes of the pipeline model (analysis/uarch). A memory operand of a
 * non-load/store class (x86 "add (%rbx),%rax") sets INSN_MEM_LOAD: its latency is the
 * class's plus the model's load-to-use latency. */
enum insn_class {
	IC_NOP = 0,
	IC_MOVE,             /* register or immediate move, zero idiom */
	IC_ALU,              /* integer add, sub, logic, compare, test, lea, extend, cmov, set */
	IC_SHIFT,            /* shifts, rotates, bit-field ops */
	IC_MUL,              /* integer multiply, multiply-add */
	IC_DIV,              /* integer divide, remainder */
	IC_LOAD,             /* load to register (incl. pop, ldp) */
	IC_STORE,            /* store (incl. push, stp) */
	IC_BRANCH,           /* jumps, branches, calls, returns */
	IC_FP_ADD,           /* floating-point add, sub, compare, convert */
	IC_FP_MUL,           /* floating-point multiply, fused multiply-add */
	IC_FP_DIV,           /* floating-point divide, square root */
	IC_VEC,              /* other SIMD (integer vector, shuffle, vector move) */
	IC_STRING,           /* x86 string instructions (movs, stos, ...) */
	IC_SYSTEM,           /* serializing, barriers, system registers, cpuid, rdtsc */
	IC_OTHER,            /* anything not classified */
	IC__COUNT
};

#define INSN_MEM_LOAD 1u
#define INSN_MEM_STORE 2u

/* Register sets as bit masks. Numbering:
 *   x86-64:  0-15 rax,rcx,rdx,rbx,rsp,rbp,rsi,rdi,r8-r15 (hardware order, any width);
 *            16 rflags; 64-95 xmm/ymm/zmm 0-31.
 *   AArch64: 0-30 x0-x30 (w0-w30 too); 31 sp; 32 nzcv; 64-95 v0-v31 (b/h/s/d/q too).
 *   RISC-V:  1-31 x1-x31 (x0 in no set); 64-95 f0-f31.
 * The zero registers (xzr, wzr) are in no set. */
#define INSN_REG_FLAGS_X86 16
#define INSN_REG_NZCV 32
#define INSN_REG_VEC0 64
struct insn_regs { uint64_t w[2]; };

static inline int insn_regs_has(const struct insn_regs *r, unsigned reg)
{
	return reg < 128 && (r->w[reg / 64] >> (reg % 64) & 1);
}

static inline void insn_regs_add(struct insn_regs *r, unsigned reg)
{
	if (reg < 128)
		r->w[reg / 64] |= 1ull << (reg % 64);
}

struct insn {
	uint64_t addr;
	uint8_t size;
	uint8_t flow;        /* enum insn_flow */
	uint8_t cls;         /* enum insn_class */
	uint8_t mem;         /* INSN_MEM_LOAD | INSN_MEM_STORE */
	uint8_t rep;         /* x86 rep-prefixed string instruction (runs once per iteration) */
	uint64_t target;     /* direct jump, branch or call target; 0 if none */
	const uint64_t *targets;  /* INSN_FLOW_INDIRECT: recovered jump-table targets (owned
				   * by whoever decoded the instruction) */
	uint32_t ntargets;
	struct insn_regs rd, wr;  /* registers read (incl. address registers) and written */
	char text[96];       /* "mnemonic operands", as bmprof annotate prints it */
};

/* The index of the instruction starting at addr in insns[0..n) (sorted by address), or -1. */
long insn_find(const struct insn *insns, size_t n, uint64_t addr);

#endif
