/* SPDX-License-Identifier: BSD-2-Clause */
/* One RV64GC instruction to text (disasm_rv.h). A compressed instruction is expanded to
 * its 32-bit form first (rv_insn.c) and decoded as that. Register names are the ABI's. */
#include <stdio.h>
#include <string.h>

#include "symbol/disasm_rv.h"
#include "symbol/rv_insn.h"

static const char *const xr[32] = {
	"zero", "ra", "sp", "gp", "tp", "t0", "t1", "t2", "s0", "s1", "a0", "a1", "a2", "a3",
	"a4", "a5", "a6", "a7", "s2", "s3", "s4", "s5", "s6", "s7", "s8", "s9", "s10", "s11",
	"t3", "t4", "t5", "t6",
};
static const char *const fr[32] = {
	"ft0", "ft1", "ft2", "ft3", "ft4", "ft5", "ft6", "ft7", "fs0", "fs1", "fa0", "fa1",
	"fa2", "fa3", "fa4", "fa5", "fa6", "fa7", "fs2", "fs3", "fs4", "fs5", "fs6", "fs7",
	"fs8", "fs9", "fs10", "fs11", "ft8", "ft9", "ft10", "ft11",
};

/* ---- 32-bit ---- */

struct out {
	char *mn, *ops;
	size_t mnn, opn;
};

#define MN(...) snprintf(o->mn, o->mnn, __VA_ARGS__)
#define OPS(...) snprintf(o->ops, o->opn, __VA_ARGS__)

static const char *csr_name(unsigned n)
{
	switch (n) {
	case 0x001: return "fflags";
	case 0x002: return "frm";
	case 0x003: return "fcsr";
	case 0xc00: return "cycle";
	case 0xc01: return "time";
	case 0xc02: return "instret";
	case 0x300: return "mstatus";
	case 0x301: return "misa";
	case 0x304: return "mie";
	case 0x305: return "mtvec";
	case 0x320: return "mcountinhibit";
	case 0x340: return "mscratch";
	case 0x341: return "mepc";
	case 0x342: return "mcause";
	case 0x343: return "mtval";
	case 0x344: return "mip";
	case 0xb00: return "mcycle";
	case 0xb02: return "minstret";
	case 0xda0: return "scountovf";
	case 0xf11: return "mvendorid";
	case 0xf12: return "marchid";
	case 0xf13: return "mimpid";
	case 0xf14: return "mhartid";
	}
	return NULL;
}

static void csr_text(char *buf, size_t n, unsigned csr)
{
	const char *s = csr_name(csr);

	if (s)
		snprintf(buf, n, "%s", s);
	else if (csr >= 0xb03 && csr <= 0xb1f)
		snprintf(buf, n, "mhpmcounter%u", csr - 0xb00);
	else if (csr >= 0x323 && csr <= 0x33f)
		snprintf(buf, n, "mhpmevent%u", csr - 0x320);
	else
		snprintf(buf, n, "0x%x", csr);
}

static int branch(struct out *o, uint32_t w, uint64_t addr)
{
	static const char *const names[8] = { "beq", "bne", 0, 0, "blt", "bge", "bltu", "bgeu" };
	unsigned f3 = RV_BITS(w, 14, 12), rs1 = RV_BITS(w, 19, 15), rs2 = RV_BITS(w, 24, 20);
	int64_t imm = rv_imm_b(w);
	uint64_t t = addr + (uint64_t)imm;

	if (!names[f3])
		return 0;
	if (rs2 == 0 && (f3 == 0 || f3 == 1)) {
		MN("%sz", names[f3]);
		OPS("%s,0x%llx", xr[rs1], (unsigned long long)t);
	} else {
		MN("%s", names[f3]);
		OPS("%s,%s,0x%llx", xr[rs1], xr[rs2], (unsigned long long)t);
	}
	return 1;
}

static int op_imm(struct out *o, uint32_t w, int word)
{
	static const char *const names[8] = { "addi", "sll", "slti", "sltiu", "xori", "sr",
					       "ori", "andi" };
	unsigned f3 = RV_BITS(w, 14, 12), rd = RV_BITS(w, 11, 7), rs1 = RV_BITS(w, 19, 15);
	int64_t imm = rv_imm_i(w);
	const char *sfx = word ? "w" : "";

	if (f3 == 1 || f3 == 5) {
		unsigned sh = RV_BITS(w, 25, 20) & (word ? 31 : 63);
		const char *n = f3 == 1 ? "slli" : RV_BITS(w, 30, 30) ? "srai" : "srli";
		MN("%s%s", n, sfx);
		OPS("%s,%s,%u", xr[rd], xr[rs1], sh);
		return 1;
	}
	if (word && f3 != 0)
		return 0;
	if (f3 == 0 && rs1 == 0 && !word) {
		MN(rd || imm ? "li" : "nop");
		if (rd || imm)
			OPS("%s,%lld", xr[rd], (long long)imm);
		else
			o->ops[0] = 0;
		return 1;
	}
	if (f3 == 0 && imm == 0 && !word) {
		MN("mv");
		OPS("%s,%s", xr[rd], xr[rs1]);
		return 1;
	}
	if (f3 == 0 && imm == 0 && word) {
		MN("sext.w");
		OPS("%s,%s", xr[rd], xr[rs1]);
		return 1;
	}
	MN("%s%s", names[f3], sfx);
	OPS("%s,%s,%lld", xr[rd], xr[rs1], (long long)imm);
	return 1;
}

static int op_reg(struct out *o, uint32_t w, int word)
{
	static const char *const base[8] = { "add", "sll", "slt", "sltu", "xor", "srl", "or", "and" };
	static const char *const mul[8] = { "mul", "mulh", "mulhsu", "mulhu", "div", "divu",
					    "rem", "remu" };
	unsigned f3 = RV_BITS(w, 14, 12), f7 = w >> 25, rd = RV_BITS(w, 11, 7), rs1 = RV_BITS(w, 19, 15),
		 rs2 = RV_BITS(w, 24, 20);
	const char *n;

	if (f7 == 1)
		n = mul[f3];
	else if (f7 == 0x20 && f3 == 0)
		n = "sub";
	else if (f7 == 0x20 && f3 == 5)
		n = "sra";
	else if (f7 == 0)
		n = base[f3];
	else
		return 0;
	if (word && (f7 == 1 ? f3 == 1 || f3 == 2 || f3 == 3 : f3 != 0 && f3 != 1 && f3 != 5))
		return 0;
	if (!word && f7 == 0 && f3 == 0 && rs1 == 0) {
		MN("mv");
		OPS("%s,%s", xr[rd], xr[rs2]);
		return 1;
	}
	if (!word && f7 == 0x20 && f3 == 0 && rs1 == 0) {
		MN("neg");
		OPS("%s,%s", xr[rd], xr[rs2]);
		return 1;
	}
	MN("%s%s", n, word ? "w" : "");
	OPS("%s,%s,%s", xr[rd], xr[rs1], xr[rs2]);
	return 1;
}

static int amo(struct out *o, uint32_t w)
{
	static const struct { unsigned f5; const char *n; } ops[] = {
		{ 0x02, "lr" }, { 0x03, "sc" }, { 0x01, "amoswap" }, { 0x00, "amoadd" },
		{ 0x04, "amoxor" }, { 0x0c, "amoand" }, { 0x08, "amoor" }, { 0x10, "amomin" },
		{ 0x14, "amomax" }, { 0x18, "amominu" }, { 0x1c, "amomaxu" },
	};
	unsigned f3 = RV_BITS(w, 14, 12), f5 = w >> 27, rd = RV_BITS(w, 11, 7), rs1 = RV_BITS(w, 19, 15),
		 rs2 = RV_BITS(w, 24, 20);
	const char *ord = RV_BITS(w, 26, 25) == 3 ? ".aqrl" : RV_BITS(w, 26, 25) == 2 ? ".aq" :
			  RV_BITS(w, 26, 25) == 1 ? ".rl" : "";

	if (f3 != 2 && f3 != 3)
		return 0;
	for (unsigned i = 0; i < sizeof ops / sizeof ops[0]; i++) {
		if (ops[i].f5 != f5)
			continue;
		MN("%s.%c%s", ops[i].n, f3 == 2 ? 'w' : 'd', ord);
		if (f5 == 0x02)
			OPS("%s,(%s)", xr[rd], xr[rs1]);
		else
			OPS("%s,%s,(%s)", xr[rd], xr[rs2], xr[rs1]);
		return 1;
	}
	return 0;
}

static int system(struct out *o, uint32_t w)
{
	static const char *const names[8] = { 0, "csrrw", "csrrs", "csrrc", 0, "csrrwi", "csrrsi",
					       "csrrci" };
	unsigned f3 = RV_BITS(w, 14, 12), rd = RV_BITS(w, 11, 7), rs1 = RV_BITS(w, 19, 15);
	char csr[24];

	if (f3 == 0) {
		const char *n = w == 0x00000073 ? "ecall" : w == 0x00100073 ? "ebreak" :
				w == 0x30200073 ? "mret" : w == 0x10200073 ? "sret" :
				w == 0x10500073 ? "wfi" : NULL;
		if (!n)
			return 0;
		MN("%s", n);
		o->ops[0] = 0;
		return 1;
	}
	if (!names[f3])
		return 0;
	csr_text(csr, sizeof csr, w >> 20);
	if (f3 == 2 && rs1 == 0) {
		MN("csrr");
		OPS("%s,%s", xr[rd], csr);
	} else if (rd == 0 && f3 != 2) {
		MN("csr%s", names[f3] + 4);
		if (f3 >= 5)
			OPS("%s,%u", csr, rs1);
		else
			OPS("%s,%s", csr, xr[rs1]);
	} else {
		MN("%s", names[f3]);
		if (f3 >= 5)
			OPS("%s,%s,%u", xr[rd], csr, rs1);
		else
			OPS("%s,%s,%s", xr[rd], csr, xr[rs1]);
	}
	return 1;
}

static int fp_op(struct out *o, uint32_t w)
{
	unsigned f7 = w >> 25, rd = RV_BITS(w, 11, 7), rs1 = RV_BITS(w, 19, 15), rs2 = RV_BITS(w, 24, 20),
		 f3 = RV_BITS(w, 14, 12);
	char t = (f7 & 1) ? 'd' : 's';
	static const char *const arith[4] = { "fadd", "fsub", "fmul", "fdiv" };

	switch (f7 >> 2) {
	case 0: case 1: case 2: case 3:
		MN("%s.%c", arith[f7 >> 2], t);
		OPS("%s,%s,%s", fr[rd], fr[rs1], fr[rs2]);
		return 1;
	case 4:
		if (f3 > 2)
			return 0;
		if (rs1 == rs2) {
			MN("%s.%c", f3 == 0 ? "fmv" : f3 == 1 ? "fneg" : "fabs", t);
			OPS("%s,%s", fr[rd], fr[rs1]);
		} else {
			MN("%s.%c", f3 == 0 ? "fsgnj" : f3 == 1 ? "fsgnjn" : "fsgnjx", t);
			OPS("%s,%s,%s", fr[rd], fr[rs1], fr[rs2]);
		}
		return 1;
	case 5:
		MN("%s.%c", f3 ? "fmax" : "fmin", t);
		OPS("%s,%s,%s", fr[rd], fr[rs1], fr[rs2]);
		return 1;
	case 8:
		MN("fcvt.%c.%c", t, t == 'd' ? 's' : 'd');
		OPS("%s,%s", fr[rd], fr[rs1]);
		return 1;
	case 11:
		MN("fsqrt.%c", t);
		OPS("%s,%s", fr[rd], fr[rs1]);
		return 1;
	case 20:
		if (f3 > 2)
			return 0;
		MN("%s.%c", f3 == 2 ? "feq" : f3 == 1 ? "flt" : "fle", t);
		OPS("%s,%s,%s", xr[rd], fr[rs1], fr[rs2]);
		return 1;
	case 24: case 26: {
		static const char *const it[4] = { "w", "wu", "l", "lu" };
		if (rs2 > 3)
			return 0;
		if (f7 >> 2 == 24) {
			MN("fcvt.%s.%c", it[rs2], t);
			OPS("%s,%s", xr[rd], fr[rs1]);
		} else {
			MN("fcvt.%c.%s", t, it[rs2]);
			OPS("%s,%s", fr[rd], xr[rs1]);
		}
		return 1;
	}
	case 28:
		if (f3 > 1)
			return 0;
		if (f3 == 1)
			MN("fclass.%c", t);
		else
			MN("fmv.x.%c", t == 's' ? 'w' : 'd');
		OPS("%s,%s", xr[rd], fr[rs1]);
		return 1;
	case 30:
		MN("fmv.%c.x", t == 's' ? 'w' : 'd');
		OPS("%s,%s", fr[rd], xr[rs1]);
		return 1;
	}
	return 0;
}

/* fence's predecessor or successor set: i, o, r, w */
static const char *fence_set(char buf[5], unsigned bits)
{
	unsigned n = 0;

	for (unsigned i = 0; i < 4; i++)
		if (bits & 8u >> i)
			buf[n++] = "iorw"[i];
	buf[n] = 0;
	return buf;
}

static int decode32(struct out *o, uint32_t w, uint64_t addr)
{
	unsigned op = w & 0x7f, rd = RV_BITS(w, 11, 7), rs1 = RV_BITS(w, 19, 15), rs2 = RV_BITS(w, 24, 20),
		 f3 = RV_BITS(w, 14, 12);
	int64_t imm_i = rv_imm_i(w), imm_s = rv_imm_s(w);

	switch (op) {
	case 0x37: case 0x17:
		MN(op == 0x37 ? "lui" : "auipc");
		OPS("%s,0x%x", xr[rd], w >> 12);
		return 1;
	case 0x6f: {
		int64_t imm = rv_imm_j(w);
		unsigned long long t = (unsigned long long)(addr + (uint64_t)imm);
		if (rd == 0) {
			MN("j");
			OPS("0x%llx", t);
		} else if (rd == 1) {
			MN("jal");
			OPS("0x%llx", t);
		} else {
			MN("jal");
			OPS("%s,0x%llx", xr[rd], t);
		}
		return 1;
	}
	case 0x67:
		if (f3)
			return 0;
		if (rd == 0 && rs1 == 1 && imm_i == 0) {
			MN("ret");
			o->ops[0] = 0;
		} else if (rd == 0 && imm_i == 0) {
			MN("jr");
			OPS("%s", xr[rs1]);
		} else if (rd == 1 && imm_i == 0) {
			MN("jalr");
			OPS("%s", xr[rs1]);
		} else {
			MN("jalr");
			OPS("%s,%lld(%s)", xr[rd], (long long)imm_i, xr[rs1]);
		}
		return 1;
	case 0x63:
		return branch(o, w, addr);
	case 0x03: {
		static const char *const n[8] = { "lb", "lh", "lw", "ld", "lbu", "lhu", "lwu", 0 };
		if (!n[f3])
			return 0;
		MN("%s", n[f3]);
		OPS("%s,%lld(%s)", xr[rd], (long long)imm_i, xr[rs1]);
		return 1;
	}
	case 0x23: {
		static const char *const n[8] = { "sb", "sh", "sw", "sd", 0, 0, 0, 0 };
		if (!n[f3])
			return 0;
		MN("%s", n[f3]);
		OPS("%s,%lld(%s)", xr[rs2], (long long)imm_s, xr[rs1]);
		return 1;
	}
	case 0x07: case 0x27:
		if (f3 != 2 && f3 != 3)
			return 0;
		MN("%s%c", op == 0x07 ? "fl" : "fs", f3 == 2 ? 'w' : 'd');
		OPS("%s,%lld(%s)", fr[op == 0x07 ? rd : rs2], (long long)(op == 0x07 ? imm_i : imm_s),
		    xr[rs1]);
		return 1;
	case 0x13: return op_imm(o, w, 0);
	case 0x1b: return op_imm(o, w, 1);
	case 0x33: return op_reg(o, w, 0);
	case 0x3b: return op_reg(o, w, 1);
	case 0x2f: return amo(o, w);
	case 0x73: return system(o, w);
	case 0x53: return fp_op(o, w);
	case 0x43: case 0x47: case 0x4b: case 0x4f: {
		static const char *const n[4] = { "fmadd", "fmsub", "fnmsub", "fnmadd" };
		MN("%s.%c", n[(op >> 2) & 3], (w >> 25 & 3) ? 'd' : 's');
		OPS("%s,%s,%s,%s", fr[rd], fr[rs1], fr[rs2], fr[w >> 27]);
		return 1;
	}
	case 0x0f:
		if (f3 == 1) {
			MN("fence.i");
			o->ops[0] = 0;
		} else {
			char p[5], q[5];
			MN("fence");
			OPS("%s,%s", fence_set(p, RV_BITS(w, 27, 24)), fence_set(q, RV_BITS(w, 23, 20)));
		}
		return 1;
	}
	return 0;
}

unsigned rv_disasm_one(const uint8_t *code, size_t len, uint64_t addr, char *mnemonic,
		       size_t mn, char *operands, size_t on)
{
	struct out o = { mnemonic, operands, mn, on };
	uint32_t w;
	unsigned size;

	size = rv_fetch(code, len, &w);
	if (!size)
		return 0;
	operands[0] = 0;
	if (w && decode32(&o, w, addr))
		return size;
	snprintf(mnemonic, mn, ".insn");
	if (size == 2)
		snprintf(operands, on, "0x%04x", (unsigned)(code[0] | code[1] << 8));
	else
		snprintf(operands, on, "0x%08x", w);
	return size;
}
