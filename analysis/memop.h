/* SPDX-License-Identifier: BSD-2-Clause */
/* The memory accesses of one machine instruction, as an address expression over the
 * registers the instruction reads: what data-space backtracking (backtrack.h) needs to
 * compute an effective address from an interrupted register file. host/decode/memop_*.c
 * fill these from capstone (RISC-V: memop_rv.c), one per struct insn; the analyses never
 * decode bytes.
 *
 * Registers are DWARF numbers (regfile.h): x86-64 rax, rdx, rcx, rbx, rsi, rdi, rbp, rsp,
 * r8..r15 = 0..15; AArch64 x0..x30 = 0..30, sp = 31; RISC-V x0..x31 = 0..31 (an x0 base
 * is MEMOP_NOREG).
 *
 * The address, from the values the registers held before the instruction ran:
 *   ea = base + (extend(index) << shift) + disp       (base, index: 0 when MEMOP_NOREG)
 * truncated to 32 bits when addr32. With neither register disp is the absolute address
 * (x86 rip-relative and absolute forms, AArch64 literal loads: already resolved).
 *
 * The same address from the values after it ran, for instructions that move their own
 * address register by a known amount (AArch64 pre/post-index writeback, x86 push, pop,
 * call, ret, leave, one-shot string instructions):
 *   r[post_reg] == ea + post_off + r[post_index]     (post_index: 0 when MEMOP_NOREG)
 * post_reg is MEMOP_NOREG when there is no such relation. */
#ifndef BMPROF_MEMOP_H
#define BMPROF_MEMOP_H

#include <stdint.h>
#include "wire.h"

#define MEMOP_NOREG 0xff

/* Why an access's address is not an expression over the general registers. */
enum memop_why {
	MEMOP_OK = 0,
	MEMOP_SEGMENT,       /* x86 fs:/gs: override: the segment base is not captured */
	MEMOP_VECTOR_INDEX,  /* gather/scatter: the index is a vector register */
	MEMOP_REP,           /* rep string: advanced its registers an unknown number of times */
	MEMOP_FORM,          /* an addressing form not described (enter, xlat, ...) */
};

enum memop_ext {
	MEMOP_EXT_NONE = 0,  /* the whole 64-bit index */
	MEMOP_EXT_UXTW,      /* AArch64: low 32 bits, zero-extended */
	MEMOP_EXT_SXTW,      /* AArch64: low 32 bits, sign-extended */
};

struct memop_access {
	uint8_t valid;       /* the instruction makes this access */
	uint8_t why;         /* enum memop_why */
	uint8_t base, index; /* DWARF numbers or MEMOP_NOREG */
	uint8_t ext;         /* enum memop_ext, of the index */
	uint8_t shift;       /* index << shift (x86 scale 1, 2, 4, 8 = 0..3) */
	uint8_t addr32;      /* x86 address-size prefix: the address is 32 bits */
	uint8_t post_reg, post_index;
	uint16_t size;       /* bytes accessed (both registers of a pair) */
	int64_t disp;
	int64_t post_off;
};

#define MEMOP_F_UNDECODED 1u  /* bytes capstone could not decode: boundaries unknown */
#define MEMOP_F_REP 2u        /* x86 rep-prefixed string instruction */

struct memop {
	struct memop_access ld, st;  /* the load and the store (both for read-modify-write) */
	uint8_t flags;
};

/* The DWARF number of an insn.h register number (insn_regs), or MEMOP_NOREG for flags and
 * vector registers. arch: enum bmprof_arch. */
static inline unsigned memop_dwarf_of_insn_reg(unsigned arch, unsigned r)
{
	static const uint8_t x86[16] = { 0, 2, 1, 3, 7, 6, 4, 5, 8, 9, 10, 11, 12, 13, 14, 15 };
	if (arch == BMPROF_ARCH_X86_64)
		return r < 16 ? x86[r] : MEMOP_NOREG;
	return r < 32 ? r : MEMOP_NOREG;
}

/* The insn.h number of a DWARF register number (the inverse of the above). */
static inline unsigned memop_insn_reg_of_dwarf(unsigned arch, unsigned d)
{
	static const uint8_t x86[16] = { 0, 2, 1, 3, 6, 7, 5, 4, 8, 9, 10, 11, 12, 13, 14, 15 };
	if (arch == BMPROF_ARCH_X86_64)
		return d < 16 ? x86[d] : MEMOP_NOREG;
	return d < 32 ? d : MEMOP_NOREG;
}

#endif
