/* SPDX-License-Identifier: BSD-2-Clause */
/* One RV64GC instruction to text (disasm_rv.h). A compressed instruction is expanded to
 * its 32-bit form first and decoded as that. Register names are the ABI's. */
#include <stdio.h>
#include <string.h>

#include "symbol/disasm_rv.h"

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

#define BITS(v, hi, lo) (((v) >> (lo)) & ((1u << ((hi) - (lo) + 1)) - 1))

static int64_t sext(uint64_t v, unsigned bits)
{
	uint64_t m = 1ull << (bits - 1);
	return (int64_t)((v ^ m) - m);
}

/* ---- compressed to 32-bit ---- */

static uint32_t r_type(unsigned f7, unsigned rs2, unsigned rs1, unsigned f3, unsigned rd,
		       unsigned op)
{
	return f7 << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t i_type(int32_t imm, unsigned rs1, unsigned f3, unsigned rd, unsigned op)
{
	return (uint32_t)(imm & 0xfff) << 20 | rs1 << 15 | f3 << 12 | rd << 7 | op;
}

static uint32_t s_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3, unsigned op)
{
	return (uint32_t)(imm >> 5 & 0x7f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (uint32_t)(imm & 0x1f) << 7 | op;
}

static uint32_t b_type(int32_t imm, unsigned rs2, unsigned rs1, unsigned f3)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 12 & 1) << 31 | (u >> 5 & 0x3f) << 25 | rs2 << 20 | rs1 << 15 | f3 << 12 |
	       (u >> 1 & 0xf) << 8 | (u >> 11 & 1) << 7 | 0x63;
}

static uint32_t j_type(int32_t imm, unsigned rd)
{
	uint32_t u = (uint32_t)imm;
	return (u >> 20 & 1) << 31 | (u >> 1 & 0x3ff) << 21 | (u >> 11 & 1) << 20 |
	       (u >> 12 & 0xff) << 12 | rd << 7 | 0x6f;
}

/* 0 if c is reserved or not known. */
static uint32_t expand(uint16_t c)
{
	unsigned op = c & 3, f3 = c >> 13, rd = BITS(c, 11, 7), rs2 = BITS(c, 6, 2);
	unsigned rdp = 8 + BITS(c, 4, 2), rs1p = 8 + BITS(c, 9, 7);
	int32_t imm6 = (int32_t)sext(BITS(c, 12, 12) << 5 | BITS(c, 6, 2), 6);

	if (op == 0) {
		unsigned lw = BITS(c, 5, 5) << 6 | BITS(c, 12, 10) << 3 | BITS(c, 6, 6) << 2;
		unsigned ld = BITS(c, 6, 5) << 6 | BITS(c, 12, 10) << 3;
		unsigned nz = BITS(c, 10, 7) << 6 | BITS(c, 12, 11) << 4 | BITS(c, 5, 5) << 3 |
			      BITS(c, 6, 6) << 2;
		switch (f3) {
		case 0: return nz ? i_type((int32_t)nz, 2, 0, rdp, 0x13) : 0;     /* addi4spn */
		case 1: return i_type((int32_t)ld, rs1p, 3, rdp, 0x07);              /* fld */
		case 2: return i_type((int32_t)lw, rs1p, 2, rdp, 0x03);              /* lw */
		case 3: return i_type((int32_t)ld, rs1p, 3, rdp, 0x03);              /* ld */
		case 5: return s_type((int32_t)ld, rdp, rs1p, 3, 0x27);              /* fsd */
		case 6: return s_type((int32_t)lw, rdp, rs1p, 2, 0x23);              /* sw */
		case 7: return s_type((int32_t)ld, rdp, rs1p, 3, 0x23);              /* sd */
		}
		return 0;
	}
	if (op == 1) {
		switch (f3) {
		case 0: return i_type(imm6, rd, 0, rd, 0x13);                        /* addi */
		case 1: return rd ? i_type(imm6, rd, 0, rd, 0x1b) : 0;               /* addiw */
		case 2: return i_type(imm6, 0, 0, rd, 0x13);                         /* li */
		case 3:
			if (rd == 2) {                                               /* addi16sp */
				int32_t i = (int32_t)sext(BITS(c, 12, 12) << 9 | BITS(c, 4, 3) << 7 |
					BITS(c, 5, 5) << 6 | BITS(c, 2, 2) << 5 | BITS(c, 6, 6) << 4, 10);
				return i ? i_type(i, 2, 0, 2, 0x13) : 0;
			}
			return imm6 ? ((uint32_t)imm6 & 0xfffff) << 12 | rd << 7 | 0x37 : 0;   /* lui */
		case 4: {
			unsigned f2 = BITS(c, 11, 10), sh = BITS(c, 12, 12) << 5 | BITS(c, 6, 2);
			if (f2 == 0)
				return i_type((int32_t)sh, rs1p, 5, rs1p, 0x13);     /* srli */
			if (f2 == 1)
				return i_type((int32_t)(sh | 0x400), rs1p, 5, rs1p, 0x13);   /* srai */
			if (f2 == 2)
				return i_type(imm6, rs1p, 7, rs1p, 0x13);            /* andi */
			unsigned f = BITS(c, 12, 12) << 2 | BITS(c, 6, 5), r2 = 8 + BITS(c, 4, 2);
			static const uint8_t f3s[8] = { 0, 4, 6, 7, 0, 0, 0, 0 };
			if (f == 0)
				return r_type(0x20, r2, rs1p, 0, rs1p, 0x33);        /* sub */
			if (f < 4)
				return r_type(0, r2, rs1p, f3s[f], rs1p, 0x33);      /* xor or and */
			if (f == 4)
				return r_type(0x20, r2, rs1p, 0, rs1p, 0x3b);        /* subw */
			if (f == 5)
				return r_type(0, r2, rs1p, 0, rs1p, 0x3b);           /* addw */
			return 0;
		}
		case 5: {
			int32_t i = (int32_t)sext(BITS(c, 12, 12) << 11 | BITS(c, 8, 8) << 10 |
				BITS(c, 10, 9) << 8 | BITS(c, 6, 6) << 7 | BITS(c, 7, 7) << 6 |
				BITS(c, 2, 2) << 5 | BITS(c, 11, 11) << 4 | BITS(c, 5, 3) << 1, 12);
			return j_type(i, 0);                                         /* j */
		}
		case 6: case 7: {
			int32_t i = (int32_t)sext(BITS(c, 12, 12) << 8 | BITS(c, 6, 5) << 6 |
				BITS(c, 2, 2) << 5 | BITS(c, 11, 10) << 3 | BITS(c, 4, 3) << 1, 9);
			return b_type(i, 0, rs1p, f3 == 6 ? 0 : 1);                  /* beqz, bnez */
		}
		}
		return 0;
	}
	if (op == 2) {
		unsigned sh = BITS(c, 12, 12) << 5 | BITS(c, 6, 2);
		unsigned lwsp = BITS(c, 3, 2) << 6 | BITS(c, 12, 12) << 5 | BITS(c, 6, 4) << 2;
		unsigned ldsp = BITS(c, 4, 2) << 6 | BITS(c, 12, 12) << 5 | BITS(c, 6, 5) << 3;
		unsigned swsp = BITS(c, 8, 7) << 6 | BITS(c, 12, 9) << 2;
		unsigned sdsp = BITS(c, 9, 7) << 6 | BITS(c, 12, 10) << 3;
		switch (f3) {
		case 0: return i_type((int32_t)sh, rd, 1, rd, 0x13);                 /* slli */
		case 1: return i_type((int32_t)ldsp, 2, 3, rd, 0x07);                /* fldsp */
		case 2: return rd ? i_type((int32_t)lwsp, 2, 2, rd, 0x03) : 0;       /* lwsp */
		case 3: return rd ? i_type((int32_t)ldsp, 2, 3, rd, 0x03) : 0;       /* ldsp */
		case 4:
			if (!BITS(c, 12, 12)) {
				if (!rs2)
					return rd ? i_type(0, rd, 0, 0, 0x67) : 0;   /* jr */
				return r_type(0, rs2, 0, 0, rd, 0x33);               /* mv */
			}
			if (!rd && !rs2)
				return 0x00100073;                                   /* ebreak */
			if (!rs2)
				return i_type(0, rd, 0, 1, 0x67);                    /* jalr */
			return r_type(0, rs2, rd, 0, rd, 0x33);                      /* add */
		case 5: return s_type((int32_t)sdsp, rs2, 2, 3, 0x27);               /* fsdsp */
		case 6: return s_type((int32_t)swsp, rs2, 2, 2, 0x23);               /* swsp */
		case 7: return s_type((int32_t)sdsp, rs2, 2, 3, 0x23);               /* sdsp */
		}
	}
	return 0;
}

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
	unsigned f3 = BITS(w, 14, 12), rs1 = BITS(w, 19, 15), rs2 = BITS(w, 24, 20);
	int64_t imm = sext(BITS(w, 31, 31) << 12 | BITS(w, 7, 7) << 11 | BITS(w, 30, 25) << 5 |
			   BITS(w, 11, 8) << 1, 13);
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
	unsigned f3 = BITS(w, 14, 12), rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15);
	int64_t imm = sext(w >> 20, 12);
	const char *sfx = word ? "w" : "";

	if (f3 == 1 || f3 == 5) {
		unsigned sh = BITS(w, 25, 20) & (word ? 31 : 63);
		const char *n = f3 == 1 ? "slli" : BITS(w, 30, 30) ? "srai" : "srli";
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
	unsigned f3 = BITS(w, 14, 12), f7 = w >> 25, rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15),
		 rs2 = BITS(w, 24, 20);
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
	unsigned f3 = BITS(w, 14, 12), f5 = w >> 27, rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15),
		 rs2 = BITS(w, 24, 20);
	const char *ord = BITS(w, 26, 25) == 3 ? ".aqrl" : BITS(w, 26, 25) == 2 ? ".aq" :
			  BITS(w, 26, 25) == 1 ? ".rl" : "";

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
	unsigned f3 = BITS(w, 14, 12), rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15);
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
	unsigned f7 = w >> 25, rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15), rs2 = BITS(w, 24, 20),
		 f3 = BITS(w, 14, 12);
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
	unsigned op = w & 0x7f, rd = BITS(w, 11, 7), rs1 = BITS(w, 19, 15), rs2 = BITS(w, 24, 20),
		 f3 = BITS(w, 14, 12);
	int64_t imm_i = sext(w >> 20, 12);
	int64_t imm_s = sext(BITS(w, 31, 25) << 5 | BITS(w, 11, 7), 12);

	switch (op) {
	case 0x37: case 0x17:
		MN(op == 0x37 ? "lui" : "auipc");
		OPS("%s,0x%x", xr[rd], w >> 12);
		return 1;
	case 0x6f: {
		int64_t imm = sext(BITS(w, 31, 31) << 20 | BITS(w, 19, 12) << 12 |
				   BITS(w, 20, 20) << 11 | BITS(w, 30, 21) << 1, 21);
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
			OPS("%s,%s", fence_set(p, BITS(w, 27, 24)), fence_set(q, BITS(w, 23, 20)));
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

	if (len < 2)
		return 0;
	w = (uint32_t)code[0] | (uint32_t)code[1] << 8;
	if ((w & 3) != 3) {
		size = 2;
		w = w ? expand((uint16_t)w) : 0;
	} else {
		if (len < 4)
			return 0;
		size = 4;
		w |= (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24;
	}
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
