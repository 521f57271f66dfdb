/* SPDX-License-Identifier: BSD-2-Clause */
/* Whether an instruction calls, returns or returns from an exception (enum ss_kind,
 * shadow_stack.h), from its bytes: what the insn_count plugin needs to keep a shadow call
 * stack without a disassembler.
 *   x86-64: call rel32 (e8), call r/m (ff /2, ff /3) with any prefixes and REX; ret (c3,
 *           c2 iw, with rep/bnd prefixes); iret/iretq (cf). A far return (cb, ca) is not
 *           a return: boot code uses it to reload CS.
 *   AArch64: BL, BLR, BLRAA/BLRAAZ/BLRAB/BLRABZ; RET, RETAA, RETAB; ERET, ERETAA, ERETAB.
 *   RISC-V: by the ISA's link-register conventions (x1 ra, x5 t0): jal/jalr writing a link
 *           register, and c.jalr, call; jalr x0 through a link register, and c.jr ra/t0,
 *           return; mret and sret return from an exception.
 * Pure; no I/O. */
#ifndef BMPROF_BRANCH_KIND_H
#define BMPROF_BRANCH_KIND_H

#include <stdint.h>
#include "shadow_stack.h"

static inline int branch_kind_x86(const uint8_t *b, unsigned long n)
{
	unsigned long i = 0;

	while (i < n && (b[i] == 0x66 || b[i] == 0x67 || b[i] == 0xf2 || b[i] == 0xf3 ||
			 b[i] == 0x2e || b[i] == 0x3e || b[i] == 0x26 || b[i] == 0x36 ||
			 b[i] == 0x64 || b[i] == 0x65 || b[i] == 0xf0))
		i++;
	if (i < n && (b[i] & 0xf0) == 0x40)
		i++;
	if (i >= n)
		return SS_OTHER;
	switch (b[i]) {
	case 0xe8:
		return SS_CALL;
	case 0xc2: case 0xc3:
		return SS_RET;
	case 0xcf:
		return SS_ERET;
	case 0xff:
		if (i + 1 < n && (((b[i + 1] >> 3) & 7) == 2 || ((b[i + 1] >> 3) & 7) == 3))
			return SS_CALL;
		return SS_OTHER;
	}
	return SS_OTHER;
}

static inline int branch_kind_a64(const uint8_t *b, unsigned long n)
{
	uint32_t w;

	if (n != 4)
		return SS_OTHER;
	w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	if ((w & 0xfc000000u) == 0x94000000u ||          /* BL */
	    (w & 0xfffffc1fu) == 0xd63f0000u ||          /* BLR */
	    (w & 0xfffff800u) == 0xd63f0800u ||          /* BLRAAZ, BLRABZ */
	    (w & 0xfffff800u) == 0xd73f0800u)            /* BLRAA, BLRAB */
		return SS_CALL;
	if ((w & 0xfffffc1fu) == 0xd65f0000u || w == 0xd65f0bffu || w == 0xd65f0fffu)
		return SS_RET;
	if (w == 0xd69f03e0u || w == 0xd69f0bffu || w == 0xd69f0fffu)
		return SS_ERET;
	return SS_OTHER;
}

static inline int branch_kind_rv_link(unsigned r)
{
	return r == 1 || r == 5;
}

static inline int branch_kind_rv(const uint8_t *b, unsigned long n)
{
	uint32_t w;

	if (n == 2) {
		w = (uint32_t)b[0] | (uint32_t)b[1] << 8;
		/* c.jr (funct4 1000) and c.jalr (1001): rs1 in bits 11:7, rs2 = 0 */
		if ((w & 0xe07fu) != 0x8002u || !(w >> 7 & 31))
			return SS_OTHER;
		if (w & 0x1000u)
			return SS_CALL;
		return branch_kind_rv_link(w >> 7 & 31) ? SS_RET : SS_OTHER;
	}
	if (n != 4)
		return SS_OTHER;
	w = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
	if (w == 0x30200073u || w == 0x10200073u)      /* mret, sret */
		return SS_ERET;
	if ((w & 0x7fu) == 0x6fu)                      /* jal */
		return branch_kind_rv_link(w >> 7 & 31) ? SS_CALL : SS_OTHER;
	if ((w & 0x707fu) != 0x67u)                    /* jalr */
		return SS_OTHER;
	if (branch_kind_rv_link(w >> 7 & 31))
		return SS_CALL;
	return !(w >> 7 & 31) && branch_kind_rv_link(w >> 15 & 31) ? SS_RET : SS_OTHER;
}

#endif
