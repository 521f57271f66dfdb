/* SPDX-License-Identifier: BSD-2-Clause */
/* bmprof bhive: a block's memory accesses as the host describes them to the harness
 * (transport/bhive.h), and the rule that excludes a block for a misaligned access: only
 * an access that crosses a 64-byte cache line (what BHive's MISALIGNED_MEM_REFERENCE
 * counter counts) excludes it; another misaligned access is run. The harness takes an
 * alignment fault, finds the faulting instruction's descriptor, computes its address
 * (x86-64: from the registers at the fault; AArch64: FAR_EL1) and steps over it with the
 * checks off when it stays inside one line. Host and harness share this header. */
#ifndef BMPROF_BHIVE_ACCESS_H
#define BMPROF_BHIVE_ACCESS_H

#include <stdint.h>

#define BHIVE_LINE 64u                   /* bytes of a cache line */
#define BHIVE_ACC_NOREG 0xffu

/* bhive_in_access.flags */
#define BHIVE_ACC_RIP 1u                 /* x86-64 rip-relative: disp is end + disp32 */
#define BHIVE_ACC_FS 2u                  /* x86-64 fs: or gs: override (base BHIVE_INIT) */
#define BHIVE_ACC_GS 4u
#define BHIVE_ACC_ADDR32 8u              /* x86-64 address-size prefix: 32-bit address */

/* One instruction's data access (its load and its store at one address, for a
 * read-modify-write). x86-64: the address is seg + base + (index << shift) + disp, base
 * and index numbered as the harness saves the registers (rax rcx rdx rbx rsp rbp rsi rdi
 * r8..r15); AArch64: the address comes from FAR_EL1, only at, len and size count. */
struct bhive_in_access {
	uint16_t at;                     /* the instruction's offset in the block */
	uint8_t len;                     /* its length in bytes */
	uint8_t flags;                   /* BHIVE_ACC_* */
	uint8_t base, index;             /* BHIVE_ACC_NOREG: none */
	uint8_t shift;                   /* 0-3 */
	uint8_t pad;
	uint16_t size;                   /* bytes accessed (both registers of a pair) */
	uint16_t pad2;
	int32_t disp;
};

#define BHIVE_MAX_ACCESS 4096u           /* per block */

/* 1 when size bytes from addr cross a cache line boundary (BHive's excluded blocks) */
static inline int bhive_splits_line(uint64_t addr, unsigned size)
{
	return (addr % BHIVE_LINE) + size > BHIVE_LINE;
}

/* The address of access a from the registers at the fault (x86-64 order above); copy:
 * the address of the copy of the block the instruction is in; rip: where rip-relative
 * operands point (BHIVE_RIP_BASE + rip_align when the harness rewrote them, else copy);
 * seg: the FS and GS base. */
static inline uint64_t bhive_access_ea(const struct bhive_in_access *a, const uint64_t regs[16],
				       uint64_t rip, uint64_t seg)
{
	uint64_t ea = (uint64_t)(int64_t)a->disp;

	if (a->flags & BHIVE_ACC_RIP)
		return rip + ea;
	if (a->base < 16)
		ea += regs[a->base];
	if (a->index < 16)
		ea += regs[a->index] << a->shift;
	if (a->flags & BHIVE_ACC_ADDR32)
		ea = (uint32_t)ea;
	if (a->flags & (BHIVE_ACC_FS | BHIVE_ACC_GS))
		ea += seg;
	return ea;
}

#endif
