/* SPDX-License-Identifier: BSD-2-Clause */
/* One RISC-V (RV64GC) instruction as the analyses see it, from the same decoding the
 * disassembler does (symbol/rv_insn.h, symbol/disasm_rv.h; capstone 4 has no RISC-V): how
 * control leaves it, its class, its memory access and size, and the registers it reads
 * and writes (analysis/insn.h numbering: 1-31 x1-x31, x0 in no set; 64-95 f0-f31).
 *
 * Calls and returns follow the return-address-stack hints of the unprivileged ISA
 * (jal/jalr, "rd = x1 or x5 is a link register"): jal or jalr writing a link register is
 * a call, jalr x0 through a link register a return. jalr x0 through t1 (x6) right after
 * `auipc t1` is the `tail` sequence: a tail call, which leaves the procedure (a return);
 * an `auipc r; jalr x1, imm(r)` call gets its target. mret and sret leave the procedure;
 * ebreak and the illegal all-zero and `unimp` words stop. */
#include <string.h>

#include "decode/insn_decode_internal.h"
#include "symbol/disasm_rv.h"
#include "symbol/rv_insn.h"

#define RV_UNIMP 0xc0001073u   /* csrrw x0, cycle, x0: the assembler's unimp */

static void xreg(struct insn_regs *set, unsigned r)
{
	if (r)
		insn_regs_add(set, r);
}

static void freg(struct insn_regs *set, unsigned r)
{
	insn_regs_add(set, INSN_REG_VEC0 + r);
}

static int is_link(unsigned r)
{
	return r == 1 || r == 5;
}

static void jalr(uint32_t w, const struct rv_auipc *prev, struct insn *o)
{
	unsigned rd = RV_RD(w), rs1 = RV_RS1(w);
	int paired = prev->reg && prev->reg == rs1;

	o->cls = IC_BRANCH;
	xreg(&o->rd, rs1);
	xreg(&o->wr, rd);
	if (is_link(rd)) {
		o->flow = INSN_FLOW_CALL;
		if (paired)
			o->target = prev->value + (uint64_t)rv_imm_i(w);
	} else if (rd == 0 && (is_link(rs1) || (paired && rs1 == 6))) {
		o->flow = INSN_FLOW_RETURN;
	} else {
		o->flow = INSN_FLOW_INDIRECT;
	}
}

static enum insn_class op_class(uint32_t w)
{
	unsigned f3 = RV_F3(w), f7 = RV_F7(w);

	if (f7 == 1)
		return f3 < 4 ? IC_MUL : IC_DIV;
	if (f3 == 1 || f3 == 5)
		return IC_SHIFT;
	if (RV_OP(w) == 0x33 && f3 == 0 && RV_RS1(w) == 0)
		return f7 ? IC_ALU : IC_MOVE;   /* neg, mv */
	return IC_ALU;
}

static enum insn_class op_imm_class(uint32_t w)
{
	unsigned f3 = RV_F3(w);

	if (f3 == 1 || f3 == 5)
		return IC_SHIFT;
	if (f3 == 0 && RV_OP(w) == 0x13) {
		if (!RV_RD(w) && !RV_RS1(w) && !rv_imm_i(w))
			return IC_NOP;
		if (!RV_RS1(w) || !rv_imm_i(w))
			return IC_MOVE;         /* li, mv */
	}
	return IC_ALU;
}

/* The F and D computational instructions (opcode OP-FP). */
static void fp_op(uint32_t w, struct insn *o)
{
	unsigned f5 = RV_F7(w) >> 2, rd = RV_RD(w), rs1 = RV_RS1(w), rs2 = RV_RS2(w);

	switch (f5) {
	case 2:
		o->cls = IC_FP_MUL;
		break;
	case 3: case 11:
		o->cls = IC_FP_DIV;
		break;
	default:
		o->cls = IC_FP_ADD;   /* add, sub, sign injection, min/max, compare, convert */
		break;
	}
	switch (f5) {
	case 24: case 28:         /* fcvt.int.fp, fmv.x.w/d, fclass: to an integer register */
		xreg(&o->wr, rd);
		freg(&o->rd, rs1);
		return;
	case 26: case 30:         /* fcvt.fp.int, fmv.w/d.x: from an integer register */
		freg(&o->wr, rd);
		xreg(&o->rd, rs1);
		return;
	case 20:                  /* feq, flt, fle */
		xreg(&o->wr, rd);
		freg(&o->rd, rs1);
		freg(&o->rd, rs2);
		return;
	case 8: case 11:          /* fcvt.s.d, fcvt.d.s, fsqrt: one source */
		freg(&o->wr, rd);
		freg(&o->rd, rs1);
		return;
	}
	freg(&o->wr, rd);
	freg(&o->rd, rs1);
	freg(&o->rd, rs2);
}

static void amo(uint32_t w, struct insn *o)
{
	unsigned f5 = RV_F7(w) >> 2;

	xreg(&o->rd, RV_RS1(w));
	xreg(&o->wr, RV_RD(w));
	if (f5 == 0x02) {         /* lr */
		o->cls = IC_LOAD;
		o->mem = INSN_MEM_LOAD;
		return;
	}
	xreg(&o->rd, RV_RS2(w));
	if (f5 == 0x03) {         /* sc */
		o->cls = IC_STORE;
		o->mem = INSN_MEM_STORE;
		return;
	}
	o->cls = IC_LOAD;         /* read-modify-write */
	o->mem = INSN_MEM_LOAD | INSN_MEM_STORE;
}

static void sys_op(uint32_t w, struct insn *o)
{
	o->cls = IC_SYSTEM;
	if (w == 0x00100073 || w == RV_UNIMP) {
		o->flow = INSN_FLOW_STOP;       /* ebreak, unimp */
		return;
	}
	if (w == 0x30200073 || w == 0x10200073) {
		o->flow = INSN_FLOW_RETURN;     /* mret, sret */
		return;
	}
	if (RV_F3(w) == 0)
		return;                         /* ecall, wfi */
	if (RV_F3(w) < 4)
		xreg(&o->rd, RV_RS1(w));
	xreg(&o->wr, RV_RD(w));
}

/* Every field but text, from the 32-bit instruction w at addr. */
static void facts(uint32_t w, uint64_t addr, const struct rv_auipc *prev, struct insn *o)
{
	unsigned op = RV_OP(w), rd = RV_RD(w), rs1 = RV_RS1(w), rs2 = RV_RS2(w);

	switch (op) {
	case 0x37: case 0x17:                   /* lui, auipc */
		o->cls = op == 0x37 ? IC_MOVE : IC_ALU;
		xreg(&o->wr, rd);
		return;
	case 0x6f:                              /* jal */
		o->cls = IC_BRANCH;
		o->flow = is_link(rd) ? INSN_FLOW_CALL : INSN_FLOW_JUMP;
		o->target = addr + (uint64_t)rv_imm_j(w);
		xreg(&o->wr, rd);
		return;
	case 0x67:
		jalr(w, prev, o);
		return;
	case 0x63:                              /* beq .. bgeu */
		o->cls = IC_BRANCH;
		o->flow = INSN_FLOW_COND;
		o->target = addr + (uint64_t)rv_imm_b(w);
		xreg(&o->rd, rs1);
		xreg(&o->rd, rs2);
		return;
	case 0x03: case 0x07:                   /* loads, fp loads */
		o->cls = IC_LOAD;
		o->mem = INSN_MEM_LOAD;
		xreg(&o->rd, rs1);
		if (op == 0x03)
			xreg(&o->wr, rd);
		else
			freg(&o->wr, rd);
		return;
	case 0x23: case 0x27:                   /* stores, fp stores */
		o->cls = IC_STORE;
		o->mem = INSN_MEM_STORE;
		xreg(&o->rd, rs1);
		if (op == 0x23)
			xreg(&o->rd, rs2);
		else
			freg(&o->rd, rs2);
		return;
	case 0x13: case 0x1b: case 0x33: case 0x3b:
		o->cls = (uint8_t)(op & 0x20 ? op_class(w) : op_imm_class(w));
		xreg(&o->rd, rs1);
		if (op & 0x20)
			xreg(&o->rd, rs2);
		xreg(&o->wr, rd);
		return;
	case 0x2f:
		amo(w, o);
		return;
	case 0x73:
		sys_op(w, o);
		return;
	case 0x53:
		fp_op(w, o);
		return;
	case 0x43: case 0x47: case 0x4b: case 0x4f:   /* fmadd, fmsub, fnmsub, fnmadd */
		o->cls = IC_FP_MUL;
		freg(&o->wr, rd);
		freg(&o->rd, rs1);
		freg(&o->rd, rs2);
		freg(&o->rd, RV_RS3(w));
		return;
	case 0x0f:                              /* fence, fence.i */
		o->cls = IC_SYSTEM;
		return;
	}
	o->cls = IC_OTHER;
}

unsigned insn_rv_mem_size(uint32_t w)
{
	switch (RV_OP(w)) {
	case 0x03: case 0x23: case 0x07: case 0x27:
		return 1u << (RV_F3(w) & 3);
	case 0x2f:
		return RV_F3(w) == 3 ? 8 : 4;
	}
	return 0;
}

unsigned insn_rv_fill(const uint8_t *code, size_t len, uint64_t addr, struct rv_auipc *prev,
		      struct insn *o)
{
	char mn[32], ops[64];
	uint32_t w;
	unsigned size = rv_disasm_one(code, len, addr, mn, sizeof mn, ops, sizeof ops);

	o->addr = addr;
	o->size = (uint8_t)size;
	if (!size)
		return 0;
	rv_fetch(code, len, &w);
	insn_set_text(o, mn, ops);
	if (!w && size == 2 && !code[0] && !code[1]) {
		o->cls = IC_SYSTEM;             /* the all-zero illegal instruction */
		o->flow = INSN_FLOW_STOP;
	} else if (!strcmp(mn, ".insn")) {
		o->cls = IC_OTHER;              /* not decoded: passed over */
	} else {
		facts(w, addr, prev, o);
	}
	if (o->cls == IC_NOP) {
		memset(&o->rd, 0, sizeof(o->rd));
		memset(&o->wr, 0, sizeof(o->wr));
	}
	prev->reg = 0;
	if (o->cls != IC_OTHER && RV_OP(w) == 0x17 && RV_RD(w)) {
		prev->reg = (uint8_t)RV_RD(w);
		prev->value = addr + (uint64_t)rv_imm_u(w);
	}
	return size;
}
