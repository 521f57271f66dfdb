/* SPDX-License-Identifier: BSD-2-Clause */
/* RISC-V instruction words (rv_insn.h): the compressed (C) forms expanded to their 32-bit
 * equivalents, and the immediates of the 32-bit formats. */
#include "symbol/rv_insn.h"

int64_t rv_sext(uint64_t v, unsigned bits)
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
	unsigned op = c & 3, f3 = c >> 13, rd = RV_BITS(c, 11, 7), rs2 = RV_BITS(c, 6, 2);
	unsigned rdp = 8 + RV_BITS(c, 4, 2), rs1p = 8 + RV_BITS(c, 9, 7);
	int32_t imm6 = (int32_t)rv_sext(RV_BITS(c, 12, 12) << 5 | RV_BITS(c, 6, 2), 6);

	if (op == 0) {
		unsigned lw = RV_BITS(c, 5, 5) << 6 | RV_BITS(c, 12, 10) << 3 | RV_BITS(c, 6, 6) << 2;
		unsigned ld = RV_BITS(c, 6, 5) << 6 | RV_BITS(c, 12, 10) << 3;
		unsigned nz = RV_BITS(c, 10, 7) << 6 | RV_BITS(c, 12, 11) << 4 | RV_BITS(c, 5, 5) << 3 |
			      RV_BITS(c, 6, 6) << 2;
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
				int32_t i = (int32_t)rv_sext(RV_BITS(c, 12, 12) << 9 | RV_BITS(c, 4, 3) << 7 |
					RV_BITS(c, 5, 5) << 6 | RV_BITS(c, 2, 2) << 5 | RV_BITS(c, 6, 6) << 4, 10);
				return i ? i_type(i, 2, 0, 2, 0x13) : 0;
			}
			return imm6 ? ((uint32_t)imm6 & 0xfffff) << 12 | rd << 7 | 0x37 : 0;   /* lui */
		case 4: {
			unsigned f2 = RV_BITS(c, 11, 10), sh = RV_BITS(c, 12, 12) << 5 | RV_BITS(c, 6, 2);
			if (f2 == 0)
				return i_type((int32_t)sh, rs1p, 5, rs1p, 0x13);     /* srli */
			if (f2 == 1)
				return i_type((int32_t)(sh | 0x400), rs1p, 5, rs1p, 0x13);   /* srai */
			if (f2 == 2)
				return i_type(imm6, rs1p, 7, rs1p, 0x13);            /* andi */
			unsigned f = RV_BITS(c, 12, 12) << 2 | RV_BITS(c, 6, 5), r2 = 8 + RV_BITS(c, 4, 2);
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
			int32_t i = (int32_t)rv_sext(RV_BITS(c, 12, 12) << 11 | RV_BITS(c, 8, 8) << 10 |
				RV_BITS(c, 10, 9) << 8 | RV_BITS(c, 6, 6) << 7 | RV_BITS(c, 7, 7) << 6 |
				RV_BITS(c, 2, 2) << 5 | RV_BITS(c, 11, 11) << 4 | RV_BITS(c, 5, 3) << 1, 12);
			return j_type(i, 0);                                         /* j */
		}
		case 6: case 7: {
			int32_t i = (int32_t)rv_sext(RV_BITS(c, 12, 12) << 8 | RV_BITS(c, 6, 5) << 6 |
				RV_BITS(c, 2, 2) << 5 | RV_BITS(c, 11, 10) << 3 | RV_BITS(c, 4, 3) << 1, 9);
			return b_type(i, 0, rs1p, f3 == 6 ? 0 : 1);                  /* beqz, bnez */
		}
		}
		return 0;
	}
	if (op == 2) {
		unsigned sh = RV_BITS(c, 12, 12) << 5 | RV_BITS(c, 6, 2);
		unsigned lwsp = RV_BITS(c, 3, 2) << 6 | RV_BITS(c, 12, 12) << 5 | RV_BITS(c, 6, 4) << 2;
		unsigned ldsp = RV_BITS(c, 4, 2) << 6 | RV_BITS(c, 12, 12) << 5 | RV_BITS(c, 6, 5) << 3;
		unsigned swsp = RV_BITS(c, 8, 7) << 6 | RV_BITS(c, 12, 9) << 2;
		unsigned sdsp = RV_BITS(c, 9, 7) << 6 | RV_BITS(c, 12, 10) << 3;
		switch (f3) {
		case 0: return i_type((int32_t)sh, rd, 1, rd, 0x13);                 /* slli */
		case 1: return i_type((int32_t)ldsp, 2, 3, rd, 0x07);                /* fldsp */
		case 2: return rd ? i_type((int32_t)lwsp, 2, 2, rd, 0x03) : 0;       /* lwsp */
		case 3: return rd ? i_type((int32_t)ldsp, 2, 3, rd, 0x03) : 0;       /* ldsp */
		case 4:
			if (!RV_BITS(c, 12, 12)) {
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

int64_t rv_imm_i(uint32_t w)
{
	return rv_sext(w >> 20, 12);
}

int64_t rv_imm_s(uint32_t w)
{
	return rv_sext(RV_BITS(w, 31, 25) << 5 | RV_BITS(w, 11, 7), 12);
}

int64_t rv_imm_b(uint32_t w)
{
	return rv_sext(RV_BITS(w, 31, 31) << 12 | RV_BITS(w, 7, 7) << 11 |
		       RV_BITS(w, 30, 25) << 5 | RV_BITS(w, 11, 8) << 1, 13);
}

int64_t rv_imm_u(uint32_t w)
{
	return rv_sext(w & 0xfffff000u, 32);
}

int64_t rv_imm_j(uint32_t w)
{
	return rv_sext(RV_BITS(w, 31, 31) << 20 | RV_BITS(w, 19, 12) << 12 |
		       RV_BITS(w, 20, 20) << 11 | RV_BITS(w, 30, 21) << 1, 21);
}

unsigned rv_fetch(const uint8_t *code, size_t len, uint32_t *w)
{
	if (len < 2)
		return 0;
	*w = (uint32_t)code[0] | (uint32_t)code[1] << 8;
	if ((*w & 3) != 3) {
		*w = *w ? expand((uint16_t)*w) : 0;
		return 2;
	}
	if (len < 4)
		return 0;
	*w |= (uint32_t)code[2] << 16 | (uint32_t)code[3] << 24;
	return 4;
}
